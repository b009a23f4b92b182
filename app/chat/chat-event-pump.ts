import type { ChatEvent } from '../../shared/domain/chat';

type ProgressEvent = Extract<ChatEvent, { type: 'tool-progress' }>;

interface Pending {
  turnId: string;
  /** Reasoning comes before the answer it leads to, so it is delivered first. */
  thinking: string;
  text: string;
  /** Latest progress per tool call; older values are superseded. */
  progress: Map<string, ProgressEvent>;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Coalesces the high-rate events of a turn (tokens, progress) so the UI gets
 * at most one batch per interval per conversation, and keeps order: any other
 * event first flushes what is buffered for its conversation.
 */
export class ChatEventPump {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly deliver: (event: ChatEvent) => void,
    private readonly intervalMs: number,
  ) {}

  text(conversationId: string, turnId: string, delta: string): void {
    if (delta === '') return;
    const entry = this.entry(conversationId, turnId);
    entry.text += delta;
    this.schedule(conversationId, entry);
  }

  thinking(conversationId: string, turnId: string, delta: string): void {
    if (delta === '') return;
    const entry = this.entry(conversationId, turnId);
    entry.thinking += delta;
    this.schedule(conversationId, entry);
  }

  progress(event: ProgressEvent): void {
    const entry = this.entry(event.conversationId, event.turnId);
    entry.progress.set(event.toolUseId, event);
    this.schedule(event.conversationId, entry);
  }

  /** Deliver now, after whatever was buffered for the same conversation. */
  emit(event: ChatEvent): void {
    this.flush(event.conversationId);
    this.deliver(event);
  }

  flush(conversationId: string): void {
    const entry = this.pending.get(conversationId);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.pending.delete(conversationId);
    if (entry.thinking !== '')
      this.deliver({ type: 'thinking-delta', conversationId, turnId: entry.turnId, text: entry.thinking });
    if (entry.text !== '') this.deliver({ type: 'text-delta', conversationId, turnId: entry.turnId, text: entry.text });
    for (const event of entry.progress.values()) this.deliver(event);
  }

  private entry(conversationId: string, turnId: string): Pending {
    let entry = this.pending.get(conversationId);
    if (entry !== undefined && entry.turnId !== turnId) {
      this.flush(conversationId);
      entry = undefined;
    }
    if (entry === undefined) {
      entry = { turnId, thinking: '', text: '', progress: new Map(), timer: undefined };
      this.pending.set(conversationId, entry);
    }
    return entry;
  }

  private schedule(conversationId: string, entry: Pending): void {
    entry.timer ??= setTimeout(() => this.flush(conversationId), this.intervalMs);
  }
}
