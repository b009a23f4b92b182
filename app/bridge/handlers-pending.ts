import type { Handlers } from '../../shared/contract';
import type { pendingMethods } from '../../shared/contract/pending';
import type { PendingRequests } from '../pending/pending-requests';

/** The pending-request methods of the contract. */
export type PendingHandlers = Pick<Handlers, keyof typeof pendingMethods>;

/** Everything that waits for the person: list it, answer one. */
export function createPendingHandlers(pending: Pick<PendingRequests, 'list' | 'answer'>): PendingHandlers {
  return {
    'pending.list': async () => pending.list(),
    'pending.answer': async ({ id, response }) => {
      // NOT_FOUND for an unknown id; INVALID_INPUT (request stays open) for a wrong answer.
      pending.answer(id, response);
      return { answered: id };
    },
  };
}
