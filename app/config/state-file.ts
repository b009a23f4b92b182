import { readFile, rename } from 'node:fs/promises';
import type { z } from 'zod';

/**
 * How a state file (settings.json, roots.json…) was found at start-up. A file
 * that cannot be used is moved aside, never silently overwritten; when even
 * that fails, `saveBlocked` says why saving must stay refused.
 */
export type StateFileLoad<T> =
  | { kind: 'missing' }
  | { kind: 'loaded'; data: T }
  | { kind: 'unusable'; message: string; saveBlocked?: string };

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Read and validate a JSON state file; `now` names the `.corrupt-<now>` copy. */
export async function loadStateFile<S extends z.ZodType>(filePath: string, schema: S, now: () => number): Promise<StateFileLoad<z.output<S>>> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    const saveBlocked = `it could not be read (${errorText(error)})`;
    return { kind: 'unusable', message: `${filePath} could not be read (${errorText(error)})`, saveBlocked };
  }
  let problem: string;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    if (parsed.success) return { kind: 'loaded', data: parsed.data };
    const issue = parsed.error.issues[0];
    problem = issue === undefined ? 'unexpected shape' : `${issue.path.join('.') || 'file'}: ${issue.message}`;
  } catch (error) {
    problem = `not valid JSON (${errorText(error)})`;
  }
  const aside = `${filePath}.corrupt-${now()}`;
  try {
    await rename(filePath, aside);
    return { kind: 'unusable', message: `${filePath} is invalid (${problem}); moved it to ${aside}` };
  } catch (error) {
    const saveBlocked = `it is invalid (${problem}) and could not be moved aside (${errorText(error)})`;
    return { kind: 'unusable', message: `${filePath} ${saveBlocked}`, saveBlocked };
  }
}
