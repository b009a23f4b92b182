import type { ServerConfig } from '../../shared/domain/server';

/**
 * What a config edit means for a running server:
 * - `none`: nothing changed;
 * - `logLevel`: only the requested log level changed, which is applied live
 *   (logging/setLevel, or the next requests' `_meta`): restarting a server
 *   just to change how chatty it is would drop its state for nothing;
 * - `restart`: anything else, which only takes effect in a new process.
 */
export type ConfigChange = 'none' | 'logLevel' | 'restart';

/** JSON with object keys sorted and undefined values dropped, so `{a, b}` and `{b, a}` compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

export function classifyConfigChange(before: ServerConfig, after: ServerConfig): ConfigChange {
  if (canonicalJson(before) === canonicalJson(after)) return 'none';
  const { logLevel: _beforeLevel, ...beforeRest } = before;
  const { logLevel: _afterLevel, ...afterRest } = after;
  return canonicalJson(beforeRest) === canonicalJson(afterRest) ? 'logLevel' : 'restart';
}
