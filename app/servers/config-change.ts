import type { ServerConfig } from '../../shared/domain/server';

/**
 * What a config edit means for a running server:
 * - `none`: nothing changed;
 * - `live`: only what needs no new process changed, and is taken over as it
 *   runs: the requested log level (logging/setLevel, or the next requests'
 *   `_meta`) — restarting a server just to change how chatty it is would
 *   drop its state for nothing — and an authorization server pinned where
 *   none was (`oauth.issuer` set by the first successful token request: the
 *   running connection already uses that one);
 * - `restart`: anything else, which only takes effect in a new process.
 */
export type ConfigChange = 'none' | 'live' | 'restart';

/** JSON with object keys sorted and undefined values dropped, so `{a, b}` and `{b, a}` compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

export function classifyConfigChange(before: ServerConfig, after: ServerConfig): ConfigChange {
  if (canonicalJson(before) === canonicalJson(after)) return 'none';
  const { logLevel: _beforeLevel, ...beforeRest } = before;
  const { logLevel: _afterLevel, ...afterRest } = after;
  // A newly pinned issuer counts as unchanged; a changed or removed one does not.
  const pinned = before.oauth !== undefined && before.oauth.issuer === undefined && after.oauth?.issuer !== undefined;
  const afterCompared =
    pinned && after.oauth !== undefined ? { ...afterRest, oauth: { ...after.oauth, issuer: undefined } } : afterRest;
  return canonicalJson(beforeRest) === canonicalJson(afterCompared) ? 'live' : 'restart';
}
