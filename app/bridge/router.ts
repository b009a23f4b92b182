import type { z } from 'zod';
import { contract, isMethodName, type Handlers, type MethodName } from '../../shared/contract';
import { ERROR_CODES, fail, HostError, ok, type ErrorCode, type Failure, type Result } from '../../shared/result';
import type { CodedText } from '../../shared/domain/host-wording';
import { errorMessage } from '../../shared/error-message';
import { bridgeError } from '../../shared/domain/bridge-errors';
import { inputIssueWords } from '../../shared/domain/input-issue-words';

/** Options for {@link createRouter}. */
export interface RouterOptions {
  /**
   * Called when a handler throws something other than a HostError (a bug in
   * Berth). The caller still gets an INTERNAL failure; this is for the log.
   */
  onInternalError?(method: MethodName, error: unknown): void;
}

/** Serves the contract: validates, dispatches, and turns every outcome into a Result. */
export interface Router {
  /** Never throws and never rejects, whatever `method` and `input` are. */
  dispatch(method: unknown, input: unknown): Promise<Result<unknown>>;
}

/** How many validation problems one failure message lists before summarising. */
const MAX_ISSUES_IN_MESSAGE = 3;
const MAX_NAME_IN_MESSAGE = 80;

export function createRouter(handlers: Handlers, options: RouterOptions = {}): Router {
  const reportInternal = (method: MethodName, error: unknown): void => {
    try {
      options.onInternalError?.(method, error);
    } catch (reportError) {
      // The reporter itself failed: stderr is the last place left to say so.
      console.error(`[berth] onInternalError failed while reporting ${method}:`, reportError, error);
    }
  };

  async function dispatch(method: unknown, input: unknown): Promise<Result<unknown>> {
    if (!isMethodName(method)) {
      return unknownMethod(method);
    }
    const schema: z.ZodType = contract[method].input;
    let parsed: ReturnType<typeof schema.safeParse>;
    try {
      parsed = schema.safeParse(input);
    } catch (error) {
      // zod does not throw on odd input, but a getter or proxy in the input could.
      return failure(
        'INVALID_INPUT',
        bridgeError('bridge-errors.input-unreadable', { method, detail: errorMessage(error) }),
      );
    }
    if (!parsed.success) return invalidInput(method, parsed.error.issues);

    const handler = handlers[method] as (value: unknown) => Promise<unknown>;
    try {
      return ok(await handler(parsed.data));
    } catch (error) {
      if (isHostError(error)) return fail(error.code, error.message, error.path, error.hostMessage);
      reportInternal(method, error);
      return failure('INTERNAL', bridgeError('bridge-errors.bug', { method, detail: errorMessage(error) }));
    }
  }

  return {
    dispatch: async (method, input) => {
      try {
        return await dispatch(method, input);
      } catch (error) {
        // Only reachable through a bug in the code above; keep the promise of never rejecting.
        return failure('INTERNAL', bridgeError('bridge-errors.bug-dispatching', { detail: errorMessage(error) }));
      }
    },
  };
}

function isHostError(error: unknown): error is HostError {
  return error instanceof HostError && (ERROR_CODES as readonly string[]).includes(error.code);
}

function invalidInput(method: MethodName, issues: readonly z.core.$ZodIssue[]): Failure {
  const described = issues.map(describeIssue);
  const first = described[0];
  const shown = described
    .slice(0, MAX_ISSUES_IN_MESSAGE)
    .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
  const more =
    described.length > MAX_ISSUES_IN_MESSAGE ? ` (and ${described.length - MAX_ISSUES_IN_MESSAGE} more)` : '';
  const message = `Invalid input for ${method}: ${shown.join('; ')}${more}`;
  // The person reads the first problem, at the field the failure's path names; the message keeps them all.
  return fail('INVALID_INPUT', message, first?.path || undefined, inputIssueWords(issues)?.hostMessage);
}

/** A failure whose English and code come from the bridge's family. */
function failure(code: ErrorCode, words: CodedText): Failure {
  return fail(code, words.text, undefined, words.hostMessage);
}

function unknownMethod(method: unknown): Failure {
  if (typeof method === 'string')
    return failure(
      'UNKNOWN_METHOD',
      bridgeError('bridge-errors.unknown-method', { method: JSON.stringify(truncate(method, MAX_NAME_IN_MESSAGE)) }),
    );
  const type = method === null ? 'null' : Array.isArray(method) ? 'array' : typeof method;
  return failure('UNKNOWN_METHOD', bridgeError('bridge-errors.method-not-string', { type }));
}

interface DescribedIssue {
  path: string;
  message: string;
}

function describeIssue(issue: z.core.$ZodIssue): DescribedIssue {
  const path = formatPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => JSON.stringify(truncate(key, MAX_NAME_IN_MESSAGE)));
    const firstKey = issue.keys[0];
    return {
      path: firstKey === undefined ? path : joinPath(path, firstKey),
      message: `unknown field${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`,
    };
  }
  if (issue.code === 'invalid_key' && issue.issues.length > 0) {
    // zod's own text ("Invalid key in record") hides the useful inner message.
    const inner = issue.issues.map((nested) => nested.message).join('; ');
    return { path, message: `invalid key: ${inner}` };
  }
  return { path, message: issue.message };
}

function formatPath(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>((path, segment) => joinPath(path, segment), '');
}

function joinPath(path: string, segment: PropertyKey): string {
  if (typeof segment === 'number') return `${path}[${segment}]`;
  const key = typeof segment === 'symbol' ? segment.toString() : segment;
  if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(truncate(key, MAX_NAME_IN_MESSAGE))}]`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
