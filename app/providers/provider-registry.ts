import { withoutDeferral } from './deferred-tools';
import { HostError } from '../../shared/result';
import { ANTHROPIC_PROVIDER_ID, splitModelKey } from '../../shared/domain/model-key';
import {
  baseUrlCredentialsProblem,
  PRESET_INFO,
  type ProviderConfig,
  type ProviderPreset,
} from '../../shared/domain/providers';
import { LlmError } from './llm-provider';
import type { LlmProvider, LlmResponse, LlmStreamRequest } from './llm-provider';
import { NO_API_KEY } from './anthropic-access';
import { takesPrefill } from './anthropic-prefill';
import { providerError } from '../../shared/domain/provider-errors';
import type { SettingsStore } from '../settings/settings-store';
import type { ProviderClient } from './provider-client';
import { countImages } from './image-omission';

/** What an OpenAI-compatible client is built from (one per provider, rebuilt when any of it changes). */
export interface OpenAiClientOptions {
  /** The provider's id in Berth (`ollama`). */
  providerId: string;
  /** Its name in messages (`Ollama`, or what the person called it). */
  label: string;
  preset: ProviderPreset;
  /** e.g. http://127.0.0.1:11434/v1 */
  baseURL: string;
  /** Undefined for local servers that take none. */
  apiKey?: string;
}

export type OpenAiClientFactory = (options: OpenAiClientOptions) => ProviderClient;

export interface ProviderRegistryOptions {
  settings: Pick<SettingsStore, 'providers' | 'catalog' | 'apiKey'>;
  /** The built-in provider's client (AnthropicProviderClient over today's AnthropicAccess). */
  anthropic: ProviderClient;
  openAiClient: OpenAiClientFactory;
}

function missingKey(provider: ProviderConfig) {
  return providerError('provider-errors.missing-key', { provider: provider.label });
}

/**
 * Why a provider read from settings.json is not used: its base URL carries a user name or password
 * (written there by hand, or before Berth refused them where it is typed). Nothing is sent with it.
 */
function credentialsInUrl(provider: ProviderConfig) {
  return baseUrlCredentialsProblem(provider.baseUrl) === undefined
    ? undefined
    : providerError('provider-errors.base-url-credentials', { provider: provider.label });
}

/**
 * One ProviderClient per provider (Anthropic built in, the configured
 * OpenAI-compatible ones built on first use and rebuilt when their base URL
 * or key changes) and `router`, the LlmProvider chat uses: it sends each
 * request to the provider of its model key, with the provider's own model id.
 */
export class ProviderRegistry {
  private readonly built = new Map<string, { signature: string; client: ProviderClient }>();

  constructor(private readonly options: ProviderRegistryOptions) {}

  /** NOT_FOUND for a provider that is not configured. */
  client(id: string): ProviderClient {
    if (id === ANTHROPIC_PROVIDER_ID) return this.options.anthropic;
    const provider = this.options.settings.providers.get(id);
    if (provider === undefined)
      throw HostError.coded('NOT_FOUND', providerError('provider-errors.not-found', { id }), 'id');
    const problem = credentialsInUrl(provider);
    if (problem !== undefined) throw HostError.coded('INVALID_INPUT', problem, 'baseUrl');
    return this.openAi(provider);
  }

  /**
   * NOT_READY, before anything is saved, when the model's provider needs a
   * key that is not set. A removed provider passes: its turn fails with words.
   */
  assertReady(key: string): void {
    const { provider } = splitModelKey(key);
    if (provider === ANTHROPIC_PROVIDER_ID) {
      if (this.options.settings.apiKey() === undefined) throw HostError.coded('NOT_READY', NO_API_KEY);
      return;
    }
    const config = this.options.settings.providers.get(provider);
    if (config !== undefined && !this.options.settings.providers.ready(config))
      throw HostError.coded('NOT_READY', missingKey(config));
  }

  /** False for a model marked as taking no tools: the router strips them and the chat says so. */
  takesTools(key: string): boolean {
    return this.options.settings.catalog().find((m) => m.key === key)?.supportsTools !== false;
  }

  /** False for a model marked (or guessed, shared/domain/model-images.ts) as taking no images; a key Berth does not list: true, the provider decides. */
  takesImages(key: string): boolean {
    return this.options.settings.catalog().find((m) => m.key === key)?.takesImages !== false;
  }

  /**
   * Whether the model's provider loads deferred tools itself (Anthropic: `defer_loading` and tool_reference results),
   * so tool search keeps the tool list — and the prompt cache — as it was when the model loads a tool.
   */
  defersTools(key: string): boolean {
    return splitModelKey(key).provider === ANTHROPIC_PROVIDER_ID;
  }

  /** Whether the model goes on from an assistant message that ends the request (Continue's prefill): older Claude models. */
  takesPrefill(key: string): boolean {
    const { provider, model } = splitModelKey(key);
    return provider === ANTHROPIC_PROVIDER_ID && takesPrefill(model);
  }

  /** A model key as notices name it: its label in the catalog, else the provider's own id. */
  modelName(key: string): string {
    return this.options.settings.catalog().find((m) => m.key === key)?.label ?? splitModelKey(key).model;
  }

  /** Chat's model: each request goes to the provider its model key names. */
  readonly router: LlmProvider = {
    stream: (request: LlmStreamRequest): Promise<LlmResponse> => this.route(request),
  };

  private async route(request: LlmStreamRequest): Promise<LlmResponse> {
    // Chat has already put notes in their place; anything else (sampling) is told in words, before anything is sent.
    if (!this.takesImages(request.model) && countImages(request.messages) > 0) {
      throw LlmError.of(
        'bad-request',
        'chat-error.model-no-images-sampling',
        { model: this.modelName(request.model) },
        undefined,
        'images',
      );
    }
    const { provider, model } = splitModelKey(request.model);
    if (provider === ANTHROPIC_PROVIDER_ID) return this.options.anthropic.stream(request);
    const config = this.options.settings.providers.get(provider);
    if (config === undefined)
      throw LlmError.of('not-found', 'chat-error.provider-removed', { model: request.model, provider });
    if (!this.options.settings.providers.ready(config))
      throw LlmError.of('auth', 'chat-error.provider-key-missing', { provider: config.label });
    const problem = credentialsInUrl(config);
    if (problem !== undefined)
      throw new LlmError('bad-request', problem.text, undefined, undefined, problem.hostMessage);
    // A model marked as taking no tools gets none (local servers reject the request or the model invents calls).
    const { tools, ...rest } = request;
    const withTools = !this.takesTools(request.model) ? rest : { ...rest, ...(tools !== undefined ? { tools } : {}) };
    // Chat loads tools natively only with Anthropic; anything deferred reaching another provider is listed instead.
    return this.openAi(config).stream(withoutDeferral({ ...withTools, model }));
  }

  private openAi(provider: ProviderConfig): ProviderClient {
    const apiKey = this.options.settings.providers.key(provider.id);
    const options: OpenAiClientOptions = {
      providerId: provider.id,
      label: provider.label || PRESET_INFO[provider.preset].label,
      preset: provider.preset,
      baseURL: provider.baseUrl,
      ...(apiKey !== undefined ? { apiKey } : {}),
    };
    // The key is part of the signature only in memory; NUL cannot occur in any of these.
    const signature = [options.label, options.preset, options.baseURL, apiKey ?? ''].join('\u0000');
    const cached = this.built.get(provider.id);
    if (cached?.signature === signature) return cached.client;
    const client = this.options.openAiClient(options);
    this.built.set(provider.id, { signature, client });
    return client;
  }
}
