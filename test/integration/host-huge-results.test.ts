import { createHash } from 'node:crypto';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBrowserServer } from '../../app/bridge/ws-server';
import type { BrowserServer } from '../../app/bridge/ws-server';
import { WS_PATH, WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../../shared/contract';
import type { ResultPage } from '../../shared/contract/chat';
import type { ChatEvent, ChatToolResultBlock, Conversation } from '../../shared/domain/chat';
import type { ServerState } from '../../shared/domain/server';
import { newConversation, pendingAfter, startChatWorld, TEST_API_KEY, toolResultTexts } from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

// A 20 MiB tool result, plainly and through an MCP task, with a window on the
// real browser-mode WebSocket: the window stays connected, every frame it gets
// stays bounded, the turn ends, the conversation's file stays small and is not
// rewritten with the result on later saves, and the whole result reads back in
// pages byte-exact — also after a restart; a result file that is gone reads as
// "no longer available" and the conversation still loads.

const hugeResult = {
  command: process.execPath,
  args: [join(import.meta.dirname, '..', '..', 'e2e', 'fixtures', 'servers', 'huge-result.mjs')],
};
const LINES = Math.floor((20 * 1024 * 1024) / 50);
const line = (n: number): string => `line ${String(n).padStart(7, '0')} ${'.'.repeat(36)}`;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
/** The fixture's text, built the same way. */
const EXPECTED = sha256(Array.from({ length: LINES }, (_, index) => line(index + 1)).join('\n'));
/** No frame to a window may come near the bridge's limits (a preview is 256 KiB). */
const FRAME_BOUND = 600 * 1024;

type Reply<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

interface Window {
  ws: WebSocket;
  frames: number[];
  events: Array<{ topic: string; payload: unknown }>;
  closed: number | undefined;
  call<T>(
    method: string,
    input: unknown,
  ): Promise<{ ok: true; value: T } | { ok: false; code: string; message: string }>;
}

async function openWindow(browser: BrowserServer): Promise<Window> {
  const ws = new WebSocket(
    `ws://127.0.0.1:${browser.port}${WS_PATH}`,
    [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${browser.token}`],
    { origin: `http://127.0.0.1:${browser.port}` },
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const waiting = new Map<number, (result: never) => void>();
  let next = 1;
  const window: Window = {
    ws,
    frames: [],
    events: [],
    closed: undefined,
    call: (method, input) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve as (result: never) => void);
        ws.send(JSON.stringify({ kind: 'call', id, method, input }));
      }),
  };
  ws.on('message', (data: Buffer) => {
    window.frames.push(data.length);
    const message = JSON.parse(data.toString('utf8')) as {
      kind: string;
      id?: number;
      result?: never;
      topic: string;
      payload: unknown;
    };
    if (message.kind === 'reply' && message.id !== undefined) waiting.get(message.id)?.(message.result as never);
    else if (message.kind === 'event') window.events.push({ topic: message.topic, payload: message.payload });
  });
  ws.on('close', (code) => {
    window.closed = code;
  });
  return window;
}

async function turnEnd(window: Window, conversationId: string): Promise<ChatEvent> {
  for (let waited = 0; waited < 90_000; waited += 50) {
    const end = window.events.find(
      (event) =>
        event.topic === 'chat.event' &&
        (event.payload as ChatEvent).conversationId === conversationId &&
        ['turn-finished', 'turn-failed'].includes((event.payload as ChatEvent).type),
    );
    if (end !== undefined) return end.payload as ChatEvent;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the turn did not end');
}

/** The whole text, read in 1 MiB pages over the window's socket. */
async function readWhole(window: Window, id: string, toolUseId: string): Promise<string> {
  const pages: string[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const reply: Reply<ResultPage> = await window.call<ResultPage>('chat.readResult', {
      id,
      toolUseId,
      offset,
      limit: 1024 * 1024,
    });
    if (!reply.ok) throw new Error(reply.message);
    pages.push(reply.value.text);
    offset = reply.value.nextOffset;
  }
  return pages.join('');
}

let world: ChatWorld | undefined;
let browser: BrowserServer | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
  await world?.close();
  world = undefined;
});

