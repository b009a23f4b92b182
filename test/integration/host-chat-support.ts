import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropic, type FakeAnthropicOptions } from '../../e2e/fake-llm/fake-anthropic';
import type { TopicName, TopicPayload } from '../../shared/contract';
import type { ChatEvent, Conversation } from '../../shared/domain/chat';
import type { PendingKind, PendingRequestOf } from '../../shared/domain/pending';
import type { ServerState } from '../../shared/domain/server';
import { startHost } from './host-harness';
import type { HostHarness } from './host-harness';
import type { HostOptions } from '../../app/host/host-types';

const require = createRequire(import.meta.url);
const everythingEntry = join(
  require.resolve('@modelcontextprotocol/server-everything/package.json'),
  '..',
  'dist',
  'index.js',
);
export const everythingConfig = { command: process.execPath, args: [everythingEntry, 'stdio'] };

/** The key the fake API accepts; tests check it never shows up in events or logs. */
export const TEST_API_KEY = 'sk-ant-test-KEYSECRET-7f3a';

/** The host's environment without whatever Anthropic settings the machine running the tests has. */
export function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('ANTHROPIC_')));
  return { ...env, ...extra };
}

/** A temp config dir, the fake Messages API, and a host pointed at it (ANTHROPIC_BASE_URL through HostOptions.env). */
export interface ChatWorld {
  dir: string;
  fake: FakeAnthropic;
  harness: HostHarness;
  /** Start another host on the same dir (the previous one must be shut down first). */
  restart(): Promise<HostHarness>;
  close(): Promise<void>;
}

export async function startChatWorld(
  options: {
    clientGraceMs?: number;
    backgroundTaskAfterMs?: number;
    chatRetries?: HostOptions['chatRetries'];
    fake?: Omit<FakeAnthropicOptions, 'apiKey'>;
  } = {},
): Promise<ChatWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-host-chat-'));
  const { fake: fakeOptions, ...hostOptions } = options;
  const fake = await FakeAnthropic.start({ ...fakeOptions, apiKey: TEST_API_KEY });
  const open = () => startHost(dir, { env: cleanEnv({ ANTHROPIC_BASE_URL: fake.url }), ...hostOptions });
  const world: ChatWorld = {
    dir,
    fake,
    harness: await open(),
    restart: async () => {
      world.harness = await open();
      return world.harness;
    },
    close: async () => {
      await world.harness.host.shutdown();
      await fake.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return world;
}

/** Add server-everything as "everything" and wait until it is ready (with its capability-dependent tools). */
export async function addEverything(harness: HostHarness): Promise<ServerState> {
  await harness.call('servers.add', { name: 'everything', config: everythingConfig });
  return harness.waitForEvent('servers.changed', (state) => state.name === 'everything' && state.status === 'ready');
}

/** The first event on `topic` emitted at or after index `from` that matches. */
export async function eventAfter<T extends TopicName>(
  harness: HostHarness,
  from: number,
  topic: T,
  match: (payload: TopicPayload<T>) => boolean = () => true,
  timeoutMs = 30_000,
): Promise<TopicPayload<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = harness.events
      .slice(from)
      .find((event) => event.topic === topic && match(event.payload as TopicPayload<T>));
    if (found !== undefined) return found.payload as TopicPayload<T>;
    if (Date.now() > deadline) {
      throw new Error(
        `no matching ${topic} event within ${timeoutMs} ms; saw ${JSON.stringify(harness.events.slice(from).map((e) => e.topic))}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The next pending request of `kind` opened at or after index `from`. */
export async function pendingAfter<K extends PendingKind>(
  harness: HostHarness,
  from: number,
  kind: K,
): Promise<PendingRequestOf<K>> {
  const change = await eventAfter(
    harness,
    from,
    'pending.changed',
    ({ change: c }) => c.type === 'opened' && c.request.kind === kind,
  );
  if (change.change.type !== 'opened') throw new Error('unreachable');
  return change.change.request as PendingRequestOf<K>;
}

type TurnEnd = Extract<ChatEvent, { type: 'turn-finished' | 'turn-failed' }>;

/** The end of the first turn of `conversationId` that ends at or after index `from`. */
export async function turnEndAfter(harness: HostHarness, from: number, conversationId: string): Promise<TurnEnd> {
  return (await eventAfter(
    harness,
    from,
    'chat.event',
    (event) =>
      event.conversationId === conversationId && (event.type === 'turn-finished' || event.type === 'turn-failed'),
    60_000,
  )) as TurnEnd;
}

/** Create a conversation, with the key already stored. */
export async function newConversation(harness: HostHarness): Promise<Conversation> {
  return harness.call<Conversation>('chat.create', {});
}

/** Text of every tool_result in the last user message of a recorded Messages API request. */
export function toolResultTexts(fake: FakeAnthropic, requestIndex: number): string {
  const body = fake.requests[requestIndex]?.body;
  const last = body?.messages.at(-1);
  if (last === undefined || typeof last.content === 'string') return '';
  const texts: string[] = [];
  for (const block of last.content as Array<Record<string, unknown>>) {
    if (block.type !== 'tool_result') continue;
    const content = block.content;
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content))
      for (const inner of content as Array<{ type: string; text?: string }>)
        if (inner.type === 'text') texts.push(inner.text ?? '');
  }
  return texts.join('\n');
}
