import type { Result } from '../../shared/result';

/**
 * A failed call's message in a person's words (person-words.ts), loaded with
 * the first failure: successful calls, nearly all of them, never wait for it,
 * and the first screen's JavaScript does not carry it.
 */
export function inPersonWords<T>(result: Result<T>): Result<T> | Promise<Result<T>> {
  if (result.ok) return result;
  return import('./person-words').then((words) => words.withPersonWords(result));
}