describe('host: a 20 MiB result does not knock windows off the bridge', () => {
  for (const tool of ['huge_log', 'huge_task_log']) {
    it(`${tool}: the window stays, frames stay bounded, the file stays small, pages read it back whole`, async () => {
      world = await startChatWorld();
      const { harness, fake } = world;
      await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
      await harness.call('servers.add', { name: 'huge', config: hugeResult });
      await harness.waitForEvent(
        'servers.changed',
        (state: ServerState) => state.name === 'huge' && state.status === 'ready',
      );
      const staticDir = join(world.dir, 'static');
      await mkdir(staticDir, { recursive: true });
      await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Berth</title>');
      browser = await startBrowserServer({ host: harness.host, staticDir });
      const window = await openWindow(browser);
      const { id } = await newConversation(harness);

      fake.script([{ toolUses: [{ name: `huge__${tool}`, input: {} }] }, { text: 'A long log.' }]);
      const mark = harness.events.length;
      const sent = await window.call('chat.send', { id, text: 'Show me the log' });
      expect(sent.ok).toBe(true);
      const consent = await pendingAfter(harness, mark, 'tool-call');
      await window.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });
      expect(await turnEnd(window, id)).toMatchObject({ type: 'turn-finished' });

      // The window is still there and never got a frame near the limits.
      expect(window.closed).toBeUndefined();
      expect(window.ws.readyState).toBe(WebSocket.OPEN);
      expect(Math.max(...window.frames)).toBeLessThan(FRAME_BOUND);
      const finished = window.events
        .map((event) => event.payload as ChatEvent)
        .find((event) => event.type === 'tool-call-finished');
      const preview = finished?.type === 'tool-call-finished' ? finished.result : undefined;
      expect(preview?.whole).toEqual({ chars: LINES * 50 - 1, blocks: 1 });

      // What the model got is the usual cut of the whole result: its first and last lines.
      const toModel = toolResultTexts(fake, 1);
      expect(toModel.startsWith(line(1))).toBe(true);
      expect(toModel.endsWith(line(LINES))).toBe(true);
      expect(toModel.length).toBeLessThanOrEqual(10_000 * 4);

      // The conversation's file is small; the result is stored once beside it.
      const conversationsDir = join(world.dir, 'conversations');
      const file = join(conversationsDir, `${id}.json`);
      expect((await stat(file)).size).toBeLessThan(FRAME_BOUND);
      const [resultName] = await readdir(join(conversationsDir, `${id}.results`));
      const resultFile = join(conversationsDir, `${id}.results`, resultName ?? '');
      const stored = await stat(resultFile);
      expect(stored.size).toBeGreaterThan(20 * 1024 * 1024);
      // Later saves (a rename, another message) write the small file, never the result again.
      await window.call('chat.rename', { id, title: 'Logs' });
      fake.script([{ text: 'Still here.' }]);
      const before = window.events.length;
      await window.call('chat.send', { id, text: 'Thanks' });
      window.events.splice(0, before);
      await turnEnd(window, id);
      expect((await stat(file)).size).toBeLessThan(FRAME_BOUND);
      const after = await stat(resultFile);
      expect([after.ino, after.mtimeMs]).toEqual([stored.ino, stored.mtimeMs]);

      // The whole result, paged over the socket, is the fixture's text byte for byte.
      const got = await window.call<Conversation>('chat.get', { id });
      const saved = got.ok ? (got.value.messages[2]?.content[0] as ChatToolResultBlock) : undefined;
      expect(saved?.whole?.chars).toBe(LINES * 50 - 1);
      expect(sha256(await readWhole(window, id, saved?.toolUseId ?? ''))).toBe(EXPECTED);
      expect(Math.max(...window.frames)).toBeLessThan(2 * 1024 * 1024);
      expect(window.closed).toBeUndefined();
    }, 180_000);
  }

  it('after a restart the result reads from its file; a file gone reads as no longer available and the conversation loads', async () => {
    world = await startChatWorld();
    let harness = world.harness;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await harness.call('servers.add', { name: 'huge', config: hugeResult });
    await harness.waitForEvent(
      'servers.changed',
      (state: ServerState) => state.name === 'huge' && state.status === 'ready',
    );
    const { id } = await newConversation(harness);
    world.fake.script([{ toolUses: [{ name: 'huge__huge_log', input: {} }] }, { text: 'ok' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'log' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });
    await harness.waitForEvent('chat.event', (event: ChatEvent) => event.type === 'turn-finished');
    const toolUseId = 'toolu_fake_1_1';

    await harness.host.shutdown();
    harness = await world.restart();
    const page = await harness.call<ResultPage>('chat.readResult', { id, toolUseId, offset: 50 * 99_999, limit: 49 });
    expect(page).toEqual({
      text: line(100_000),
      offset: 50 * 99_999,
      totalChars: LINES * 50 - 1,
      nextOffset: 50 * 99_999 + 49,
    });

    // The file goes while Berth is closed.
    await harness.host.shutdown();
    const resultsDir = join(world.dir, 'conversations', `${id}.results`);
    for (const name of await readdir(resultsDir)) await writeFile(join(resultsDir, name), '{"broken');
    harness = await world.restart();
    const loaded = await harness.call<Conversation>('chat.get', { id });
    const result = loaded.messages[2]?.content[0] as ChatToolResultBlock;
    expect(result.whole).toEqual({ chars: LINES * 50 - 1, blocks: 1, missing: true });
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^line 0000001 /) });
    const gone = await harness.host.dispatch('chat.readResult', { id, toolUseId, offset: 0, limit: 100 });
    expect(gone).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      message: expect.stringContaining('no longer available'),
    });

    // Deleting the conversation takes its results folder to the trash with it.
    await harness.call('chat.delete', { id });
    await expect(stat(resultsDir)).rejects.toThrow();
    expect((await stat(join(world.dir, 'conversations', 'trash', `${id}.results`))).isDirectory()).toBe(true);
  }, 180_000);
});
