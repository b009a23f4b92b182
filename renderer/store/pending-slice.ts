import type { PendingCounts, PendingRequest } from '../../shared/domain/pending';
import { PENDING_KINDS } from '../../shared/domain/pending-kinds';
import type { PendingSlice, SliceCreator } from './types';
import { failureWords, verbatim, words } from '../i18n/words';

/** Counts recomputed from a list (snapshots carry no counts of their own). */
export function countPending(list: readonly PendingRequest[]): PendingCounts {
  const counts = {
    'tool-call': 0,
    sampling: 0,
    'sampling-answer': 0,
    elicitation: 0,
    'root-consent': 0,
    skill: 0,
    total: list.length,
  };
  for (const request of list) counts[request.kind] += 1;
  return counts;
}

const EMPTY_COUNTS: PendingCounts = {
  ...Object.fromEntries(PENDING_KINDS.map((k) => [k, 0])),
  total: 0,
} as PendingCounts;

/**
 * The request whose dialog is open: the one picked in the tray, else the
 * oldest that was not put aside. Undefined when nothing needs the person.
 */
export function activePendingRequest(
  state: Pick<PendingSlice, 'pending' | 'deferredPending' | 'focusedPending'>,
): PendingRequest | undefined {
  const focused =
    state.focusedPending !== undefined ? state.pending.find((r) => r.id === state.focusedPending) : undefined;
  if (focused) return focused;
  const deferred = new Set(state.deferredPending);
  return state.pending.find((r) => !deferred.has(r.id));
}

function without(state: Pick<PendingSlice, 'pending' | 'deferredPending' | 'focusedPending'>, id: string) {
  return {
    pending: state.pending.filter((r) => r.id !== id),
    deferredPending: state.deferredPending.filter((d) => d !== id),
    focusedPending: state.focusedPending === id ? undefined : state.focusedPending,
  };
}

export const createPendingSlice: SliceCreator<PendingSlice> = (transport) => (set, get) => ({
  pending: [],
  pendingCounts: EMPTY_COUNTS,
  deferredPending: [],
  focusedPending: undefined,
  awaitingElicitations: [],
  pendingTrayAsk: 0,

  applyPendingSnapshot(list) {
    set((s) => {
      const ids = new Set(list.map((r) => r.id));
      return {
        pending: [...list].sort((a, b) => a.createdAt - b.createdAt),
        pendingCounts: countPending(list),
        deferredPending: s.deferredPending.filter((id) => ids.has(id)),
        focusedPending: s.focusedPending !== undefined && ids.has(s.focusedPending) ? s.focusedPending : undefined,
      };
    });
  },
  applyPendingChange({ change, counts }) {
    if (change.type === 'opened') {
      set((s) =>
        s.pending.some((r) => r.id === change.request.id)
          ? { pendingCounts: counts }
          : { pending: [...s.pending, change.request], pendingCounts: counts },
      );
      return;
    }
    const wasShown = get().pending.some((r) => r.id === change.id);
    set((s) => ({ ...without(s, change.id), pendingCounts: counts }));
    if (change.type === 'withdrawn' && wasShown) {
      get().pushToast({
        tone: 'info',
        title: words('pending.toast.withdrawn', { server: change.server }),
        // The host's own note is worded in the person's language; a server's reason shows as the server wrote it.
        message:
          change.noteMessage !== undefined
            ? { hostMessage: change.noteMessage, fallback: change.note }
            : verbatim(change.note),
      });
    }
  },
  applyAwaitingElicitations(list) {
    set({ awaitingElicitations: list });
  },
  async loadPending() {
    const [pending, awaiting] = await Promise.all([
      transport.call('pending.list', {}),
      transport.call('elicitation.awaiting', {}),
    ]);
    if (pending.ok) get().applyPendingSnapshot(pending.value);
    else get().toastFailure(words('pending.toast.loadFailed'), pending);
    if (awaiting.ok) get().applyAwaitingElicitations(awaiting.value);
    else get().toastFailure(words('pending.toast.linksFailed'), awaiting);
  },
  async answerPending(id, _kind, response) {
    const result = await transport.call('pending.answer', { id, response });
    if (result.ok) {
      set((s) => without(s, id));
    } else if (result.code === 'NOT_FOUND') {
      // Withdrawn while the person was answering: the request is gone, say so once.
      set((s) => without(s, id));
      get().pushToast({ tone: 'info', title: words('pending.toast.gone'), message: failureWords(result) });
    }
    return result;
  },
  deferPending(id) {
    set((s) => ({
      deferredPending: s.deferredPending.includes(id) ? s.deferredPending : [...s.deferredPending, id],
      focusedPending: s.focusedPending === id ? undefined : s.focusedPending,
    }));
  },
  reviewPendingTogether(ids) {
    set((s) => ({
      deferredPending: [...new Set([...s.deferredPending, ...ids])],
      focusedPending: s.focusedPending !== undefined && ids.includes(s.focusedPending) ? undefined : s.focusedPending,
      pendingTrayAsk: s.pendingTrayAsk + 1,
    }));
  },
  focusPending(id) {
    set((s) => ({ focusedPending: id, deferredPending: s.deferredPending.filter((d) => d !== id) }));
  },
  async dismissAwaitingElicitation(id) {
    const result = await transport.call('elicitation.dismiss', { id });
    if (result.ok) set((s) => ({ awaitingElicitations: s.awaitingElicitations.filter((a) => a.id !== id) }));
    else get().toastFailure(words('pending.toast.closeNoteFailed'), result);
  },
});
