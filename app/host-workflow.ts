import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { readableSignal } from './servers/readable-signal';
import type { Client, CreateMessageRequestParams, CreateMessageResult, CreateMessageResultWithTools, ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';
import type { AwaitingElicitation as AwaitingView } from '../shared/contract/elicitation';
import type { ServerState } from '../shared/domain/server';
import type { EventHub } from './events/event-hub';
import { serverIdentity } from './consent/approval-fingerprint';
import { ConsentBroker } from './consent/consent-broker';
import type { ServerEdit } from './consent/consent-broker';
import { ElicitationFlow } from './elicitation/elicitation-flow';
import type { AwaitingElicitation } from './elicitation/elicitation-flow';
import { RunningToolCalls } from './pending/running-tool-calls';
import type { RequestOrigin } from './pending/running-tool-calls';
import type { LogSink } from './logs/log-sink';
import { PendingRequests } from './pending/pending-requests';
import { modelTableCandidates } from './sampling/candidate-models';
import type { SamplingModels } from './sampling/candidate-models';
import { createLlmGenerate } from './sampling/llm-sampling';
import { SamplingBudget } from './sampling/sampling-budget';
import { SamplingReview } from './sampling/sampling-review';
import type { AnthropicAccess } from './chat/anthropic-access';
import type { LlmProvider } from './chat/llm-provider';
import type { SettingsStore } from './settings/settings-store';
import type { ServerLifecycleListener } from './servers/server-lifecycle';

/** What a question a server asks carries besides its params. */
export interface WorkflowQuestionContext {
  /** Aborted when the question is no longer wanted (the server cancelled, the task was cancelled or ran out of time). */
  signal: AbortSignal;
  /** Told each pending id the question opens. */
  onQuestion?: (pendingId: string) => void;
  /** The Berth task the question belongs to, when a server asked for it as a task. */
  taskId?: string;
  /** The chat call the question is for, when the request says (a 2026-07-28 call's input request); else guessed from the running calls. */
  origin?: RequestOrigin;
}

/** How long pending requests wait for a window to come back before they are withdrawn (browser mode reloads, reconnects). */
export const DEFAULT_CLIENT_GRACE_MS = 30_000;

/** Options for {@linkcode HostWorkflow}. */
export interface HostWorkflowOptions {
  stateDir: string;
  logs: LogSink;
  events: Pick<EventHub, 'emit'>;
  settings: SettingsStore;
  anthropic: AnthropicAccess;
  /** The models sampling chooses among; default: the model table in settings (the provider registry supplies every provider's). */
  samplingModels?: SamplingModels;
  /** The provider sampling calls with a model key; default: Anthropic's (the routing provider replaces it). */
  llm?: LlmProvider;
  /** Whether `llm` can answer at all (some provider is set up); default: an Anthropic key is set. */
  llmReady?: () => boolean;
  /** Opens a URL-mode elicitation link, after the person agreed. */
  openExternal: (url: string) => Promise<void>;
  clientGraceMs?: number;
  /** Background work failed with nobody waiting for it. */
  reportError(what: string, error: unknown): void;
}

/** The awaiting list as the contract shows it: each entry gets an id `<server>/<elicitationId>`. */
export function awaitingView(list: AwaitingElicitation[]): AwaitingView[] {
  return list.map((entry) => ({ id: `${entry.server}/${entry.elicitationId}`, ...entry }));
}

/**
 * Everything that waits for the person, wired together: the pending queue,
 * tool-call consent, sampling review and elicitation, the MCP client handlers
 * that feed them, and the rules that keep nothing waiting forever (server gone,
 * window gone, Berth quitting).
 */
export class HostWorkflow implements ServerLifecycleListener {
  readonly pending = new PendingRequests();
  readonly consent: ConsentBroker;
  readonly review: SamplingReview;
  /** The models sampling chooses among (also listed in Settings for the person's ranks). */
  readonly samplingModels: SamplingModels;
  /** Per-server sampling cap and session budget. */
  readonly budget: SamplingBudget;
  readonly flow: ElicitationFlow;
  readonly toolCalls: RunningToolCalls;
  private readonly lastStatus = new Map<string, ServerState['status']>();
  /** Each server's latest state, so listed permissions can say whether they still apply. */
  private readonly states = new Map<string, ServerState>();
  private readonly graceMs: number;
  private graceTimer: NodeJS.Timeout | undefined;
  /** No window has been connected for the whole grace period: new requests are refused at once. */
  private orphaned = false;
  private closed = false;

  constructor(private readonly options: HostWorkflowOptions) {
    const { events, logs, settings, anthropic } = options;
    this.graceMs = options.clientGraceMs ?? DEFAULT_CLIENT_GRACE_MS;
    this.consent = new ConsentBroker({
      stateDir: options.stateDir,
      pending: this.pending,
      logs,
      serverNow: (server) => {
        const state = this.states.get(server);
        if (state === undefined) return undefined;
        return { identity: serverIdentity(state.config), ...(state.status === 'ready' ? { tools: state.tools } : {}) };
      },
    });
    this.budget = new SamplingBudget({ limits: (server) => settings.samplingLimits(server) });
    this.samplingModels = options.samplingModels ?? modelTableCandidates(settings);
    this.review = new SamplingReview({
      pending: this.pending,
      logs,
      models: this.samplingModels,
      // The LlmProvider takes the request's tools (tool_choice too) and answers with tool_use blocks, so sampling.tools is declared.
      generate: createLlmGenerate(options.llm ?? anthropic.provider),
      supportsTools: true,
      policies: settings.samplingPolicies(),
      budget: this.budget,
    });
    this.flow = new ElicitationFlow({ pending: this.pending, logs, openExternal: options.openExternal });

    // Forwarding first, so a request refused at once (no window) is announced as opened before it is withdrawn.
    this.pending.onChange((change) => events.emit('pending.changed', change));
    // After the forwarding: a card's "Answer" button names a request the window has already heard of.
    this.toolCalls = new RunningToolCalls(this.pending);
    this.pending.onChange(({ change }) => {
      if (change.type !== 'opened' || !this.orphaned) return;
      queueMicrotask(() => this.pending.withdraw(change.request.id, 'no Berth window is open to answer it'));
    });
    this.consent.onPoliciesChange((policies) => events.emit('consent.policiesChanged', { policies }));
    this.review.onPolicyChange((server, policy) => {
      events.emit('sampling.policiesChanged', { policies: this.review.policies() });
      settings.setSamplingNever(server, policy === 'never').catch((error: unknown) => options.reportError(`saving the sampling policy of '${server}'`, error));
    });
    this.budget.onChange((usage) => events.emit('sampling.usageChanged', usage));
    this.budget.onRefusal(({ server, message, usage }) => events.emit('sampling.budgetRefused', { server, message, usage }));
    this.flow.onAwaitingChange((awaiting) => events.emit('elicitation.awaitingChanged', { awaiting: awaitingView(awaiting) }));
  }

  /**
   * The supervisor's `clientSetup`: declare sampling (with tools) and
   * elicitation (form and URL) and route their requests — wire requests in the
   * initialize era, `input_required` rounds in the 2026-07-28 era — to the
   * review and the flow.
   */
  readonly clientSetup = (server: string, client: Client): void => {
    client.registerCapabilities({ sampling: { tools: {} }, elicitation: { form: {}, url: {} } });
    client.setRequestHandler('sampling/createMessage', (request, ctx) => this.answerSampling(server, request.params, { signal: readableSignal(server, ctx.mcpReq.signal) }));
    client.setRequestHandler('elicitation/create', (request, ctx) => this.answerElicitation(server, request.params, { signal: readableSignal(server, ctx.mcpReq.signal) }));
    client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      this.flow.complete(server, notification.params.elicitationId);
    });
  };

  /** Why Berth cannot answer a sampling request of `server` at all right now (checked before a task is made for one), or undefined. */
  samplingRefusal(server: string): ProtocolError | undefined {
    const ready = this.options.llmReady?.() ?? this.options.anthropic.ready;
    if (this.review.policyFor(server) === 'never' || ready) return undefined;
    this.log(server, 'warning', 'sampling request refused: no Anthropic API key is set');
    return new ProtocolError(ProtocolErrorCode.InternalError, 'Berth has no Anthropic API key yet, so it cannot answer sampling requests');
  }

  /** A server's sampling request, asked plainly or run as a task: the same review, tied to the tool call that caused it. */
  async answerSampling(server: string, params: CreateMessageRequestParams, context: WorkflowQuestionContext): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    const refusal = this.samplingRefusal(server);
    if (refusal !== undefined) throw refusal;
    const { origin = this.toolCalls.originOf(server), ...rest } = context;
    // The model's reply is Berth's work too: the call's clock waits for all of it, not only for the person.
    return this.toolCalls.holdWhile(server, origin, () => this.review.handle(server, params, { ...rest, ...origin }));
  }

  /** A server's elicitation request, asked plainly or run as a task: the same form or link prompt. */
  answerElicitation(server: string, params: ElicitRequestParams, context: WorkflowQuestionContext): Promise<ElicitResult> {
    const { origin = this.toolCalls.originOf(server), ...rest } = context;
    return this.flow.handle(server, params, { ...rest, ...origin });
  }

  /** Every server state change: a server that leaves `ready` takes its waiting requests with it. */
  serverChanged(state: ServerState): void {
    const before = this.lastStatus.get(state.name);
    this.lastStatus.set(state.name, state.status);
    this.states.set(state.name, state);
    // New tools or a new config may make a permission stale (or fresh again): the list says so.
    this.consent.serversChanged();
    if (state.status === 'ready' || before !== 'ready') return;
    this.forgetServer(state.name, `server '${state.name}' disconnected${state.reason === undefined ? '' : ` (${state.reason})`}`);
  }

  /** The server left the config: what was approved for it goes too, so a new server of that name starts with nothing. */
  serverRemoved(name: string): void {
    this.lastStatus.delete(name);
    this.states.delete(name);
    this.forgetServer(name, `server '${name}' was removed`);
    // Only removal forgets the spending: a disconnect or restart keeps it, so crashing cannot reset a budget.
    this.budget.forget(name);
    this.consent.forgetServer(name).catch((error: unknown) => this.options.reportError(`revoking the tool permissions of '${name}' failed`, error));
  }

  /** The person edited a server in Berth (rename, new command or address): its tool permissions follow their answer. */
  serverEdited(edit: ServerEdit): Promise<void> {
    return this.consent.serverEdited(edit);
  }

  /** How many windows (IPC or WebSocket clients) are connected. */
  clientsChanged(count: number): void {
    if (this.closed) return;
    if (count > 0) {
      clearTimeout(this.graceTimer);
      this.graceTimer = undefined;
      this.orphaned = false;
      return;
    }
    if (this.graceTimer !== undefined || this.orphaned) return;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      this.orphaned = true;
      this.pending.withdrawAll('the Berth window was closed');
    }, this.graceMs);
    this.graceTimer.unref();
  }

  /** Berth is quitting: every waiting request ends (as deny / reject / cancel). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.pending.withdrawAll('Berth quit');
    await this.consent.close();
  }

  private forgetServer(name: string, note: string): void {
    this.pending.withdrawServer(name, note);
    this.flow.forgetServer(name);
    this.review.forgetServer(name);
  }

  private log(server: string, level: 'warning' | 'info', text: string): void {
    this.options.logs.append({ server, time: Date.now(), source: 'host', level, text });
  }
}
