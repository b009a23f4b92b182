import type { Handlers } from '../../shared/contract';
import type { workflowMethods } from '../../shared/contract/workflow';
import { awaitingView } from '../host-workflow';
import type { HostWorkflow } from '../host-workflow';

/** The pending / consent / sampling / elicitation methods of the contract. */
export type WorkflowHandlers = Pick<Handlers, keyof typeof workflowMethods>;

/** Everything that waits for the person, and the decisions that stand. */
export function createWorkflowHandlers(workflow: HostWorkflow): WorkflowHandlers {
  const { pending, consent, review, flow } = workflow;
  return {
    'pending.list': async () => pending.list(),
    'pending.answer': async ({ id, response }) => {
      // NOT_FOUND for an unknown id; INVALID_INPUT (request stays open) for a wrong answer.
      pending.answer(id, response);
      return { answered: id };
    },
    'consent.policies': async () => {
      await consent.load();
      return consent.listPolicies();
    },
    'consent.revoke': async ({ id }) => ({ revoked: (await consent.revokePolicy(id)).id }),
    'consent.audit': async ({ limit }) => consent.readAudit(limit === undefined ? {} : { limit }),
    'sampling.policies': async () => review.policies(),
    'sampling.setPolicy': async ({ server, policy }) => {
      review.setPolicy(server, policy);
      return review.policies();
    },
    'elicitation.awaiting': async () => awaitingView(flow.awaiting()),
    'elicitation.dismiss': async ({ id }) => {
      const slash = id.indexOf('/');
      // Server names never contain '/', so the first one separates server and elicitation id.
      if (slash <= 0) return { dismissed: false };
      return { dismissed: flow.dismiss(id.slice(0, slash), id.slice(slash + 1)) };
    },
  };
}
