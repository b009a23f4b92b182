import type { CallToolResult } from '@modelcontextprotocol/client';
import { STOPPED_TOOL_TEXT } from '../../shared/domain/chat';
import type { ChatToolResultBlock, ChatToolUseBlock, ToolAppRef } from '../../shared/domain/chat';
import { errorMessage } from '../../shared/error-message';
import type { CallToolOptions } from '../servers/server-connection';
import type { ChatEventPump } from './chat-event-pump';
import { LlmError } from '../providers/llm-provider';
import { outcomeFromCallToolResult, sameJson } from './tool-results';
import { HOST_TOOL_SERVER } from '../../shared/domain/host-tools';
import { runHostTool } from './host-tools/run-host-tool';
import { HostMessageSchema, type HostMessage } from '../../shared/domain/host-message';
import type { Worded } from '../../shared/domain/host-wording';
import { toolOutcome } from '../../shared/domain/tool-outcome';
import type { HostToolDeps } from './host-tools/run-host-tool';

// One tool call of a chat turn, from the model's tool_use to the result the
// model reads: consent (the gate), the run (the runner), and every event the
// card follows. Kept apart from the turn loop in chat-engine.ts.

/** One tool call the model wants, as the gate (the consent broker) sees it. */
export interface ToolCallGateRequest {
  conversationId: string;
  server: string;
  tool: string;
  input: Record<string, unknown>;
  toolUseId: string;
  /** Fires when the person stops the turn: withdraw the prompt. */
  signal: AbortSignal;
}

/** What the chat engine needs to know from the gate: run the call (with these arguments, perhaps the person's edit) or not, and why. */
/** `byHost`: nobody said no; Berth withdrew the question (quitting, window closed, server gone) and `reason` says why. */
export type ToolCallGateAnswer =
  | { allow: true; input: Record<string, unknown> }
  | { allow: false; reason?: string; reasonMessage?: HostMessage; byHost?: true };

/** Decides whether a tool call may run (the consent broker). */
export interface ToolCallGate {
  approve(request: ToolCallGateRequest): Promise<ToolCallGateAnswer>;
}

/** How the engine runs one call: the supervisor's options, and word of the call's questions to the person. */
export interface ToolRunOptions extends CallToolOptions {
  /** A question of this call (its elicitation form, a sampling review) waits for the person (its pending id), or none does any more (null). */
  onWaiting?: (pendingId: string | null) => void;
}

/** Runs tool calls (the supervisor, through the host's RunningToolCalls). */
export interface ToolRunner {
  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options?: ToolRunOptions,
  ): Promise<CallToolResult>;
}

/** The reason a server reads in `notifications/cancelled` when the person stops a call (not an AbortError's text). */
export const CANCELLED_BY_USER = 'cancelled by the user';

function textResult(toolUseId: string, text: string): ChatToolResultBlock {
  return { type: 'tool_result', toolUseId, content: [{ type: 'text', text }], isError: true };
}

/** A result whose text Berth wrote: the model reads the English, the card words the code in the person's language. */
function hostResult(toolUseId: string, { text, message }: Worded): ChatToolResultBlock {
  return { ...textResult(toolUseId, text), outcomeMessage: message };
}

/** A failure's text as the result, with the code the host gave it (a HostError's hostMessage), when it has one. */
function failedResult(toolUseId: string, error: unknown): ChatToolResultBlock {
  const coded = HostMessageSchema.safeParse((error as { hostMessage?: unknown } | undefined)?.hostMessage);
  const result = textResult(toolUseId, errorMessage(error));
  return coded.success ? { ...result, outcomeMessage: coded.data } : result;
}

/** A call the person stopped: the model reads STOPPED_TOOL_TEXT, the card "Stopped by you". */
function stoppedResult(toolUseId: string): ChatToolResultBlock {
  return { ...textResult(toolUseId, STOPPED_TOOL_TEXT), stopped: true };
}

/**
 * A signal for one tool call that aborts with CANCELLED_BY_USER when the turn does: the SDK sends
 * `String(signal.reason)` as the cancel reason. Only the call's request gets it; the turn's own
 * signal keeps its plain abort for everything else. `release` drops the listener when the call is over.
 */
function cancelledByPerson(turn: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(CANCELLED_BY_USER);
  if (turn.aborted) onAbort();
  else turn.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, release: () => turn.removeEventListener('abort', onAbort) };
}

/** Resolves like `promise`, or rejects as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new LlmError('aborted', 'stopped'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new LlmError('aborted', 'stopped'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** What one call needs from the engine. */
export interface ToolCallDeps {
  pump: Pick<ChatEventPump, 'emit' | 'progress'>;
  gate: ToolCallGate;
  runner: ToolRunner;
  /** The MCP App the tool's card renders (its `_meta.ui.resourceUri`), if it names one. */
  appOf?: ((server: string, tool: string) => ToolAppRef | undefined) | undefined;
  /** Host tools offered in this request: their calls are answered by Berth, without a server or consent (run-host-tool.ts). */
  host?: HostToolDeps;
  /** A result above its server's limit: how it is cut for the model (app/chat/results), saved with it so the card can say so. */
  capRecord?: (server: string, result: ChatToolResultBlock) => ChatToolResultBlock['capped'];
  /** Why this MCP tool may not be called in this request (tool search has not loaded it), or undefined. */
  notOffered?: (server: string, tool: string) => string | undefined;
}

