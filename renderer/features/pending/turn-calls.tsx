import { useShallow } from 'zustand/react/shallow';
import type { PendingRequestOf } from '../../../shared/domain/pending';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { argumentsSummary } from './pending-model';
import { SafeName } from '../shell/safe-name';

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
  const focusPending = useBerth((s) => s.focusPending);
  const reviewTogether = useBerth((s) => s.reviewPendingTogether);
  if (others.length === 0) return null;
  return (
    <section className="consent-turn" aria-label="Other calls of this turn" data-testid="turn-calls">
      <span className="claims-label">
        {others.length === 1
          ? '1 other call of this turn is waiting'
          : `${others.length} other calls of this turn are waiting`}
        :
      </span>
      <ul>
        {others.map((other) => (
          <li key={other.id} className="consent-turn-call">
            <Button
              size="sm"
              variant="ghost"
              onClick={() => focusPending(other.id)}
              title="Open this call instead; this one keeps waiting"
            >
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
          title="Put these calls aside and list them in the Requests tray, to allow or deny them together"
        >
          Review all {others.length + 1} together
        </Button>
      </div>
    </section>
  );
}
