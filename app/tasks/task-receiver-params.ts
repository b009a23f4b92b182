import { specTypeSchemas } from '@modelcontextprotocol/client';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestParams,
  ElicitResult,
  StandardSchemaV1,
} from '@modelcontextprotocol/client';
import { toJsonValue } from '@modelcontextprotocol/ext-tasks/core';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';

// A task-augmented request skips the SDK's own checks of a sampling or
// elicitation request and its result (ext-tasks answers it with a task, which
// is no sampling result). Berth checks both here against the same MCP schemas.

export type ReceiverKind = 'sampling' | 'elicitation';

/** What a task's question carries: withdrawn when aborted; told each pending id it opens. */
export interface ReceiverQuestionContext {
  signal: AbortSignal;
  onQuestion: (pendingId: string) => void;
}

/** The same review and form a plain request gets (ServerQuestions). */
export interface ReceiverQuestions {
  sampling(
    server: string,
    params: CreateMessageRequestParams,
    context: ReceiverQuestionContext,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  elicitation(server: string, params: ElicitRequestParams, context: ReceiverQuestionContext): Promise<ElicitResult>;
  /** Why a sampling request cannot be answered at all (no API key): refused before any task is made. */
  samplingRefusal?(server: string): Error | undefined;
}

export type CheckedParams =
  | { ok: true; kind: 'sampling'; value: CreateMessageRequestParams }
  | { ok: true; kind: 'elicitation'; value: ElicitRequestParams }
  | { ok: false; message: string };

function check(
  schema: StandardSchemaV1,
  value: unknown,
): { ok: true; value: unknown } | { ok: false; message: string } {
  const outcome = schema['~standard'].validate(value);
  // The SDK's spec schemas are synchronous; a promise here would be a new SDK.
  if (outcome instanceof Promise) throw new TypeError('the MCP spec schemas were expected to validate synchronously');
  if (outcome.issues === undefined) return { ok: true, value: outcome.value };
  const problems = outcome.issues.slice(0, 3).map((issue) => {
    const path = (issue.path ?? [])
      .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
      .join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  return { ok: false, message: problems.join('; ') };
}

/** The request's params without `task` (the question does not need it), checked. */
export function checkedParams(kind: ReceiverKind, raw: unknown): CheckedParams {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, message: `Invalid ${kind} request: params must be an object` };
  const params = Object.fromEntries(Object.entries(raw).filter(([key]) => key !== 'task'));
  if (kind === 'sampling') {
    const checked = check(specTypeSchemas.CreateMessageRequestParams, params);
    return checked.ok
      ? { ok: true, kind, value: checked.value as CreateMessageRequestParams }
      : { ok: false, message: `Invalid sampling request: ${checked.message}` };
  }
  const checked = check(specTypeSchemas.ElicitRequestParams, params);
  return checked.ok
    ? { ok: true, kind, value: checked.value as ElicitRequestParams }
    : { ok: false, message: `Invalid elicitation request: ${checked.message}` };
}

function isJsonObject(value: JsonValue): value is Record<string, JsonValue> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The answer as the task's result: valid MCP for its method, as plain JSON. */
export function checkedResult(
  kind: ReceiverKind,
  params: CreateMessageRequestParams | ElicitRequestParams,
  result: unknown,
): { ok: true; value: Record<string, JsonValue> } | { ok: false; message: string } {
  const withTools =
    kind === 'sampling' &&
    ((params as CreateMessageRequestParams).tools !== undefined ||
      (params as CreateMessageRequestParams).toolChoice !== undefined);
  const schema =
    kind === 'elicitation'
      ? specTypeSchemas.ElicitResult
      : withTools
        ? specTypeSchemas.CreateMessageResultWithTools
        : specTypeSchemas.CreateMessageResult;
  const checked = check(schema, result);
  if (!checked.ok) return { ok: false, message: `Invalid ${kind} result: ${checked.message}` };
  const json = toJsonValue(checked.value);
  if (!isJsonObject(json)) return { ok: false, message: `Invalid ${kind} result: not a JSON object` };
  return { ok: true, value: json };
}
