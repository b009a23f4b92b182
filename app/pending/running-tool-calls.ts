import type { PendingRequests } from './pending-requests';
import type { PersonWaits } from '../servers/pausable-timeout';
import type { PendingRequest } from '../../shared/domain/pending';
import { withdrawal } from '../../shared/domain/withdrawal';
import type { Worded } from '../../shared/domain/host-wording';

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

/** What RunningToolCalls needs of the pending queue. */
export type PendingQueue = Pick<PendingRequests, 'onChange' | 'get' | 'withdraw'>;

/** Options for {@linkcode RunningToolCalls.run}. */
export interface RunOptions {
  /** The call's own question that waits for the person now (its pending id), or none any more (null). */
  onWaiting?: (pendingId: string | null) => void;
  /** The call's cancel: a call ended by it withdraws its questions as stopped. */
  signal?: AbortSignal;
}

/** One registered call and the questions (pending ids) its clock stands still for. */
class RunningCall implements PersonWaits {
  /**
   * Every question that may be this call's: its own, and those its server
   * asked without saying which call they are for. Made on the first question
   * (like `own` and `listeners`): most calls never ask, and every tool call
   * makes a RunningCall.
   */
  private asked: Set<string> | undefined;
  /** The questions certainly its own (the request names the call), oldest first: the card opens the first. */
  private own: string[] | undefined;
  private listeners: Set<(waiting: boolean) => void> | undefined;

  constructor(
    readonly server: string,
    readonly context: ToolCallContext,
    private readonly onWaiting: ((pendingId: string | null) => void) | undefined,
  ) {}

  get waiting(): boolean {
    return this.asked !== undefined && this.asked.size > 0;
  }

  /** The questions it waits for now (a copy). */
  questions(): string[] {
    return this.asked === undefined ? [] : [...this.asked];
  }

  onChange(listener: (waiting: boolean) => void): () => void {
    const listeners = (this.listeners ??= new Set());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  add(request: Pick<PendingRequest, 'id' | 'toolUseId'>): void {
    const before = this.waiting;
    (this.asked ??= new Set()).add(request.id);
    if (request.toolUseId === this.context.toolUseId) {
      const own = (this.own ??= []);
      own.push(request.id);
      if (own.length === 1) this.onWaiting?.(request.id);
    }
    if (!before) this.emit(true);
  }

  remove(id: string): void {
    if (this.asked === undefined || !this.asked.delete(id)) return;
    const index = this.own === undefined ? -1 : this.own.indexOf(id);
    if (this.own !== undefined && index !== -1) {
      this.own.splice(index, 1);
      if (index === 0) this.onWaiting?.(this.own[0] ?? null);
    }
    if (!this.waiting) this.emit(false);
  }

  private emit(waiting: boolean): void {
    if (this.listeners === undefined) return;
    for (const listener of [...this.listeners]) listener(waiting);
  }
}

/**
 * Which chat tool calls are running on which server, so that a
 * `sampling/createMessage` or `elicitation/create` a server sends while one
 * runs can show the conversation (and tool call) that caused it, the call's
 * clock stands still while the person is asked, and the question goes when
 * the call ends.
 *
 * Neither era ties such a request to the call on the wire in a way the SDK
 * exposes (stdio legacy requests carry no related id; 2026-07-28
 * `input_required` rounds reach the handlers with a synthesized context), so
 * this is best-effort by server: one running call → that call; several in one
 * conversation → the conversation only; otherwise nothing is claimed.
 * A question that names no call pauses every call it may belong to (all of
 * its server's calls in its conversation, or all of its server's calls): a
 * call waiting a little longer is better than an answer thrown away.
 *
 * The consent gate tags the argument object it approves; the chat engine hands
 * that same object to the runner, which looks the tag up.
 */
export class RunningToolCalls {
  private readonly tags = new WeakMap<object, ToolCallContext>();
  private readonly running = new Map<string, Set<RunningCall>>();
  /** Which running calls each open question pauses. */
  private readonly pausedBy = new Map<string, RunningCall[]>();
  private holds = 0;

  constructor(private readonly pending?: PendingQueue) {
    pending?.onChange(({ change }) => {
      if (change.type === 'opened') this.questionOpened(change.request);
      else this.questionClosed(change.id);
    });
  }

  /** Remember which call these (approved) arguments belong to. */
  tag(args: object, context: ToolCallContext): void {
    this.tags.set(args, context);
  }

