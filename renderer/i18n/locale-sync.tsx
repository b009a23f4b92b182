import { useLocaleSync } from './use-locale-sync';

/** Keeps the language in step with the settings; a component of its own so a change re-renders only what reads messages. */
export function LocaleSync() {
  useLocaleSync();
  return null;
}
