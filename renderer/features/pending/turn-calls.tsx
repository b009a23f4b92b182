import { useShallow } from 'zustand/react/shallow';
import type { PendingRequestOf } from '../../../shared/domain/pending';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { argumentsSummary } from './pending-model';
import { SafeName } from '../shell/safe-name';
import { useT } from '../../i18n/use-t';

/**
 * The other tool calls of the same turn that wait too (the model asked for
 * several at once): a conversation runs one turn at a time, so the calls that
 * wait in it are that turn's. Each opens on its own, or all of them in the
 * tray's review list.
 */
export function TurnCalls({ request }: { request: PendingRequestOf<'tool-call'> }) {
  const others = useBerth(
    useShallow((s) =>
      request.conversationId === undefined
        ? []
        : s.pending.filter(
            (r): r is PendingRequestOf<'tool-call'> =>
              r.kind === 'tool-call' && r.id !== request.id && r.conversationId === request.conversationId,
          ),
    ),
  );
  const t = useT();
  const focusPending = useBerth((s) => s.focusPending);
  const reviewTogether = useBerth((s) => s.reviewPendingTogether);
  if (others.length === 0) return null;
  return (
    <section className="consent-turn" aria-label={t('pending.turn.label')} data-testid="turn-calls">
      <span className="claims-label">{t('pending.turn.waiting', { count: others.length })}</span>
      <ul>
        {others.map((other) => (
          <li key={other.id} className="consent-turn-call">
            <Button size="sm" variant="ghost" onClick={() => focusPending(other.id)} title={t('pending.turn.openHint')}>
              <strong>
                <SafeName name={other.server} />
              </strong>
              &nbsp;›&nbsp;
              <code>
                <SafeName name={other.payload.tool} />
              </code>
            </Button>
            <code className="review-args">{argumentsSummary(other.payload.arguments)}</code>
          </li>
        ))}
      </ul>
      <div>
        <Button
          size="sm"
          onClick={() => reviewTogether([request.id, ...others.map((other) => other.id)])}
          title={t('pending.turn.reviewHint')}
        >
          {t('pending.turn.review', { count: others.length + 1 })}
        </Button>
      </div>
    </section>
  );
}
