import type { Handlers } from '../../shared/contract';
import type { elicitationMethods } from '../../shared/contract/elicitation';
import type { ElicitationFlow } from '../elicitation/elicitation-flow';
import { awaitingView } from '../elicitation/awaiting-view';

/** The elicitation methods of the contract. */
export type ElicitationHandlers = Pick<Handlers, keyof typeof elicitationMethods>;

/** URL-mode elicitations the person opened and the server has not reported complete. */
export function createElicitationHandlers(flow: Pick<ElicitationFlow, 'awaiting' | 'dismiss'>): ElicitationHandlers {
  return {
    'elicitation.awaiting': async () => awaitingView(flow.awaiting()),
    'elicitation.dismiss': async ({ id }) => {
      const slash = id.indexOf('/');
      // Server names never contain '/', so the first one separates server and elicitation id.
      if (slash <= 0) return { dismissed: false };
      return { dismissed: flow.dismiss(id.slice(0, slash), id.slice(slash + 1)) };
    },
  };
}
