import { useShallow } from 'zustand/react/shallow';
import type { PendingRequestOf } from '../../../shared/domain/pending';
import { useBerth } from '../../store';
import { Button } from '../shell/controls';
import { argumentsSummary } from './pending-model';

/**
 * The other tool calls of the same turn that wait too (the model asked for
 * several at once): a conversation runs one turn at a time, so the calls that
 * wait in it are that turn's. Each opens on its own; "Allow all" is the tray's.
 */
export function TurnCalls({ request }: { request: PendingRequestOf<'tool-call'> }) {
  const others = useBerth(
    useShallow((s) =>
      request.conversationId === undefined
        ? []
        : s.pending.filter((r): r is PendingRequestOf<'tool-call'> => r.kind === 'tool-call' && r.id !== request.id && r.conversationId === request.conversationId),
    ),
  );
  const focusPending = useBerth((s) => s.focusPending);
  if (others.length === 0) return null;
  return (
    <section className="consent-turn" aria-label="Other calls of this turn" data-testid="turn-calls">
      <span className="claims-label">
        {others.length === 1 ? '1 other call of this turn is waiting' : `${others.length} other calls of this turn are waiting`} (answer them together from the Requests tray):
      </span>
      <ul>
        {others.map((other) => (
          <li key={other.id} className="consent-turn-call">
            <Button size="sm" variant="ghost" onClick={() => focusPending(other.id)} title="Open this call instead; this one keeps waiting">
              <strong>{other.server}</strong>&nbsp;›&nbsp;<code>{other.payload.tool}</code>
            </Button>
            <code className="review-args">{argumentsSummary(other.payload.arguments)}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
