import { OAUTH_SECRET_FIELDS, SECRET_MASK, isSecretHeader, type ServerConfig } from '../../shared/domain/server';
import { parseSecretRef } from '../secrets/secret-refs';
import { looksSecret, looksSecretHeader } from './secret-names';

/** One entry in Claude Desktop's `mcpServers`: a command, or (as Cursor and VS Code read it) a remote url. */
export type ClaudeDesktopEntry =
  | { command: string; args: string[]; env?: Record<string, string>; cwd?: string }
  | { url: string; type?: 'http' | 'sse'; headers?: Record<string, string> };

/** An env value (or, for a remote server, a header) left out of the export. */
export interface OmittedSecret {
  server: string;
  key: string;
}

/** The export, as a value and as the text to save. */
export interface ClaudeDesktopExport {
  document: { mcpServers: Record<string, ClaudeDesktopEntry> };
  /** Pretty-printed JSON with a final newline. */
  text: string;
  /** Env values dropped because they are (or look) secret; the person re-enters them in the other app. */
  omittedSecrets: OmittedSecret[];
}

/**
 * Berth's servers in Claude Desktop's shape. Berth-only fields are dropped,
 * and so is every env value that is marked secret, looks secret by its name
 * or is a mask or a `${secret:…}` reference (meaningless outside Berth), so a
 * shared export never carries a credential.
 */
export function exportClaudeDesktop(servers: ReadonlyMap<string, ServerConfig>): ClaudeDesktopExport {
  const mcpServers: Record<string, ClaudeDesktopEntry> = {};
  const omittedSecrets: OmittedSecret[] = [];
  for (const [name, config] of servers) {
    let entry: ClaudeDesktopEntry;
    if (config.url !== undefined) {
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(config.headers)) {
        if (
          isSecretHeader(config, key) ||
          looksSecretHeader(key) ||
          value === SECRET_MASK ||
          parseSecretRef(value) !== undefined
        )
          omittedSecrets.push({ server: name, key });
        else headers[key] = value;
      }
      // Berth's OAuth client settings have no place in the other app's file; their secrets are named so the person knows.
      for (const field of OAUTH_SECRET_FIELDS)
        if (config.oauth?.[field] !== undefined) omittedSecrets.push({ server: name, key: `oauth.${field}` });
      entry = {
        url: config.url,
        ...(config.type !== undefined ? { type: config.type } : {}),
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
      };
    } else {
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(config.env)) {
        if (
          config.secretEnv.includes(key) ||
          looksSecret(key) ||
          value === SECRET_MASK ||
          parseSecretRef(value) !== undefined
        )
          omittedSecrets.push({ server: name, key });
        else env[key] = value;
      }
      entry = {
        command: config.command ?? '',
        args: [...config.args],
        ...(Object.keys(env).length > 0 ? { env } : {}),
        ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
      };
    }
    Object.defineProperty(mcpServers, name, { value: entry, enumerable: true, writable: true, configurable: true });
  }
  const document = { mcpServers };
  return { document, text: `${JSON.stringify(document, null, 2)}\n`, omittedSecrets };
}
