import type { Handlers } from '../../shared/contract';
import type { settingsMethods } from '../../shared/contract/settings';
import type { SettingsStore } from '../settings/settings-store';

/** The settings methods of the contract. */
export type SettingsHandlers = Pick<Handlers, keyof typeof settingsMethods>;

/** Settings methods. Every answer is a SettingsView: the API key itself never leaves the host. */
export function createSettingsHandlers(settings: SettingsStore): SettingsHandlers {
  return {
    'settings.get': async () => settings.view(),
    'settings.setApiKey': async ({ apiKey }) => settings.setApiKey(apiKey),
    'settings.clearApiKey': async () => settings.clearApiKey(),
    'settings.setDefaultModel': async ({ model }) => settings.setDefaultModel(model),
    'settings.setLanguage': async ({ language }) => settings.setLanguage(language),
    'settings.setAppearance': async (changes) => settings.setAppearance(changes),
  };
}