  /**
   * Run `call` registered as running on `server` (when its arguments were
   * tagged), with the PersonWaits its clock follows. When it ends, its
   * questions still waiting are withdrawn, saying why.
   */
  async run<T>(
    server: string,
    args: object,
    call: (waits: PersonWaits | undefined) => Promise<T>,
    options: RunOptions = {},
  ): Promise<T> {
    const context = this.tags.get(args);
    if (context === undefined) return call(undefined);
    let set = this.running.get(server);
    if (set === undefined) {
      set = new Set();
      this.running.set(server, set);
    }
    const running = new RunningCall(server, context, options.onWaiting);
    set.add(running);
    let failure: unknown;
    let failed = false;
    try {
      return await call(running);
    } catch (error) {
      failed = true;
      failure = error;
      throw error;
    } finally {
      set.delete(running);
      if (set.size === 0 && this.running.get(server) === set) this.running.delete(server);
      // Most calls asked nothing: nothing to withdraw, no note to word.
      if (running.waiting) {
        const ending =
          options.signal?.aborted === true
            ? withdrawal('withdrawal.call-stopped', {})
            : failed
              ? withdrawal('withdrawal.call-failed', { detail: errorText(failure) })
              : withdrawal('withdrawal.call-finished', {});
        this.callEnded(running, ending);
      }
    }
  }

  /** Where a request from `server` most likely comes from, claiming no more than is certain. */
  originOf(server: string): RequestOrigin {
    const calls = [...(this.running.get(server) ?? [])].map((call) => call.context);
    const [first] = calls;
    if (first === undefined) return {};
    if (calls.length === 1) return { conversationId: first.conversationId, toolUseId: first.toolUseId };
    return calls.every((call) => call.conversationId === first.conversationId)
      ? { conversationId: first.conversationId }
      : {};
  }

  /**
   * Berth is answering a request the server sent (a sampling request: the
   * review, then the model's reply): the calls it may belong to stand still
   * until `work` is done, as their server is waiting for Berth, not working.
   */
  async holdWhile<T>(server: string, origin: RequestOrigin, work: () => Promise<T>): Promise<T> {
    const calls = this.candidates({ server, ...origin });
    const hold = `hold-${++this.holds}`;
    for (const call of calls) call.add({ id: hold });
    try {
      return await work();
    } finally {
      for (const call of calls) call.remove(hold);
    }
  }

  /** The calls a question may belong to. */
  private candidates(request: Pick<PendingRequest, 'server' | 'conversationId' | 'toolUseId'>): RunningCall[] {
    const calls = [...(this.running.get(request.server) ?? [])];
    if (request.toolUseId !== undefined) return calls.filter((call) => call.context.toolUseId === request.toolUseId);
    if (request.conversationId !== undefined)
      return calls.filter((call) => call.context.conversationId === request.conversationId);
    return calls;
  }

  private questionOpened(request: PendingRequest): void {
    // Consent to the call itself comes before the call runs; its card has its own state.
    if (request.kind === 'tool-call') return;
    // Berth's own question before a skill loads: asked from a host tool or the composer, never inside a server's call.
    if (request.kind === 'skill') return;
    // A task's question lives as long as its task (the server collects the answer later), not as the call that caused it.
    if (request.taskId !== undefined) return;
    const calls = this.candidates(request);
    if (calls.length === 0) {
      // Asked for a call (or conversation) whose calls have all ended meanwhile: nothing would use the answer.
      // A microtask later, so the opening is announced before the withdrawal.
      if (request.toolUseId !== undefined || request.conversationId !== undefined) {
        queueMicrotask(() => this.pending?.withdraw(request.id, withdrawal('withdrawal.call-ended', {})));
      }
      return;
    }
    this.pausedBy.set(request.id, calls);
    for (const call of calls) call.add(request);
  }

  private questionClosed(id: string): void {
    const calls = this.pausedBy.get(id);
    if (calls === undefined) return;
    this.pausedBy.delete(id);
    for (const call of calls) call.remove(id);
  }

  /**
   * The call is over: its own questions are withdrawn, and so are those of its
   * conversation that no other running call of the server can still use. A
   * question that named no conversation stays (the server may ask for
   * itself); it goes with the server.
   */
  private callEnded(call: RunningCall, note: Worded): void {
    const { conversationId } = call.context;
    const siblings = [...(this.running.get(call.server) ?? [])].some(
      (other) => other.context.conversationId === conversationId,
    );
    for (const id of call.questions()) {
      const request = this.pending?.get(id);
      const calls = this.pausedBy.get(id)?.filter((other) => other !== call);
      if (calls !== undefined) this.pausedBy.set(id, calls);
      call.remove(id);
      if (request === undefined) continue;
      const mine =
        request.toolUseId === call.context.toolUseId ||
        (request.toolUseId === undefined && request.conversationId === conversationId && !siblings);
      if (mine) this.pending?.withdraw(id, note);
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
