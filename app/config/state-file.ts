import { readFile, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { z } from 'zod';
import { errorMessage } from '../../shared/error-message';

/**
 * How a state file (settings.json, roots.json…) was found at start-up. A file
 * that cannot be used is moved aside, never silently overwritten; when even
 * that fails, `saveBlocked` says why saving must stay refused. `problem` is
 * what is wrong with it and `movedTo` where it went, for callers that word
 * their own message.
 */
export type StateFileLoad<T> =
  | { kind: 'missing' }
  | { kind: 'loaded'; data: T }
  | { kind: 'unusable'; message: string; problem: string; movedTo?: string; saveBlocked?: string };

/** Options for {@linkcode loadStateFile}. */
export interface LoadStateFileOptions {
  /**
   * False for files holding secrets: JSON.parse's message quotes the text
   * around the error, which must never reach a log.
   */
  quoteParseError?: boolean;
}

/** The name pattern of atomicWriteFile's temp files: `.<name>.<pid>.<random hex>.tmp`. */
const TEMP_FILE = /^\.(.+)\.(\d+)\.[0-9a-f]+\.tmp$/;

function processIsRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Remove temp files in `dir` that a write interrupted by a crash left behind
 * (for the file `target` only, when given). The real file beside them is
 * intact: atomicWriteFile renames only a complete, synced temp file. Temp
 * files of a process still running (a write in progress) are left alone.
 * Returns the names removed.
 */
export async function removeInterruptedWrites(
  dir: string,
  target?: string,
  listed?: readonly string[],
): Promise<string[]> {
  let names: readonly string[];
  try {
    // `listed`: the caller has just listed the folder (the conversations, 5,000 names at start).
    names = listed ?? (await readdir(dir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names) {
    const match = TEMP_FILE.exec(name);
    if (match === null || (target !== undefined && match[1] !== target)) continue;
    const pid = Number(match[2]);
    if (pid === process.pid || processIsRunning(pid)) continue;
    await rm(join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

function describeProblem(error: unknown, quoteParseError: boolean): string {
  if (error instanceof SyntaxError && !quoteParseError) return 'not valid JSON';
  return `not valid JSON (${errorMessage(error)})`;
}

/**
 * Read and validate a JSON state file; `now` names the `.corrupt-<now>` copy.
 * Temp files left beside it by an interrupted write are cleaned up first.
 */
export async function loadStateFile<S extends z.ZodType>(
  filePath: string,
  schema: S,
  now: () => number,
  options: LoadStateFileOptions = {},
): Promise<StateFileLoad<z.output<S>>> {
  // Best effort: a leftover temp file is never read, so failing to remove it must not stop the load.
  await removeInterruptedWrites(dirname(filePath), basename(filePath)).catch(() => undefined);
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    const problem = `it could not be read (${errorMessage(error)})`;
    return {
      kind: 'unusable',
      message: `${filePath} could not be read (${errorMessage(error)})`,
      problem,
      saveBlocked: problem,
    };
  }
  let problem: string;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    if (parsed.success) return { kind: 'loaded', data: parsed.data };
    const issue = parsed.error.issues[0];
    problem = issue === undefined ? 'unexpected shape' : `${issue.path.join('.') || 'file'}: ${issue.message}`;
  } catch (error) {
    problem = describeProblem(error, options.quoteParseError ?? true);
  }
  const aside = `${filePath}.corrupt-${now()}`;
  try {
    await rename(filePath, aside);
    return {
      kind: 'unusable',
      message: `${filePath} is invalid (${problem}); moved it to ${aside}`,
      problem,
      movedTo: aside,
    };
  } catch (error) {
    const saveBlocked = `it is invalid (${problem}) and could not be moved aside (${errorMessage(error)})`;
    return { kind: 'unusable', message: `${filePath} ${saveBlocked}`, problem, saveBlocked };
  }
}
