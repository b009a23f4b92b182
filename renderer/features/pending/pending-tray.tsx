import clsx from 'clsx';
import { Popover } from 'radix-ui';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ConversationSummary } from '../../../shared/domain/chat';
import type { PendingKind, PendingRequestOf } from '../../../shared/domain/pending';
import { PENDING_KINDS } from '../../../shared/domain/pending-kinds';
import { useBerth } from '../../store';
import { useNow } from '../servers/use-now';
import { IconButton } from '../shell/controls';
import { CloseIcon, ExternalIcon, BookIcon, FolderIcon, FormIcon, InboxIcon, ShieldIcon, SparkleIcon } from '../shell/icons';
import { describeRequest, formatAge, KIND_LABELS } from './pending-model';

const NO_TITLES: readonly (string | undefined)[] = [];
// Shown only in the open tray, once: not worth a place in the first screen's JavaScript.
const NotificationsOffer = lazy(async () => ({ default: (await import('./notifications-offer')).NotificationsOffer }));
const EMPTY_IDS: ReadonlySet<string> = new Set();
// Only with two or more tool calls waiting and the tray open.
const ReviewList = lazy(async () => ({ default: (await import('./review-list')).ReviewList }));

function conversationTitle(conversations: readonly ConversationSummary[], id: string | undefined): string | undefined {
  return id === undefined ? undefined : conversations.find((conversation) => conversation.id === id)?.title;
}

export const KIND_ICONS: Record<PendingKind, ReactNode> = {
  'tool-call': <ShieldIcon />,
  sampling: <SparkleIcon />,
  'sampling-answer': <SparkleIcon />,
  elicitation: <FormIcon />,
  'root-consent': <FolderIcon />,
  skill: <BookIcon />,
};

/**
 * The top bar's badge: how many requests wait, per kind, and the list of
 * them. Picking one opens its dialog; nothing here answers for the person.
 */
export function PendingTray() {
  const counts = useBerth((s) => s.pendingCounts);
  const pending = useBerth((s) => s.pending);
  const awaiting = useBerth((s) => s.awaitingElicitations);
  const focusPending = useBerth((s) => s.focusPending);
  const dismissAwaiting = useBerth((s) => s.dismissAwaitingElicitation);
  const [open, setOpen] = useState(false);
  // The tool calls waiting when the tray opened: the review list answers these and no others.
  const [listed, setListed] = useState<ReadonlySet<string>>(EMPTY_IDS);
  // Only the titles the open list shows, looked up by id: the tray is always mounted, and a
  // map of every title rebuilt on each list change cost 5,000 entries twice per message sent.
  const titles = useBerth(useShallow((s) => (open ? s.pending.map((request) => conversationTitle(s.conversations, request.conversationId)) : NO_TITLES)));
  const now = useNow(open && pending.length > 0, 1000);
  const total = pending.length;
  const summary = PENDING_KINDS.filter((kind) => counts[kind] > 0).map((kind) => `${counts[kind]} ${(counts[kind] === 1 ? KIND_LABELS[kind].one : KIND_LABELS[kind].many).toLowerCase()}`);
  const label = total === 0 ? 'Requests: nothing waiting' : `Requests: ${summary.join(', ')} waiting`;
  const reviewed = pending.filter((request): request is PendingRequestOf<'tool-call'> => request.kind === 'tool-call' && listed.has(request.id));
  const review = reviewed.length >= 2;
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) setListed(new Set(pending.filter((request) => request.kind === 'tool-call').map((request) => request.id)));
  };
  // "Review them together" in a dialog: open on what waits now, once the dialog has let go of focus.
  const trayAsk = useBerth((s) => s.pendingTrayAsk);
  const openOnAsk = useRef(onOpenChange);
  openOnAsk.current = onOpenChange;
  useEffect(() => {
    if (trayAsk === 0) return undefined;
    const timer = setTimeout(() => openOnAsk.current(true), 0);
    return () => clearTimeout(timer);
  }, [trayAsk]);
  const openOne = (id: string) => {
    focusPending(id);
    setOpen(false);
  };

  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger asChild>
        <button type="button" className={clsx('tray-button', total > 0 && 'has-pending')} aria-label={label} data-testid="pending-tray">
          <InboxIcon />
          <span className="tray-label">Requests</span>
          {total > 0 ? <span className="tray-count">{total}</span> : null}
          {awaiting.length > 0 ? <span className="tray-dot" title="Waiting for a page you opened" /> : null}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover tray-popover" align="end" sideOffset={6} collisionPadding={8}>
          <div className="popover-head">
            <strong>Waiting for you</strong>
            <div className="chips">
              {PENDING_KINDS.map((kind) =>
                counts[kind] > 0 ? (
                  <span key={kind} className={clsx('chip', 'kind-chip', `kind-${kind}`)}>
                    {KIND_ICONS[kind]} {counts[kind]} {(counts[kind] === 1 ? KIND_LABELS[kind].one : KIND_LABELS[kind].many).toLowerCase()}
                  </span>
                ) : null,
              )}
            </div>
          </div>
          {total === 0 && awaiting.length === 0 ? (
            <p className="popover-empty">Nothing is waiting. Tool calls, sampling requests and questions from servers show up here.</p>
          ) : null}
          {total > 0 ? (
            <Suspense fallback={null}>
              <NotificationsOffer />
            </Suspense>
          ) : null}
          {review ? (
            <Suspense fallback={null}>
              <ReviewList calls={reviewed} onOpen={openOne} onDone={() => setOpen(false)} />
            </Suspense>
          ) : null}
          {total > 0 && (!review || total > reviewed.length) ? (
            <>
              {review ? <span className="sidebar-heading tray-others-heading">Other requests</span> : null}
              <ul className="tray-list" aria-label={review ? 'Other waiting requests' : 'Waiting requests'}>
                {pending.map((request, index) =>
                  review && listed.has(request.id) ? null : (
                    <li key={request.id}>
                      <button type="button" className="tray-item" onClick={() => openOne(request.id)}>
                        <span className={clsx('pending-kind-icon small', `kind-${request.kind}`)} aria-hidden="true">
                          {KIND_ICONS[request.kind]}
                        </span>
                        <span className="tray-item-text">
                          <span className="tray-item-title">
                            {KIND_LABELS[request.kind].one} · <strong>{request.server}</strong>
                          </span>
                          <span className="tray-item-detail">{describeRequest(request)}</span>
                          {titles[index] ? <span className="tray-item-detail">in {titles[index]}</span> : null}
                          {review && request.kind === 'tool-call' ? (
                            <span className="tray-item-detail tray-item-late" data-testid="late-call">
                              Arrived after this list opened: not in “Allow all”
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
              <span className="sidebar-heading">Opened in your browser</span>
              <ul className="tray-list">
                {awaiting.map((item) => (
                  <li key={item.id} className="tray-awaiting-item">
                    <ExternalIcon />
                    <span className="tray-item-text">
                      <span className="tray-item-title">
                        <strong>{item.domain}</strong> for {item.server}
                      </span>
                      <span className="tray-item-detail">Waiting for the server to say you are done.</span>
                    </span>
                    <IconButton label={`Stop waiting for ${item.domain}`} icon={<CloseIcon />} onClick={() => void dismissAwaiting(item.id)} />
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
