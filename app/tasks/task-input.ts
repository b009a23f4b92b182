import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestParams,
  ElicitResult,
} from '@modelcontextprotocol/client';
import type {
  ApplicationInputRequest,
  ApplicationInputResult,
  ResolvedInputExchangeContext,
} from '@modelcontextprotocol/ext-tasks/client';
import type { RequestOrigin } from '../pending/running-tool-calls';
import { checkedParams } from './task-receiver-params';

/** What one call made through the task session carries to its input requests (ext-tasks' application context). */
export interface TaskCallContext {
  /** The Berth task (TaskRecord.id) the call is, or becomes if the server answers with a task. */
  readonly recordId: string;
  /** The chat tool call that made it, when a chat turn did. */
  readonly origin?: { conversationId: string; toolUseId: string };
  /** Picked up again after a restart: no chat call waits for it any more, so its question lives as long as the task. */
  readonly resumed: boolean;
}

/** How Berth asks the person a question a tool call needs answered (ServerQuestions: the sampling review, the elicitation form). */
export interface TaskInputQuestionContext {
  /** Aborted when the question is no longer wanted (the task ended, was cancelled, Berth stopped following it). */
  signal: AbortSignal;
  /** The chat call the question is for: its card shows "Waiting for your answer", and the form is labelled with it. */
  origin?: RequestOrigin;
  /** The Berth task the question belongs to, when no running chat call does (a task picked up after a restart). */
  taskId?: string;
}

/** Berth's own dialogs, as ServerQuestions offers them. */
export interface ToolTaskQuestions {
  sampling(
    server: string,
    params: CreateMessageRequestParams,
    context: TaskInputQuestionContext,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  elicitation(server: string, params: ElicitRequestParams, context: TaskInputQuestionContext): Promise<ElicitResult>;
}

type InputHandler = <TRequest extends ApplicationInputRequest>(
  request: TRequest,
  context: ResolvedInputExchangeContext<TaskCallContext | undefined>,
) => Promise<ApplicationInputResult<TRequest>>;

/**
 * ext-tasks' `onInputRequest` for one server's task session. In the
 * 2026-07-28 era a tool call's questions arrive as `inputRequests` (in
 * `tasks/get` of a task, or an `input_required` result of an immediate call);
 * ext-tasks answers them (`tasks/update`, or the retried call) with what this
 * returns. Each goes to Berth's own review or form, labelled with the call it
 * is for, and only the person's answer goes back: a request Berth cannot
 * show (bad params, `roots/list`) is refused with an error, which ext-tasks
 * reports and answers as "cancel" for an elicitation, and leaves unanswered
 * otherwise.
 */
export function taskInputHandler(server: string, questions: ToolTaskQuestions): InputHandler {
  const handle = async (
    request: ApplicationInputRequest,
    context: ResolvedInputExchangeContext<TaskCallContext | undefined>,
  ): Promise<unknown> => {
    const call = context.applicationContext;
    const where = context.taskId === undefined ? 'a tool call' : `task '${context.taskId}'`;
    if (request.kind === 'roots')
      throw new Error(
        `${where} of server '${server}' asked for roots inside the call, which Berth does not answer there yet`,
      );
    const checked = checkedParams(request.kind, request.params);
    if (!checked.ok)
      throw new Error(`${where} of server '${server}' asked a question Berth cannot show: ${checked.message}`);
    const question: TaskInputQuestionContext = {
      signal: context.signal ?? new AbortController().signal,
      ...(call?.origin === undefined ? {} : { origin: call.origin }),
      ...(call?.resumed === true && context.scope === 'task' ? { taskId: call.recordId } : {}),
    };
    return checked.kind === 'sampling'
      ? questions.sampling(server, checked.value, question)
      : questions.elicitation(server, checked.value, question);
  };
  // ext-tasks checks the answer against the request's result schema before it is sent.
  return (request, context) => handle(request, context) as Promise<ApplicationInputResult<typeof request>>;
}
