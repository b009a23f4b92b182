import type { EventHub } from '../events/event-hub';
import { AnthropicAccess } from '../chat/anthropic-access';
import type { SamplingServiceOptions } from '../sampling/sampling-service';
import { catalogCandidates } from '../sampling/candidate-models';
import type { SettingsStore } from '../settings/settings-store';
import { AnthropicProviderClient } from './anthropic-client';
import { OpenAiCompatibleClient } from './openai-compatible';
import { ProviderRegistry, type OpenAiClientFactory } from './provider-registry';
import { providersView } from './provider-views';

/**
 * The model providers as the host runs them: the built-in Anthropic access
 * (also what sampling uses today), the registry over every provider, and the
 * events that tell the renderer when the model list or providers changed.
 */
export function createProviders(options: {
  settings: SettingsStore;
  events: Pick<EventHub, 'emit'>;
  /** The OpenAI-compatible client (tests may pass another). */
  openAiClient?: OpenAiClientFactory;
}): { anthropic: AnthropicAccess; registry: ProviderRegistry; sampling: Pick<SamplingServiceOptions, 'llm' | 'samplingModels' | 'llmReady'> } {
  const { settings, events } = options;
  settings.onChange((view) => {
    events.emit('settings.changed', view);
    events.emit('providers.changed', providersView(settings));
  });
  const anthropic = new AnthropicAccess(settings);
  const registry = new ProviderRegistry({
    settings,
    anthropic: new AnthropicProviderClient(anthropic, () => settings.baseURL()),
    openAiClient: options.openAiClient ?? openAiCompatibleClient,
  });
  // Sampling answers with any ready provider's model, through the same router as chat.
  const sampling = { llm: registry.router, samplingModels: catalogCandidates(settings), llmReady: () => settings.catalog().some((model) => model.ready) };
  return { anthropic, registry, sampling };
}

/** An OpenAI-compatible provider's client, named in its errors by what the person called it (or its preset). */
export const openAiCompatibleClient: OpenAiClientFactory = ({ baseURL, apiKey, label }) =>
  new OpenAiCompatibleClient({ baseURL, ...(apiKey !== undefined ? { apiKey } : {}), presetName: label });
