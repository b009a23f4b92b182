// The app's language kept in step with the host's settings: the glue between the store and
// renderer/i18n (which knows nothing of the store), owned by the shell.
import { useEffect } from 'react';
import type { SettingsView } from '../../../shared/contract/settings';
import { useBerth } from '../../store';
import type { RendererTransport } from '../../transport';
import { activateLocale, type UiLocale } from '../../i18n/i18n';
import { chooseLocale, localeOverride } from '../../i18n/locale-choice';

/** How long the first render waits for the host's Language setting before it goes by the browser's languages. */
const SETTING_WAIT_MS = 1500;

function localeFor(settings: Pick<SettingsView, 'language' | 'systemLanguages'> | undefined): UiLocale {
  return chooseLocale({
    override: localeOverride(window.location.search),
    setting: settings?.language,
    systemLanguages: settings?.systemLanguages,
    browserLanguages: navigator.languages,
  });
}

/**
 * Activates the locale to start in, before the first render: it asks the host for the Language
 * setting (one local round trip; browser mode's origin changes every run, so nothing kept in the
 * page would survive), and goes by the browser's languages if the host is slow or cannot answer
 * (or, without a transport, cannot be reached at all).
 */
export async function activateStartupLocale(transport: RendererTransport | undefined): Promise<void> {
  if (transport === undefined) return activateLocale(localeFor(undefined));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settings = await Promise.race([
    transport.call('settings.get', {}).then((result) => (result.ok ? result.value : undefined)),
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), SETTING_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  await activateLocale(localeFor(settings));
}

/**
 * Keeps the shown language in step with the Language setting and the system's languages as the
 * host reports them: a change (here or in another window) loads that catalog and re-renders live.
 */
export function useLocaleSync(): void {
  const known = useBerth((s) => s.settings !== undefined);
  const setting = useBerth((s) => s.settings?.language);
  // Joined: a new array with the same languages (every settings event) is no change.
  const system = useBerth((s) => s.settings?.systemLanguages?.join('\n') ?? '');
  useEffect(() => {
    if (!known) return;
    void activateLocale(localeFor({ language: setting, systemLanguages: system === '' ? [] : system.split('\n') }));
  }, [known, setting, system]);
}

/** Keeps the language in step with the settings; a component of its own so a change re-renders only what reads messages. */
export function LocaleSync() {
  useLocaleSync();
  return null;
}
