/** The chat tool call a server request belongs to. */
export interface ToolCallContext {
  conversationId: string;
  toolUseId: string;
}

/** What a sampling or elicitation request can say about where it came from. */
export interface RequestOrigin {
  conversationId?: string;
  toolUseId?: string;
}

/**
 * Which chat tool calls are running on which server, so that a
 * `sampling/createMessage` or `elicitation/create` a server sends while one
 * runs can show the conversation (and tool call) that caused it.
 *
 * Neither era ties such a request to the call on the wire in a way the SDK
 * exposes (stdio legacy requests carry no related id; 2026-07-28
 * `input_required` rounds reach the handlers with a synthesized context), so
 * this is best-effort by server: one running call → that call; several in one
 * conversation → the conversation only; otherwise nothing is claimed.
 *
 * The consent gate tags the argument object it approves; the chat engine hands
 * that same object to the runner, which looks the tag up.
 */
export class RunningToolCalls {
  private readonly tags = new WeakMap<object, ToolCallContext>();
  private readonly running = new Map<string, Set<ToolCallContext>>();

  /** Remember which call these (approved) arguments belong to. */
  tag(args: object, context: ToolCallContext): void {
    this.tags.set(args, context);
  }

  /** Run `call` registered as running on `server` (when its arguments were tagged). */
  async run<T>(server: string, args: object, call: () => Promise<T>): Promise<T> {
    const context = this.tags.get(args);
    if (context === undefined) return call();
    let set = this.running.get(server);
    if (set === undefined) {
      set = new Set();
      this.running.set(server, set);
    }
    set.add(context);
    try {
      return await call();
    } finally {
      set.delete(context);
      if (set.size === 0 && this.running.get(server) === set) this.running.delete(server);
    }
  }

  /** Where a request from `server` most likely comes from, claiming no more than is certain. */
  originOf(server: string): RequestOrigin {
    const calls = [...(this.running.get(server) ?? [])];
    const [first] = calls;
    if (first === undefined) return {};
    if (calls.length === 1) return { conversationId: first.conversationId, toolUseId: first.toolUseId };
    return calls.every((call) => call.conversationId === first.conversationId) ? { conversationId: first.conversationId } : {};
  }
}
