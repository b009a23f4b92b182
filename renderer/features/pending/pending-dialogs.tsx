import clsx from 'clsx';
import { useCallback, useRef, useState } from 'react';
import type { PendingKind, PendingRequest, PendingResponse } from '../../../shared/domain/pending';
import type { Failure } from '../../../shared/result';
import { activePendingRequest, useBerth, useBerthStore } from '../../store';
import { ElicitationDialog } from './elicitation-dialog';
import { RootConsentDialog } from './root-consent-dialog';
import { SamplingAnswerDialog } from './sampling-answer-dialog';
import { SamplingReviewDialog } from './sampling-review-dialog';
import { SkillApprovalDialog } from './skill-approval-dialog';
import { ToolConsentDialog } from './tool-consent-dialog';
import { Dialog } from '../../ui/dialog';
import { failureWords, useWords } from '../../i18n/words';

/**
 * Opens waiting requests one at a time, oldest first (or the one picked in the
 * tray). Esc and the X mean "Later": the request stays in the tray, since
 * closing a window is not a decision; no, reject and cancel are always explicit
 * buttons. A click outside does nothing, so a stray click never answers.
 */
export function PendingDialogs() {
  const request = useBerth(activePendingRequest);
  const store = useBerthStore();
  // The last request shown: when it closes, its tool card (or the tray) is where it can be found again.
  const shown = useRef<PendingRequest | undefined>(undefined);
  if (request) shown.current = request;

  return (
    <Dialog
      open={request !== undefined}
      onOpenChange={(open) => {
        // Read the store, not the render's value: a newer request may already be showing.
        const state = store.getState();
        const current = activePendingRequest(state);
        if (!open && current) state.deferPending(current.id);
      }}
      className={clsx('pending-dialog', request?.kind === 'elicitation' ? 'dialog-wide' : 'dialog-review')}
      aria-describedby={undefined}
      returnFocus={() => whereItWaits(shown.current)}
      onPointerDownOutside={(event) => event.preventDefault()}
      onInteractOutside={(event) => event.preventDefault()}
      data-kind={request?.kind}
    >
      {request ? <PendingBody key={request.id} request={request} /> : null}
    </Dialog>
  );
}

/**
 * Where the focus goes when a request that opened by itself closes and nothing outside had the
 * focus: its tool card in the chat, else the tray that lists what still waits.
 */
function whereItWaits(request: PendingRequest | undefined): Element | null {
  const card = [...document.querySelectorAll('[data-tool-use]')].find(
    (element) => request?.toolUseId !== undefined && element.getAttribute('data-tool-use') === request.toolUseId,
  );
  return (
    card?.querySelector('.tool-call-head button:not(:disabled)') ??
    card ??
    document.querySelector('[data-testid="pending-tray"]')
  );
}

function PendingBody({ request }: { request: PendingRequest }) {
  const answerPending = useBerth((s) => s.answerPending);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>();
  const wordsOf = useWords();
  const answer = useCallback(
    async (response: PendingResponse<PendingKind>) => {
      setBusy(true);
      setFailure(undefined);
      const result = await answerPending(request.id, request.kind, response);
      // On success this body unmounts (the request left the queue); on failure the person can fix and retry.
      if (!result.ok) {
        setBusy(false);
        if (result.code !== 'NOT_FOUND') setFailure(result);
      }
    },
    [answerPending, request.id, request.kind],
  );
  // Worded here, as it renders, so a language switch re-words a refusal already shown.
  const error = failure && wordsOf(failureWords(failure));
  switch (request.kind) {
    case 'tool-call':
      return <ToolConsentDialog request={request} answer={answer} busy={busy} error={error} />;
    case 'sampling':
      return <SamplingReviewDialog request={request} answer={answer} busy={busy} error={error} />;
    case 'sampling-answer':
      return <SamplingAnswerDialog request={request} answer={answer} busy={busy} error={error} />;
    case 'elicitation':
      return <ElicitationDialog request={request} answer={answer} busy={busy} error={error} />;
    case 'root-consent':
      return <RootConsentDialog request={request} answer={answer} busy={busy} error={error} />;
    case 'skill':
      return <SkillApprovalDialog request={request} answer={answer} busy={busy} error={error} />;
  }
}
