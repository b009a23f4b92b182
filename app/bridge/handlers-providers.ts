import type { Handlers, MethodParsedInput } from '../../shared/contract';
import type { providersMethods } from '../../shared/contract/providers';
import { HostError } from '../../shared/result';
import { providerError } from '../../shared/domain/provider-errors';
import { settingsError } from '../../shared/domain/settings-errors';
import { LlmError } from '../providers/llm-provider';
import { errorMessage } from '../../shared/error-message';
import type { ProviderRegistry } from '../providers/provider-registry';
import { providersView } from '../providers/provider-views';
import { checkKey } from '../providers/key-check';
import type { SettingsStore } from '../settings/settings-store';
import { ANTHROPIC_PROVIDER_ID } from '../../shared/domain/model-key';

/** The providers methods of the contract. */
export type ProvidersHandlers = Pick<Handlers, keyof typeof providersMethods>;

/** How long "Fetch models" and "Test connection" wait for a provider. */
const PROVIDER_CALL_TIMEOUT_MS = 20_000;

export interface ProvidersHandlerDeps {
  settings: SettingsStore;
  providers: Pick<ProviderRegistry, 'client'>;
}

/** Words for a failed provider call (an LlmError already has them). */
function words(error: unknown): string {
  return error instanceof LlmError || error instanceof HostError
    ? error.message
    : `the provider could not be reached: ${errorMessage(error)}`;
}

/**
 * The built-in provider: only its models change here (its key has its own methods; its base URL is
 * settings.json `baseURL` or ANTHROPIC_BASE_URL), kept in settings.json `models`.
 */
async function updateAnthropic(
  settings: SettingsStore,
  changes: MethodParsedInput<'providers.update'>['changes'],
): Promise<void> {
  const other = Object.keys(changes).find((key) => key !== 'models');
  if (other !== undefined)
    throw HostError.coded(
      'INVALID_INPUT',
      settingsError('settings-errors.anthropic-only-models', { field: other }),
      `changes.${other}`,
    );
  if (changes.models === undefined) return;
  await settings.setModels(changes.models);
}

/**
 * Settings → Providers. Every answer is the providers view (key status, never
 * a key); listing models and testing reach the provider live.
 */
export function createProvidersHandlers({ settings, providers }: ProvidersHandlerDeps): ProvidersHandlers {
  const view = () => providersView(settings);
  return {
    'providers.list': async () => view(),
    'providers.add': async ({ provider, apiKey }) => {
      await settings.providers.add(provider, apiKey);
      return view();
    },
    'providers.update': async ({ id, changes }) => {
      if (id === ANTHROPIC_PROVIDER_ID) await updateAnthropic(settings, changes);
      else await settings.providers.update(id, changes);
      return view();
    },
    'providers.remove': async ({ id }) => {
      await settings.providers.remove(id);
      return view();
    },
    'providers.setKey': async ({ id, apiKey }) => {
      if (id === ANTHROPIC_PROVIDER_ID) await settings.setApiKey(apiKey);
      else await settings.providers.setKey(id, apiKey);
      return view();
    },
    'providers.clearKey': async ({ id }) => {
      if (id === ANTHROPIC_PROVIDER_ID) await settings.clearApiKey();
      else await settings.providers.clearKey(id);
      return view();
    },
    'providers.listModels': async ({ id }) => {
      const client = providers.client(id);
      try {
        const models = await client.listModels(AbortSignal.timeout(PROVIDER_CALL_TIMEOUT_MS));
        return { models };
      } catch (error) {
        throw HostError.coded(
          'SERVER_ERROR',
          providerError('provider-errors.list-models-failed', { detail: words(error) }),
        );
      }
    },
    'providers.check': async ({ id, model }) => {
      const client = providers.client(id);
      try {
        await client.check({
          ...(model !== undefined ? { model } : {}),
          signal: AbortSignal.timeout(PROVIDER_CALL_TIMEOUT_MS),
        });
        return { ok: true, message: model !== undefined ? `Connected; '${model}' is available.` : 'Connected.' };
      } catch (error) {
        // Berth's own refusal (no key, a base URL holding a password) keeps its code for the renderer.
        const coded = error instanceof HostError ? error.hostMessage : undefined;
        return { ok: false, message: words(error), ...(coded === undefined ? {} : { hostMessage: coded }) };
      }
    },
    'providers.checkKey': async ({ id }) => {
      const client = providers.client(id);
      const label = view().providers.find((provider) => provider.id === id)?.label ?? id;
      return checkKey(client, label, AbortSignal.timeout(PROVIDER_CALL_TIMEOUT_MS));
    },
  };
}
