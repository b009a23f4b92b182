import { codedFamily } from './host-wording';
import { BASE_URL_CREDENTIALS_MESSAGE } from './providers';

/**
 * The failures of using a model provider (no key, its models not listed), as codes with their facts; the
 * renderer words them from renderer/i18n/locales/<locale>/provider-errors.json. `provider` is the
 * provider's label as the person named it; `detail` the provider's or the network's own words.
 */
export type ProviderErrorMessages = {
  'provider-errors.no-api-key': Record<string, never>;
  'provider-errors.missing-key': { provider: string };
  'provider-errors.not-found': { id: string };
  'provider-errors.list-models-failed': { detail: string };
  /** A base URL holding a user name or password (settings.json edited by hand): nothing is sent with it. */
  'provider-errors.base-url-credentials': { provider: string };
  'provider-errors.anthropic-base-url-credentials': Record<string, never>;
};
export type ProviderErrorCode = keyof ProviderErrorMessages;

/** A provider's failure in English with its code (the English is what Berth always said). */
export const providerError = codedFamily<ProviderErrorMessages>({
  'provider-errors.no-api-key': () =>
    'Add your Anthropic API key in Settings (or set ANTHROPIC_API_KEY) to chat with Claude.',
  'provider-errors.missing-key': ({ provider }) =>
    `Add the API key of ${provider} in Settings (Providers) to use its models.`,
  'provider-errors.not-found': ({ id }) => `No provider '${id}'`,
  'provider-errors.list-models-failed': ({ detail }) => `Could not list the models: ${detail}`,
  'provider-errors.base-url-credentials': ({ provider }) =>
    `Provider '${provider}' is not used. ${BASE_URL_CREDENTIALS_MESSAGE} Edit it in Settings › Providers.`,
  'provider-errors.anthropic-base-url-credentials': () =>
    `Anthropic's base URL (ANTHROPIC_BASE_URL or settings.json baseURL) is not used. ${BASE_URL_CREDENTIALS_MESSAGE}`,
});
