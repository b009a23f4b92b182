import { HostError } from '../../shared/result';
import { DEFAULT_ANTHROPIC_BASE_URL, LlmError, toLlmError } from '../chat/llm-provider';
import type { LlmResponse, LlmStreamRequest } from '../chat/llm-provider';
import type { AnthropicAccess } from '../chat/anthropic-access';
import type { ProviderClient, ProviderModelInfo } from './provider-client';

/** How many models one listing asks for (Anthropic has a few dozen). */
const LIST_LIMIT = 1000;

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
      for await (const info of client.models.list({ limit: LIST_LIMIT }, signal !== undefined ? { signal } : undefined)) {
        models.push({ id: info.id, label: info.display_name, ...(typeof info.max_input_tokens === 'number' ? { contextWindow: info.max_input_tokens } : {}) });
      }
      return models;
    } catch (error) {
      throw toLlmError(error, { baseURL: this.where(), model: '' });
    }
  }

  async check(options: { model?: string; signal?: AbortSignal } = {}): Promise<void> {
    const client = this.client();
    const requestOptions = options.signal !== undefined ? { signal: options.signal } : undefined;
    try {
      if (options.model !== undefined) await client.models.retrieve(options.model, {}, requestOptions);
      else await client.models.list({ limit: 1 }, requestOptions);
    } catch (error) {
      throw toLlmError(error, { baseURL: this.where(), model: options.model ?? '' });
    }
  }

  /** The SDK client, or an `auth` LlmError in the chat's own words when there is no key. */
  private client(): ReturnType<AnthropicAccess['client']> {
    try {
      return this.access.client();
    } catch (error) {
      if (error instanceof HostError) throw new LlmError('auth', error.message);
      throw error;
    }
  }

  private where(): string {
    return (this.baseURL() ?? DEFAULT_ANTHROPIC_BASE_URL).replace(/\/+$/, '');
  }
}
