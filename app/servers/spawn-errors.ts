import { stat } from 'node:fs/promises';
import { delimiter } from 'node:path';
import { ServerStartError, type ServerStartWording } from '../../shared/domain/server-start-error';
import { errorMessage } from '../../shared/error-message';

/** What the explanation needs to know about the failed spawn. */
export interface SpawnContext {
  command: string;
  cwd?: string;
  /** The PATH the child was given (host PATH merged with the server's env). */
  path?: string;
}

/** Codes for which retrying the same spawn is pointless. */
const PERMANENT_CODES = new Set(['ENOENT', 'EACCES', 'ENOTDIR', 'EISDIR', 'ENOEXEC', 'EPERM']);

/**
 * Show a PATH in a form that fits in one line of the UI: the first entries in
 * full, then how many more there are. The person mostly needs to see whether
 * their nvm/homebrew/… directory is there at all.
 */
export function shortenPath(pathValue: string | undefined, maxEntries = 4, maxChars = 160): string {
  if (pathValue === undefined || pathValue.trim() === '') return 'PATH is empty';
  const entries = pathValue.split(delimiter).filter((entry) => entry !== '');
  const shown: string[] = [];
  let length = 0;
  for (const entry of entries) {
    if (shown.length >= maxEntries || length + entry.length > maxChars) break;
    shown.push(entry);
    length += entry.length + 1;
  }
  const rest = entries.length - shown.length;
  const head = shown.length > 0 ? shown.join(delimiter) : `${entries[0]?.slice(0, maxChars) ?? ''}…`;
  return rest > 0 ? `${head}${delimiter}… ${rest} more` : head;
}

function looksLikePath(command: string): boolean {
  return command.includes('/') || command.includes('\\');
}

/**
 * "Not found on PATH" plus where that PATH came from (the login shell's, or
 * why not): from a GUI launch the first question is whether the terminal's
 * PATH was searched at all. Other failures are returned unchanged.
 */
export function withPathSource(error: ServerStartError, command: string, pathSource: string): ServerStartError {
  const notFoundOnPath =
    error.code === 'ENOENT' &&
    !looksLikePath(command) &&
    error.message.startsWith(`command '${command}' not found on PATH`);
  if (!notFoundOnPath) return error;
  const path = error.wording?.code === 'server-start.command-not-on-path' ? error.wording.params.path : '';
  return new ServerStartError(`${error.message}. About that PATH: ${pathSource}`, error.kind, error.code, undefined, {
    code: 'server-start.command-not-on-login-path',
    params: { command, path, pathSource },
  });
}

/** A working directory that is missing or not a directory, as a code for the renderer. */
export function missingCwdWording(cwd: string, notADirectory = false): ServerStartWording {
  return { code: notADirectory ? 'server-start.cwd-not-directory' : 'server-start.cwd-missing', params: { cwd } };
}

/** The message for a working directory that is missing or not a directory. */
export function missingCwdMessage(cwd: string, notADirectory = false): string {
  return notADirectory
    ? `working directory '${cwd}' is not a directory — fix "cwd" in the server's config`
    : `working directory '${cwd}' does not exist — create it or fix "cwd" in the server's config`;
}

/**
 * Turn a spawn failure into a sentence a person can act on. The original
 * errno code is kept in the message for the fallback so a bug report still
 * carries it.
 */
export function explainSpawnError(error: NodeJS.ErrnoException, context: SpawnContext): ServerStartError {
  const code = error.code;
  const { command } = context;
  switch (code) {
    case 'ENOENT': {
      if (looksLikePath(command)) {
        return new ServerStartError(
          `command '${command}' does not exist — check the path in the server's config`,
          'config',
          code,
          undefined,
          { code: 'server-start.command-missing', params: { command } },
        );
      }
      const path = shortenPath(context.path);
      return new ServerStartError(
        `command '${command}' not found on PATH (${path}) — install it or use its full path`,
        'config',
        code,
        undefined,
        { code: 'server-start.command-not-on-path', params: { command, path } },
      );
    }
    case 'EACCES':
    case 'EPERM':
      return new ServerStartError(
        `command '${command}' is not executable (permission denied) — check that it is a program and has execute permission`,
        'config',
        code,
        undefined,
        { code: 'server-start.not-executable', params: { command } },
      );
    case 'ENOEXEC':
      return new ServerStartError(
        `command '${command}' is not a program this system can run (bad format) — point "command" at an executable or a script with a #! line`,
        'config',
        code,
        undefined,
        { code: 'server-start.bad-format', params: { command } },
      );
    case 'ENOTDIR':
      return context.cwd !== undefined
        ? new ServerStartError(
            missingCwdMessage(context.cwd, true),
            'config',
            code,
            undefined,
            missingCwdWording(context.cwd, true),
          )
        : new ServerStartError(
            `command '${command}' goes through a file that is not a directory — check the path`,
            'config',
            code,
            undefined,
            { code: 'server-start.command-missing', params: { command } },
          );
    default: {
      const detail = `${error.message || String(error)}${code !== undefined && !(error.message || '').includes(code) ? ` (${code})` : ''}`;
      return new ServerStartError(
        `could not start '${command}': ${detail}`,
        code !== undefined && PERMANENT_CODES.has(code) ? 'config' : 'spawn',
        code,
        undefined,
        { code: 'server-start.spawn-failed', params: { command, detail } },
      );
    }
  }
}

/** A cwd that is missing or no folder fails the start with words naming it, before anything is spawned. */
export async function assertDirectory(cwd: string): Promise<void> {
  try {
    const info = await stat(cwd);
    if (!info.isDirectory())
      throw new ServerStartError(
        missingCwdMessage(cwd, true),
        'config',
        'ENOTDIR',
        undefined,
        missingCwdWording(cwd, true),
      );
  } catch (error) {
    if (error instanceof ServerStartError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new ServerStartError(missingCwdMessage(cwd), 'config', code, undefined, missingCwdWording(cwd));
    const detail = errorMessage(error);
    throw new ServerStartError(`working directory '${cwd}' cannot be used: ${detail}`, 'config', code, undefined, {
      code: 'server-start.cwd-unusable',
      params: { cwd, detail },
    });
  }
}
