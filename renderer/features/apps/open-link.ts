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
    return { ok: false, reason: 'The app asked to open something that is not a web address.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return {
      ok: false,
      reason: `The app asked to open a ${parsed.protocol.replace(/:$/, '')} link; Berth opens only http and https links.`,
    };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return {
      ok: false,
      reason: 'The app asked to open a link with a user name or password in it; Berth does not open those.',
    };
  }
  return { ok: true, url: parsed.href, domain: parsed.hostname };
}