/** The turn a call belongs to. */
export interface ToolCallTurn {
  conversationId: string;
  turnId: string;
  controller: AbortController;
}

/** What the model reads for a call whose arguments could not be read: it may try again. */
export function unreadableArgumentsText(inputError: string): string {
  return `${inputError}\nThe call did not run: call the tool again with its arguments as one JSON object.`;
}

/**
 * One tool call, start to end; always settles with a result for the model.
 * `inputError`: the model's arguments could not be read, so the call is answered with that, unasked and unrun.
 */
export async function runToolCall(
  deps: ToolCallDeps,
  turn: ToolCallTurn,
  use: ChatToolUseBlock,
  inputError?: string,
): Promise<ChatToolResultBlock> {
  const { conversationId, turnId } = turn;
  const signal = turn.controller.signal;
  const base = { conversationId, turnId, toolUseId: use.id };
  // The result travels with the event: parallel calls are saved together once the slowest ends, and
  // the card of a call that finished earlier shows its result now, not then.
  const finish = (result: ChatToolResultBlock): ChatToolResultBlock => {
    deps.pump.emit({
      type: 'tool-call-finished',
      ...base,
      isError: result.isError,
      denied: result.denied !== undefined,
      result,
    });
    return result;
  };
  const noSuchTool = () => hostResult(use.id, toolOutcome('tool-outcome.no-such-tool', { name: use.apiName }));
  if (use.server === '') return finish(noSuchTool());
  if (inputError !== undefined) return finish(textResult(use.id, unreadableArgumentsText(inputError)));
  if (signal.aborted) return finish(stoppedResult(use.id));
  if (use.server === HOST_TOOL_SERVER) {
    if (deps.host === undefined) return finish(noSuchTool());
    deps.pump.emit({ type: 'tool-call-started', ...base, server: use.server, tool: use.tool, input: use.input });
    const result = await runHostTool(deps.host, use, signal);
    return finish(signal.aborted && result.isError ? stoppedResult(use.id) : result);
  }
  const notOffered = deps.notOffered?.(use.server, use.tool);
  if (notOffered !== undefined) return finish(textResult(use.id, notOffered));

  deps.pump.emit({ type: 'tool-call-pending', ...base, server: use.server, tool: use.tool, input: use.input });
  let approval: ToolCallGateAnswer;
  try {
    approval = await untilAborted(
      deps.gate.approve({
        conversationId,
        server: use.server,
        tool: use.tool,
        input: use.input,
        toolUseId: use.id,
        signal,
      }),
      signal,
    );
  } catch (error) {
    if (signal.aborted) return finish(stoppedResult(use.id));
    return finish(hostResult(use.id, toolOutcome('tool-outcome.could-not-ask', { detail: errorMessage(error) })));
  }
  if (!approval.allow) {
    const reason = approval.reason?.trim();
    const denied = {
      ...(reason ? { reason } : {}),
      ...(reason && approval.reasonMessage !== undefined ? { reasonMessage: approval.reasonMessage } : {}),
      ...(approval.byHost === true ? { byHost: true as const } : {}),
    };
    return finish({ type: 'tool_result', toolUseId: use.id, content: [], isError: true, denied });
  }

  const input = approval.input;
  const edited = !sameJson(input, use.input);
  // The card can render the app now, with the input; the saved result names it too, so a reload renders it again.
  const appRef = deps.appOf?.(use.server, use.tool);
  const app = appRef === undefined ? {} : { app: appRef };
  deps.pump.emit({ type: 'tool-call-started', ...base, server: use.server, tool: use.tool, input, ...app });
  const sent = edited ? { sentInput: input, ...app } : app;
  const call = cancelledByPerson(signal);
  let taskStatus: string | undefined;
  let background: ChatToolResultBlock['backgroundTask'];
  try {
    const answer = await deps.runner.callTool(use.server, use.tool, input, {
      signal: call.signal,
      // Progress that arrives after Stop is dropped quietly: the card must not come back to life.
      onProgress: (progress) => {
        if (!signal.aborted) deps.pump.progress({ type: 'tool-progress', ...base, ...progress });
      },
      origin: { conversationId, toolUseId: use.id },
      // A task's status is told even after Stop: the card shows that it was cancelled.
      onTask: (task) => {
        taskStatus = task.status;
        deps.pump.emit({ type: 'tool-task', ...base, ...task });
      },
      onWaiting: (pendingId) => deps.pump.emit({ type: 'tool-call-waiting', ...base, pendingId }),
      // A task that does not finish soon goes on without the turn: the answer is then the task's immediate one.
      onBackground: (taskId) => (background = { taskId }),
    });
    const result: ChatToolResultBlock = {
      type: 'tool_result',
      toolUseId: use.id,
      ...outcomeFromCallToolResult(answer),
      ...sent,
      ...(background === undefined ? {} : { backgroundTask: background }),
    };
    const capped = deps.capRecord?.(use.server, result);
    return finish(capped === undefined ? result : { ...result, capped });
  } catch (error) {
    if (signal.aborted) return finish({ ...stoppedResult(use.id), ...sent });
    // Saved with the result, so the card still says "Cancelled" once the task has left the Tasks view.
    const cancelled = taskStatus === 'cancelled' ? { taskCancelled: true as const } : {};
    return finish({ ...failedResult(use.id, error), ...cancelled, ...sent });
  } finally {
    call.release();
  }
}
