// Tests read the interface in English, as the source catalog words it (renderer code words its
// messages through the one Lingui instance, which needs an active locale); a test that switches
// the language gets English back for the next one.
import { afterEach } from 'vitest';
import { activateLocale } from '../i18n/i18n';

await activateLocale('en');
afterEach(async () => {
  await activateLocale('en');
});
