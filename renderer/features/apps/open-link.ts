import { translate } from '../../i18n/use-t';

/** A link an app asked to open, as the person will see it before saying yes. */
export type LinkCheck = { ok: true; url: string; domain: string } | { ok: false; reason: string };

/**
 * Only http(s) links are offered; the domain is the parsed host (an
 * internationalised name shows in its xn-- form, so a look-alike cannot pass
 * for the real one), and credentials in the URL are refused outright.
 */
export function checkLink(raw: string): LinkCheck {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { ok: false, reason: translate('apps.link.notWeb') };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return {
      ok: false,
      reason: translate('apps.link.scheme', { scheme: parsed.protocol.replace(/:$/, '') }),
    };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return {
      ok: false,
      reason: translate('apps.link.credentials'),
    };
  }
  return { ok: true, url: parsed.href, domain: parsed.hostname };
}
