import { reasoningRequest } from '../../shared/domain/reasoning';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
} from '@modelcontextprotocol/client';
import type { AnthropicAccess } from '../providers/anthropic-access';
import type { LlmProvider } from '../providers/llm-provider';
import type { EventHub } from '../events/event-hub';
import type { LogSink } from '../logs/log-sink';
import type { PendingRequests } from '../pending/pending-requests';
import type { RunningToolCalls } from '../pending/running-tool-calls';
import type { QuestionContext } from '../pending/question-context';
import type { SettingsStore } from '../settings/settings-store';
import { modelTableCandidates } from './candidate-models';
import type { SamplingModels } from './candidate-models';
import { createLlmGenerate } from './llm-sampling';
import { TokenEstimator } from '../providers/token-estimate';
import { SamplingBudget } from './sampling-budget';
import { refusesSampling, SamplingReview } from './sampling-review';

/** Options for {@linkcode SamplingService}. */
export interface SamplingServiceOptions {
  pending: PendingRequests;
  /** Ties a request to the tool call that caused it, and holds that call's clock while it is answered. */
  toolCalls: Pick<RunningToolCalls, 'originOf' | 'holdWhile'>;
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
  /** Background work failed with nobody waiting for it. */
  reportError(what: string, error: unknown): void;
}

/** A server's sampling requests: the review the person sees, the per-server cap and budget, and the models it chooses among. */
export class SamplingService {
  readonly review: SamplingReview;
  /** The models sampling chooses among (also listed in Settings for the person's ranks). */
  readonly models: SamplingModels;
  /** Per-server sampling cap and session budget. */
  readonly budget: SamplingBudget;

  constructor(private readonly options: SamplingServiceOptions) {
    const { events, settings } = options;
    this.budget = new SamplingBudget({ limits: (server) => settings.samplingLimits(server) });
    this.models = options.samplingModels ?? modelTableCandidates(settings);
    this.review = new SamplingReview({
      pending: options.pending,
      logs: options.logs,
      models: this.models,
      // The LlmProvider takes the request's tools (tool_choice too) and answers with tool_use blocks, so sampling.tools is declared.
      generate: createLlmGenerate(
        options.llm ?? options.anthropic.provider,
        { tokens: new TokenEstimator(), contextWindow: (model) => settings.contextWindow(model) },
        (model) => {
          const defaults = settings.reasoningDefaults();
          return defaults.sampling ? reasoningRequest(defaults.level, settings.reasoningSupport(model)) : undefined;
        },
      ),
      supportsTools: true,
      policies: settings.samplingPolicies(),
      budget: this.budget,
    });
    this.review.onPolicyChange((server, policy) => {
      events.emit('sampling.policiesChanged', { policies: this.review.policies() });
      settings
        .setSamplingNever(server, policy === 'never')
        .catch((error: unknown) => options.reportError(`saving the sampling policy of '${server}'`, error));
    });
    this.budget.onChange((usage) => events.emit('sampling.usageChanged', usage));
    this.budget.onRefusal(({ server, message, usage }) =>
      events.emit('sampling.budgetRefused', { server, message, usage }),
    );
  }

  /** Why Berth cannot answer a sampling request of `server` at all right now (checked before a task is made for one), or undefined. */
  refusal(server: string): ProtocolError | undefined {
    const ready = this.options.llmReady?.() ?? this.options.anthropic.ready;
    if (refusesSampling(this.review.policyFor(server)) || ready) return undefined;
    this.options.logs.append({
      server,
      time: Date.now(),
      source: 'host',
      level: 'warning',
      text: 'sampling request refused: no Anthropic API key is set',
    });
    return new ProtocolError(
      ProtocolErrorCode.InternalError,
      'Berth has no Anthropic API key yet, so it cannot answer sampling requests',
    );
  }

  /** A server's sampling request, asked plainly or run as a task: the same review, tied to the tool call that caused it. */
  async answer(
    server: string,
    params: CreateMessageRequestParams,
    context: QuestionContext,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    const refusal = this.refusal(server);
    if (refusal !== undefined) throw refusal;
    const { toolCalls } = this.options;
    const { origin = toolCalls.originOf(server), ...rest } = context;
    // The model's reply is Berth's work too: the call's clock waits for all of it, not only for the person.
    return toolCalls.holdWhile(server, origin, () => this.review.handle(server, params, { ...rest, ...origin }));
  }

  /** The server left the config: its spending goes (a disconnect or restart keeps it, so crashing cannot reset a budget). */
  forgetSpending(server: string): void {
    this.budget.forget(server);
  }
}
