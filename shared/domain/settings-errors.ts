import { codedFamily } from './host-wording';
import { BASE_URL_CREDENTIALS_MESSAGE } from './providers';

/**
 * The failures of changing Berth's settings (the API key, models, providers, limits), as codes with their
 * facts; the renderer words them from renderer/i18n/locales/<locale>/settings-errors.json. `file` is
 * settings.json, `models` the offered model keys joined by commas, `detail` the OS's or key store's words.
 */
export type SettingsErrorMessages = {
  'settings-errors.not-an-api-key': Record<string, never>;
  'settings-errors.store-key-failed': { detail: string };
  'settings-errors.remove-key-failed': { detail: string };
  'settings-errors.unknown-model': { model: string; models: string; file: string };
  'settings-errors.result-limit-range': { min: number; max: number };
  'settings-errors.save-blocked': { file: string; detail: string };
  'settings-errors.save-failed': { file: string; detail: string };
  'settings-errors.provider-not-found': { id: string; file: string };
  'settings-errors.provider-id-taken': { id: string };
  'settings-errors.provider-store-key-failed': { id: string; detail: string };
  'settings-errors.provider-remove-key-failed': { id: string; detail: string };
  'settings-errors.no-anthropic-models': Record<string, never>;
  'settings-errors.anthropic-only-models': { field: string };
  // A provider or a model list the schema refuses, in the schema's own words (settings-issue-words.ts).
  'settings-errors.provider-id-form': Record<string, never>;
  /** `id` is the built-in provider's id, `anthropic`. */
  'settings-errors.provider-id-built-in': { id: string };
  'settings-errors.provider-name-missing': Record<string, never>;
  'settings-errors.base-url-not-http': Record<string, never>;
  'settings-errors.base-url-has-credentials': Record<string, never>;
  'settings-errors.model-id-missing': Record<string, never>;
  'settings-errors.model-ids-twice': Record<string, never>;
  'settings-errors.anthropic-model-ids-twice': Record<string, never>;
  // A server's sampling limit refused: `field` is `maxTokens` (per request) or `sessionBudget`.
  'settings-errors.tokens-not-number': { field: TokenField };
  'settings-errors.tokens-not-whole': { field: TokenField };
  'settings-errors.tokens-at-least-one': { field: TokenField };
  'settings-errors.tokens-at-most': { field: TokenField; max: number };
};
export type SettingsErrorCode = keyof SettingsErrorMessages;

/** Which sampling limit a number is for. */
export type TokenField = 'maxTokens' | 'sessionBudget';

const TOKEN_FIELDS: Record<TokenField, string> = {
  maxTokens: 'The max tokens per request',
  sessionBudget: 'The session budget',
};

/** A sampling limit's name in English ("The session budget"), as its schema says it. */
export function tokenFieldWords(field: TokenField): string {
  return TOKEN_FIELDS[field];
}

/** A settings failure in English with its code (the English is what Berth always said). */
export const settingsError = codedFamily<SettingsErrorMessages>({
  'settings-errors.not-an-api-key': () => 'That does not look like an API key (no spaces, at least 8 characters)',
  'settings-errors.store-key-failed': ({ detail }) => `Could not store the API key: ${detail}`,
  'settings-errors.remove-key-failed': ({ detail }) => `Could not remove the stored API key: ${detail}`,
  'settings-errors.unknown-model': ({ model, models, file }) =>
    `Unknown model '${model}': choose one of ${models} (the list is in ${file}, and providers in Settings)`,
  'settings-errors.result-limit-range': ({ min, max }) =>
    `A result limit is a whole number of tokens from ${min} to ${max.toLocaleString('en-US')}`,
  'settings-errors.save-blocked': ({ file, detail }) => `Not saving ${file}: ${detail}`,
  'settings-errors.save-failed': ({ file, detail }) => `Could not save ${file}: ${detail}`,
  'settings-errors.provider-not-found': ({ id, file }) => `No provider '${id}' (the providers are in ${file})`,
  'settings-errors.provider-id-taken': ({ id }) => `There is already a provider '${id}'; choose another id`,
  'settings-errors.provider-store-key-failed': ({ id, detail }) =>
    `Could not store the key of provider '${id}': ${detail}`,
  'settings-errors.provider-remove-key-failed': ({ id, detail }) =>
    `Could not remove the stored key of provider '${id}': ${detail}`,
  'settings-errors.no-anthropic-models': () => 'Keep at least one Anthropic model (fetch them, or type an id)',
  // `field` is the change's name in providers.update (`label`, `baseUrl`).
  'settings-errors.anthropic-only-models': ({ field }) =>
    `Only the models of the built-in Anthropic provider can change here, not its ${field}`,
  'settings-errors.provider-id-form': () =>
    'A provider id is 1–40 lowercase letters, digits or dashes, starting with a letter or digit',
  'settings-errors.provider-id-built-in': ({ id }) => `'${id}' is the built-in provider; choose another id`,
  'settings-errors.provider-name-missing': () => 'Give the provider a name',
  'settings-errors.base-url-not-http': () => 'The base URL must be an http:// or https:// URL',
  'settings-errors.base-url-has-credentials': () => BASE_URL_CREDENTIALS_MESSAGE,
  'settings-errors.model-id-missing': () => 'a model needs an id',
  'settings-errors.model-ids-twice': () => 'Model ids must be unique within a provider',
  'settings-errors.anthropic-model-ids-twice': () => 'model ids must be unique',
  'settings-errors.tokens-not-number': ({ field }) => `${tokenFieldWords(field)} must be a number of tokens`,
  'settings-errors.tokens-not-whole': ({ field }) => `${tokenFieldWords(field)} must be a whole number of tokens`,
  'settings-errors.tokens-at-least-one': ({ field }) => `${tokenFieldWords(field)} must be at least 1 token`,
  'settings-errors.tokens-at-most': ({ field, max }) =>
    `${tokenFieldWords(field)} can be at most ${max.toLocaleString('en-US')} tokens`,
});
