/**
 * Test-only helpers for the chat engine's unit and integration tests (never
 * imported by host code): a consent gate that answers from a function, a
 * recorder of engine events with wait-for-condition, and the store each test starts from.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatEvent } from '../../shared/domain/chat';
import type { AvailableTool, ToolCallGateAnswer, ToolCallGateRequest, ToolCallGate } from './chat-engine';
import { ConversationStore } from './conversation-store';

/** A ToolCallGate that decides with a function and remembers every request. */
export class ScriptedGate implements ToolCallGate {
  readonly requests: ToolCallGateRequest[] = [];

  constructor(
    private readonly decide: (request: ToolCallGateRequest) => ToolCallGateAnswer | Promise<ToolCallGateAnswer> = (
      request,
    ) => ({ allow: true, input: request.input }),
  ) {}

  async approve(request: ToolCallGateRequest): Promise<ToolCallGateAnswer> {
    this.requests.push(request);
    return this.decide(request);
  }

  /** A gate that never answers: the prompt stays open until the turn is stopped. */
  static waitingForever(): ScriptedGate {
    return new ScriptedGate(() => new Promise<ToolCallGateAnswer>(() => undefined));
  }
}

type EventOf<T extends ChatEvent['type']> = Extract<ChatEvent, { type: T }>;

/** Every event the engine reported, in order. */
export class ChatEventLog {
  readonly events: ChatEvent[] = [];
  readonly onEvent = (event: ChatEvent): void => {
    this.events.push(event);
  };

  of<T extends ChatEvent['type']>(type: T): Array<EventOf<T>> {
    return this.events.filter((event): event is EventOf<T> => event.type === type);
  }

  types(): string[] {
    const types: string[] = [];
    for (const event of this.events)
      if (types.at(-1) !== event.type || event.type !== 'text-delta') types.push(event.type);
    return types;
  }

  text(): string {
    return this.of('text-delta')
      .map((event) => event.text)
      .join('');
  }

  async waitFor<T extends ChatEvent['type']>(
    type: T,
    predicate: (event: EventOf<T>) => boolean = () => true,
    timeoutMs = 20_000,
  ): Promise<EventOf<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.of(type).find(predicate);
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(`timed out after ${timeoutMs} ms waiting for a ${type} event; saw: ${this.types().join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** A conversation store in a fresh temporary folder and an event log: what each chat-engine test starts from. */
export interface ChatStoreWorld {
  dir: string;
  store: ConversationStore;
  log: ChatEventLog;
}

export async function openChatStore(prefix: string): Promise<ChatStoreWorld> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, store: await ConversationStore.open({ dir }), log: new ChatEventLog() };
}

export async function closeChatStore({ dir, store }: Pick<ChatStoreWorld, 'dir' | 'store'>): Promise<void> {
  // The store writes its index in the background; let it finish before the folder goes.
  await store.flushIndex();
  await rm(dir, { recursive: true, force: true });
}

/** A tool a server offers, taking no arguments. */
export function offeredTool(server: string, name: string, description = `${name} things`): AvailableTool {
  return { server, tool: { name, description, inputSchema: { type: 'object', properties: {} } } };
}
