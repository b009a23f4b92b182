import clsx from 'clsx';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ConversationSummary } from '../../../shared/domain/chat';
import type { PendingRequestOf } from '../../../shared/domain/pending';
import { PENDING_KINDS } from '../../../shared/domain/pending-kinds';
import { useBerth } from '../../store';
import { useNow } from '../servers/use-now';
import { InboxIcon } from '../../ui/icons';
import { LazyPopover } from '../../ui/lazy-popover';
import { kindCount } from './pending-model';
import { useT } from '../../i18n/use-t';

const NO_TITLES: readonly (string | undefined)[] = [];
const EMPTY_IDS: ReadonlySet<string> = new Set();
// What the tray lists loads with its first opening: the button is on every screen, the list rarely open.
const TrayBody = lazy(async () => ({ default: (await import('./tray-body')).TrayBody }));

function conversationTitle(conversations: readonly ConversationSummary[], id: string | undefined): string | undefined {
  return id === undefined ? undefined : conversations.find((conversation) => conversation.id === id)?.title;
}

/**
 * The top bar's badge: how many requests wait, per kind, and the list of
 * them. Picking one opens its dialog; nothing here answers for the person.
 */
export function PendingTray() {
  const t = useT();
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
  const titles = useBerth(
    useShallow((s) =>
      open ? s.pending.map((request) => conversationTitle(s.conversations, request.conversationId)) : NO_TITLES,
    ),
  );
  const now = useNow(open && pending.length > 0, 1000);
  const total = pending.length;
  const summary = PENDING_KINDS.filter((kind) => counts[kind] > 0).map((kind) => kindCount(kind, counts[kind]));
  const label =
    total === 0
      ? t('pending.tray.nothingWaiting')
      : t('pending.tray.waiting', { summary: summary.join(t('pending.tray.separator')) });
  const reviewed = pending.filter(
    (request): request is PendingRequestOf<'tool-call'> => request.kind === 'tool-call' && listed.has(request.id),
  );
  const review = reviewed.length >= 2;
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next)
      setListed(new Set(pending.filter((request) => request.kind === 'tool-call').map((request) => request.id)));
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
    <LazyPopover
      open={open}
      onOpenChange={onOpenChange}
      className="popover tray-popover"
      trigger={(props) => (
        <button
          {...props}
          type="button"
          className={clsx('tray-button', total > 0 && 'has-pending')}
          aria-label={label}
          data-testid="pending-tray"
        >
          <InboxIcon />
          <span className="tray-label">{t('pending.tray.label')}</span>
          {total > 0 ? <span className="tray-count">{total}</span> : null}
          {awaiting.length > 0 ? <span className="tray-dot" title={t('pending.tray.awaitingDot')} /> : null}
        </button>
      )}
    >
      <Suspense fallback={<p className="popover-empty">{t('pending.tray.loading')}</p>}>
        <TrayBody
          counts={counts}
          pending={pending}
          awaiting={awaiting}
          titles={titles}
          now={now}
          review={review}
          reviewed={reviewed}
          listed={listed}
          onOpen={openOne}
          onDone={() => setOpen(false)}
          onDismissAwaiting={(id) => void dismissAwaiting(id)}
        />
      </Suspense>
    </LazyPopover>
  );
}
