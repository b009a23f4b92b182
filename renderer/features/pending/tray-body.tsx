import clsx from 'clsx';
import { lazy, Suspense, type ReactNode } from 'react';
import type { AwaitingElicitation } from '../../../shared/contract/elicitation';
import type { PendingKind, PendingRequest, PendingRequestOf } from '../../../shared/domain/pending';
import { PENDING_KINDS } from '../../../shared/domain/pending-kinds';
import { IconButton } from '../../ui/controls';
import { BookIcon, CloseIcon, ExternalIcon, FolderIcon, FormIcon, ShieldIcon, SparkleIcon } from '../../ui/icons';
import { describeRequest, formatAge, kindCount, kindLabel } from './pending-model';
import { SafeName } from '../shell/safe-name';
import { showableName } from '../../../shared/domain/showable-name';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';

// What the open Requests tray lists (pending-tray.tsx keeps the button and the state; this loads
// with the tray's first opening).

// Shown only in the open tray, once.
const NotificationsOffer = lazy(async () => ({ default: (await import('./notifications-offer')).NotificationsOffer }));
// Only with two or more tool calls waiting.
const ReviewList = lazy(async () => ({ default: (await import('./review-list')).ReviewList }));

export const KIND_ICONS: Record<PendingKind, ReactNode> = {
  'tool-call': <ShieldIcon />,
  sampling: <SparkleIcon />,
  'sampling-answer': <SparkleIcon />,
  elicitation: <FormIcon />,
  'root-consent': <FolderIcon />,
  skill: <BookIcon />,
};

/** What the tray shows; `listed`: the tool calls waiting when it opened ("Allow all" answers these and no others). */
export interface TrayBodyProps {
  counts: Record<PendingKind, number>;
  pending: readonly PendingRequest[];
  awaiting: readonly AwaitingElicitation[];
  titles: readonly (string | undefined)[];
  now: number;
  review: boolean;
  reviewed: PendingRequestOf<'tool-call'>[];
  listed: ReadonlySet<string>;
  onOpen: (id: string) => void;
  onDone: () => void;
  onDismissAwaiting: (id: string) => void;
}

export function TrayBody({
  counts,
  pending,
  awaiting,
  titles,
  now,
  review,
  reviewed,
  listed,
  onOpen,
  onDone,
  onDismissAwaiting,
}: TrayBodyProps) {
  const t = useT();
  const total = pending.length;
  return (
    <>
      <div className="popover-head">
        <strong>{t('pending.tray.head')}</strong>
        <div className="chips">
          {PENDING_KINDS.map((kind) =>
            counts[kind] > 0 ? (
              <span key={kind} className={clsx('chip', 'kind-chip', `kind-${kind}`)}>
                {KIND_ICONS[kind]} {kindCount(kind, counts[kind])}
              </span>
            ) : null,
          )}
        </div>
      </div>
      {total === 0 && awaiting.length === 0 ? <p className="popover-empty">{t('pending.tray.empty')}</p> : null}
      {total > 0 ? (
        <Suspense fallback={null}>
          <NotificationsOffer />
        </Suspense>
      ) : null}
      {review ? (
        <Suspense fallback={null}>
          <ReviewList calls={reviewed} onOpen={onOpen} onDone={onDone} />
        </Suspense>
      ) : null}
      {total > 0 && (!review || total > reviewed.length) ? (
        <>
          {review ? <span className="sidebar-heading tray-others-heading">{t('pending.tray.others')}</span> : null}
          <ul className="tray-list" aria-label={t(review ? 'pending.tray.otherList' : 'pending.tray.list')}>
            {pending.map((request, index) =>
              review && listed.has(request.id) ? null : (
                <li key={request.id}>
                  <button type="button" className="tray-item" onClick={() => onOpen(request.id)}>
                    <span className={clsx('pending-kind-icon small', `kind-${request.kind}`)} aria-hidden="true">
                      {KIND_ICONS[request.kind]}
                    </span>
                    <span className="tray-item-text">
                      <span className="tray-item-title">
                        {kindLabel(request.kind)} ·{' '}
                        <strong>
                          <SafeName name={request.server} />
                        </strong>
                      </span>
                      <bdi className="tray-item-detail">{describeRequest(request)}</bdi>
                      {titles[index] ? (
                        <span className="tray-item-detail">
                          {t('pending.tray.inConversation', { title: titles[index] })}
                        </span>
                      ) : null}
                      {review && request.kind === 'tool-call' ? (
                        <span className="tray-item-detail tray-item-late" data-testid="late-call">
                          {t('pending.tray.late')}
                        </span>
                      ) : null}
                    </span>
                    <span className="tray-age">{formatAge(now - request.createdAt)}</span>
                  </button>
                </li>
              ),
            )}
          </ul>
        </>
      ) : null}
      {awaiting.length > 0 ? (
        <div className="tray-awaiting">
          <span className="sidebar-heading">{t('pending.tray.opened')}</span>
          <ul className="tray-list">
            {awaiting.map((item) => (
              <li key={item.id} className="tray-awaiting-item">
                <ExternalIcon />
                <span className="tray-item-text">
                  <span className="tray-item-title">
                    <T
                      id="pending.tray.awaitingFor"
                      components={{
                        domain: (
                          <strong>
                            <SafeName name={item.domain} />
                          </strong>
                        ),
                        server: <SafeName name={item.server} />,
                      }}
                    />
                  </span>
                  <span className="tray-item-detail">{t('pending.tray.awaitingDone')}</span>
                </span>
                <IconButton
                  label={t('pending.tray.stopWaiting', { domain: showableName(item.domain) })}
                  icon={<CloseIcon />}
                  onClick={() => onDismissAwaiting(item.id)}
                />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}
