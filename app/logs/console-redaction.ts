import { format } from 'node:util';

/** One host's part in the console hook. */
export interface ConsoleRedaction {
  redact(text: string): string;
  /** A line the MCP SDK printed (already redacted), for the host's own log. */
  sdkLine(level: 'warning' | 'error', text: string): void;
}

type ConsoleMethod = 'warn' | 'error';
const METHODS: readonly ConsoleMethod[] = ['warn', 'error'];
/** How the MCP SDK starts what it prints (`[mcp-sdk] OAuth "invalid_grant" — …`). */
const SDK_PREFIX = '[mcp-sdk]';

const active = new Set<ConsoleRedaction>();
let installed:
  | {
      originals: Record<ConsoleMethod, (...args: unknown[]) => void>;
      hooks: Record<ConsoleMethod, (...args: unknown[]) => void>;
    }
  | undefined;

function hook(method: ConsoleMethod, unbound: (...args: unknown[]) => void): (...args: unknown[]) => void {
  const original = (...args: unknown[]): void => unbound.apply(console, args);
  return (...args: unknown[]) => {
    let text: string;
    try {
      text = format(...args);
    } catch {
      original(...args);
      return;
    }
    let redacted = text;
    for (const part of active) redacted = part.redact(redacted);
    // Unchanged output goes through as it was (a test runner still shows objects and stacks its own way).
    if (redacted === text) original(...args);
    else original(redacted);
    if (!text.startsWith(SDK_PREFIX)) return;
    for (const part of active) {
      try {
        part.sdkLine(method === 'warn' ? 'warning' : 'error', redacted);
      } catch (error) {
        original('[berth] the log refused a line of the MCP SDK:', error);
      }
    }
  };
}

/**
 * Route `console.warn` and `console.error` through every live host's
 * redaction (the MCP SDK prints OAuth error texts from the authorization
 * server there, which may repeat a token), and copy the SDK's lines into the
 * host's log. Installed once for all hosts in the process and taken away when
 * the last one stops; a console method someone replaced in the meantime is
 * left to them. Returns the uninstall function.
 */
export function installConsoleRedaction(part: ConsoleRedaction): () => void {
  active.add(part);
  if (installed === undefined) {
    const originals = { warn: console.warn, error: console.error };
    const hooks = { warn: hook('warn', originals.warn), error: hook('error', originals.error) };
    for (const method of METHODS) console[method] = hooks[method];
    installed = { originals, hooks };
  }
  return () => {
    active.delete(part);
    if (active.size > 0 || installed === undefined) return;
    for (const method of METHODS) {
      if (console[method] === installed.hooks[method]) console[method] = installed.originals[method];
    }
    installed = undefined;
  };
}
