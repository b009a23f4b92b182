import { stat } from 'node:fs/promises';
import { delimiter } from 'node:path';
import { ServerStartError } from '../../shared/domain/server-start-error';
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
  return new ServerStartError(`${error.message}. About that PATH: ${pathSource}`, error.kind, error.code);
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
    case 'ENOENT':
      return new ServerStartError(
        looksLikePath(command)
          ? `command '${command}' does not exist — check the path in the server's config`
          : `command '${command}' not found on PATH (${shortenPath(context.path)}) — install it or use its full path`,
        'config',
        code,
      );
    case 'EACCES':
    case 'EPERM':
      return new ServerStartError(
        `command '${command}' is not executable (permission denied) — check that it is a program and has execute permission`,
        'config',
        code,
      );
    case 'ENOEXEC':
      return new ServerStartError(
        `command '${command}' is not a program this system can run (bad format) — point "command" at an executable or a script with a #! line`,
        'config',
        code,
      );
    case 'ENOTDIR':
      return new ServerStartError(
        context.cwd !== undefined
          ? missingCwdMessage(context.cwd, true)
          : `command '${command}' goes through a file that is not a directory — check the path`,
        'config',
        code,
      );
    default: {
      const detail = error.message || String(error);
      return new ServerStartError(
        `could not start '${command}': ${detail}${code !== undefined && !detail.includes(code) ? ` (${code})` : ''}`,
        code !== undefined && PERMANENT_CODES.has(code) ? 'config' : 'spawn',
        code,
      );
    }
  }
}

/** A cwd that is missing or no folder fails the start with words naming it, before anything is spawned. */
export async function assertDirectory(cwd: string): Promise<void> {
  try {
    const info = await stat(cwd);
    if (!info.isDirectory()) throw new ServerStartError(missingCwdMessage(cwd, true), 'config', 'ENOTDIR');
  } catch (error) {
    if (error instanceof ServerStartError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ServerStartError(missingCwdMessage(cwd), 'config', code);
    throw new ServerStartError(`working directory '${cwd}' cannot be used: ${errorMessage(error)}`, 'config', code);
  }
}
