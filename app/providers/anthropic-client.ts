import { HostError } from '../../shared/result';
import { DEFAULT_ANTHROPIC_BASE_URL, LlmError, toLlmError } from './llm-provider';
import type { LlmResponse, LlmStreamRequest } from './llm-provider';
import type { AnthropicAccess } from './anthropic-access';
import type { ModelInfo } from '@anthropic-ai/sdk/resources/models';
import type { ModelTier } from '../../shared/domain/model-ranks';
import type { ProviderClient, ProviderModelInfo } from './provider-client';
import { listedCapabilities } from './anthropic-capabilities';

/** How many models one page asks for (the API's maximum; Anthropic has a few dozen, the SDK follows `has_more`). */
const LIST_LIMIT = 1000;

/** The model line as a tier for sampling's choice; a line Berth does not know gets none (the person sets it). */
const LINE_TIERS: Readonly<Record<string, ModelTier>> = {
  haiku: 'fast',
  sonnet: 'balanced',
  opus: 'smart',
  fable: 'smart',
  mythos: 'smart',
};

/**
 * One entry of the models endpoint as Berth keeps it: its own id, display name, context window, image input, tier,
 * how it reasons and whether the API manages its context (anthropic-capabilities.ts).
 */
export function toProviderModel(info: ModelInfo): ProviderModelInfo {
  const imageInput = info.capabilities?.image_input?.supported;
  const { reasoning, contextManagement } = listedCapabilities(info.capabilities);
  const tier = info.line !== null && info.line !== undefined ? LINE_TIERS[info.line] : undefined;
  return {
    id: info.id,
    ...(info.display_name !== '' && info.display_name !== info.id ? { label: info.display_name } : {}),
    ...(typeof info.max_input_tokens === 'number' ? { contextWindow: info.max_input_tokens } : {}),
    ...(typeof imageInput === 'boolean' ? { takesImages: imageInput } : {}),
    ...(tier !== undefined ? { tier } : {}),
    ...(reasoning !== undefined ? { reasoning } : {}),
    ...(contextManagement !== undefined ? { contextManagement } : {}),
  };
}

/** Settings waits for these: a failure is told at once (as for OpenAI-compatible providers), not retried. */
function requestOptions(signal: AbortSignal | undefined): { maxRetries: number; signal?: AbortSignal } {
  return { maxRetries: 0, ...(signal !== undefined ? { signal } : {}) };
}

/**
 * The built-in provider: chat through today's AnthropicAccess (key and base
 * URL from Settings or the environment, rebuilt when they change), models
 * and "Test connection" through the SDK's models endpoint.
 */
export class AnthropicProviderClient implements ProviderClient {
  constructor(
    private readonly access: AnthropicAccess,
    private readonly baseURL: () => string | undefined,
  ) {}

  stream(request: LlmStreamRequest): Promise<LlmResponse> {
    return this.access.provider.stream(request);
  }

  async listModels(signal?: AbortSignal): Promise<ProviderModelInfo[]> {
    const client = this.client();
    try {
      const models: ProviderModelInfo[] = [];
      // The SDK's pages follow `has_more` with `after_id` = the page's `last_id`.
      for await (const info of client.models.list({ limit: LIST_LIMIT }, requestOptions(signal)))
        models.push(toProviderModel(info));
      return models;
    } catch (error) {
      throw toLlmError(error, { baseURL: this.where(), model: '' });
    }
  }

  async check(options: { model?: string; signal?: AbortSignal } = {}): Promise<void> {
    const client = this.client();
    try {
      if (options.model !== undefined) await client.models.retrieve(options.model, {}, requestOptions(options.signal));
      else await client.models.list({ limit: 1 }, requestOptions(options.signal));
    } catch (error) {
      throw toLlmError(error, { baseURL: this.where(), model: options.model ?? '' });
    }
  }

  /** The SDK client, or an `auth` LlmError saying to add the key first when there is none. */
  private client(): ReturnType<AnthropicAccess['client']> {
    try {
      return this.access.client();
    } catch (error) {
      if (error instanceof HostError && error.code === 'NOT_READY')
        throw LlmError.of('auth', 'chat-error.anthropic-key-first', {});
      throw error;
    }
  }

  private where(): string {
    return (this.baseURL() ?? DEFAULT_ANTHROPIC_BASE_URL).replace(/\/+$/, '');
  }
}
