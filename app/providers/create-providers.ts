import type { EventHub } from '../events/event-hub';
import { AnthropicAccess } from './anthropic-access';
import type { SettingsStore } from '../settings/settings-store';
import { AnthropicProviderClient } from './anthropic-client';
import { OpenAiCompatibleClient } from './openai-compatible';
import { ProviderRegistry, type OpenAiClientFactory } from './provider-registry';
import { providersView } from './provider-views';

/**
 * The model providers as the host runs them: the built-in Anthropic access,
 * the registry over every provider, and the events that tell the renderer
 * when the model list or providers changed. (Sampling's view of them is
 * composed in the providers host module: providers know nothing of sampling.)
 */
export function createProviders(options: {
  settings: SettingsStore;
  events: Pick<EventHub, 'emit'>;
  /** The OpenAI-compatible client (tests may pass another). */
  openAiClient?: OpenAiClientFactory;
}): { anthropic: AnthropicAccess; registry: ProviderRegistry } {
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
  return { anthropic, registry };
}

/** An OpenAI-compatible provider's client, named in its errors by what the person called it (or its preset). */
export const openAiCompatibleClient: OpenAiClientFactory = ({ baseURL, apiKey, label }) =>
  new OpenAiCompatibleClient({ baseURL, ...(apiKey !== undefined ? { apiKey } : {}), presetName: label });
