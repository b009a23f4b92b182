import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { useT } from '../../i18n/use-t';

/**
 * On a call that waits for the person (its elicitation form, a sampling
 * review): opens that question, which may have been put aside with “Later”.
 */
export function AnswerQuestionButton({ pendingId, tool }: { pendingId: string; tool: string }) {
  const t = useT();
  const focusPending = useBerth((s) => s.focusPending);
  const open = useBerth((s) => s.pending.some((r) => r.id === pendingId));
  return (
    <Button
      size="sm"
      variant="primary"
      disabled={!open}
      onClick={() => focusPending(pendingId)}
      title={t('chat.call.answerHint', { tool })}
    >
      {t('chat.call.answer')}
    </Button>
  );
}
