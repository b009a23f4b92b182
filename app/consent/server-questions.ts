import type {
  Client,
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestParams,
  ElicitResult,
} from '@modelcontextprotocol/client';
import { type ServerState } from '../../shared/domain/server';
import { serverReason } from '../../shared/domain/server-state-read';
import type { ElicitationFlow } from '../elicitation/elicitation-flow';
import type { PendingRequests } from '../pending/pending-requests';
import type { QuestionContext } from '../pending/question-context';
import type { RunningToolCalls } from '../pending/running-tool-calls';
import type { SamplingReview } from '../sampling/sampling-review';
import type { SamplingService } from '../sampling/sampling-service';
import { readableSignal } from '../servers/readable-signal';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import type { ConsentBroker } from './consent-broker';
import { withdrawal } from '../../shared/domain/withdrawal';
import type { Worded } from '../../shared/domain/host-wording';

/** What {@linkcode ServerQuestions} routes to and forgets in. */
export interface ServerQuestionsOptions {
  pending: PendingRequests;
  consent: Pick<ConsentBroker, 'serversChanged' | 'forgetServer'>;
  sampling: Pick<SamplingService, 'answer' | 'forgetSpending'> & { review: Pick<SamplingReview, 'forgetServer'> };
  flow: ElicitationFlow;
  toolCalls: Pick<RunningToolCalls, 'originOf'>;
  /** Background work failed with nobody waiting for it. */
  reportError(what: string, error: unknown): void;
}

/**
 * The questions servers ask the person, per server: the MCP client handlers
 * that feed the sampling review and the elicitation flow, and the rules that
 * keep nothing waiting for a server that is gone.
 */
export class ServerQuestions implements ServerLifecycleListener {
  private readonly lastStatus = new Map<string, ServerState['status']>();

  constructor(private readonly options: ServerQuestionsOptions) {}

  /**
   * The supervisor's `clientSetup`: declare sampling (with tools) and
   * elicitation (form and URL) and route their requests — wire requests in the
   * initialize era, `input_required` rounds in the 2026-07-28 era — to the
   * review and the flow.
   */
  clientSetup(server: string, client: Client): void {
    client.registerCapabilities({ sampling: { tools: {} }, elicitation: { form: {}, url: {} } });
    client.setRequestHandler('sampling/createMessage', (request, ctx) =>
      this.answerSampling(server, request.params, { signal: readableSignal(server, ctx.mcpReq.signal) }),
    );
    client.setRequestHandler('elicitation/create', (request, ctx) =>
      this.answerElicitation(server, request.params, { signal: readableSignal(server, ctx.mcpReq.signal) }),
    );
    client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      this.options.flow.complete(server, notification.params.elicitationId);
    });
  }

  /** A server's sampling request, asked plainly or run as a task. */
  answerSampling(
    server: string,
    params: CreateMessageRequestParams,
    context: QuestionContext,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    return this.options.sampling.answer(server, params, context);
  }

  /** A server's elicitation request, asked plainly or run as a task: the same form or link prompt. */
  answerElicitation(server: string, params: ElicitRequestParams, context: QuestionContext): Promise<ElicitResult> {
    const { origin = this.options.toolCalls.originOf(server), ...rest } = context;
    return this.options.flow.handle(server, params, { ...rest, ...origin });
  }

  /** Every server state change: a server that leaves `ready` takes its waiting requests with it. */
  serverChanged(state: ServerState): void {
    const before = this.lastStatus.get(state.name);
    this.lastStatus.set(state.name, state.status);
    // New tools or a new config may make a permission stale (or fresh again): the list says so.
    this.options.consent.serversChanged();
    if (state.status === 'ready' || before !== 'ready') return;
    const reason = serverReason(state);
    const server = state.name;
    this.forgetServer(
      server,
      reason === undefined
        ? withdrawal('withdrawal.server-disconnected', { server })
        : withdrawal('withdrawal.server-disconnected-because', { server, detail: reason }),
    );
  }

  /** The server left the config: what was approved for it goes too, so a new server of that name starts with nothing. */
  serverRemoved(name: string): void {
    this.lastStatus.delete(name);
    this.forgetServer(name, withdrawal('withdrawal.server-removed', { server: name }), true);
    // Only removal forgets the spending: a disconnect or restart keeps it, so crashing cannot reset a budget.
    this.options.sampling.forgetSpending(name);
    this.options.consent
      .forgetServer(name)
      .catch((error: unknown) => this.options.reportError(`revoking the tool permissions of '${name}' failed`, error));
  }

  private forgetServer(name: string, note: Worded, removed = false): void {
    this.options.pending.withdrawServer(name, note);
    this.options.flow.forgetServer(name);
    this.options.sampling.review.forgetServer(name, removed);
  }
}
