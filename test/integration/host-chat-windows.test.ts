import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBrowserServer } from '../../app/bridge/ws-server';
import type { BrowserServer } from '../../app/bridge/ws-server';
import { WS_PATH, WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../../shared/contract';
import {
  addEverything,
  eventAfter,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

let world: ChatWorld | undefined;
let server: BrowserServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await world?.close();
  world = undefined;
});

const ECHO = { toolUses: [{ name: 'everything__echo', input: { message: 'hi' } }] };

async function openSocket(browser: BrowserServer): Promise<WebSocket> {
  const ws = new WebSocket(
    `ws://127.0.0.1:${browser.port}${WS_PATH}`,
    [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${browser.token}`],
    { origin: `http://127.0.0.1:${browser.port}` },
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return ws;
}

describe('host: nothing waits for a window that is gone', () => {
  it('withdraws requests after the grace period once the last WebSocket client leaves, and not while one is back', async () => {
    world = await startChatWorld({ clientGraceMs: 300 });
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addEverything(harness);
    const staticDir = join(world.dir, 'static');
    await mkdir(staticDir, { recursive: true });
    await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Berth</title>');
    server = await startBrowserServer({ host: harness.host, staticDir });
    const { id } = await newConversation(harness);

    // A reload: the socket goes and a new one comes before the grace period ends.
    const first = await openSocket(server);
    fake.script([ECHO, { text: 'one' }, ECHO, { text: 'two' }, ECHO, { text: 'three' }]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'echo' });
    const kept = await pendingAfter(harness, mark, 'tool-call');
    const second = await openSocket(server);
    first.close();
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect((await harness.call<Array<{ id: string }>>('pending.list', {})).map((request) => request.id)).toEqual([
      kept.id,
    ]);

    // The last window goes: after the grace period the prompt ends as a denial the model is told about.
    second.close();
    const withdrawn = await eventAfter(
      harness,
      mark,
      'pending.changed',
      ({ change }) => change.type === 'withdrawn' && change.id === kept.id,
    );
    expect(withdrawn.change).toMatchObject({ note: 'the Berth window was closed' });
    await turnEndAfter(harness, mark, id);
    // Nobody said no: the model is told the person could not answer, and the saved result says Berth withdrew it.
    expect(toolResultTexts(fake, 1)).toBe(
      'This tool call did not run: the user was not able to answer whether it may run: the Berth window was closed.',
    );
    const saved = await harness.call<{ messages: Array<{ content: Array<Record<string, unknown>> }> }>('chat.get', {
      id,
    });
    const results = saved.messages
      .flatMap((message) => message.content)
      .filter((block) => block.type === 'tool_result');
    // The saved conversation keeps the code too: after a reload the card words the reason in the person's language.
    expect(results[0]).toMatchObject({
      denied: {
        reason: 'the Berth window was closed',
        reasonMessage: { code: 'withdrawal.window-closed' },
        byHost: true,
      },
    });

    // Still no window: a new request is refused at once rather than left waiting.
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'again' });
    const refused = await pendingAfter(harness, mark, 'tool-call');
    await eventAfter(
      harness,
      mark,
      'pending.changed',
      ({ change }) =>
        change.type === 'withdrawn' &&
        change.id === refused.id &&
        change.note === 'no Berth window is open to answer it',
    );
    await turnEndAfter(harness, mark, id);

    // A window is back: requests wait for the person again.
    const third = await openSocket(server);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'once more' });
    const asked = await pendingAfter(harness, mark, 'tool-call');
    await harness.call('pending.answer', { id: asked.id, response: { decision: 'allow-once' } });
    await turnEndAfter(harness, mark, id);
    expect(toolResultTexts(fake, 5)).toContain('Echo: hi');
    third.close();
  });

  it('shutdown withdraws waiting requests and ends the running turn', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addEverything(harness);
    const { id } = await newConversation(harness);
    fake.script([ECHO]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'echo' });
    const prompt = await pendingAfter(harness, mark, 'tool-call');
    await harness.host.shutdown();
    const withdrawn = await eventAfter(
      harness,
      mark,
      'pending.changed',
      ({ change }) => change.type === 'withdrawn' && change.id === prompt.id,
    );
    expect(withdrawn.change).toMatchObject({ note: 'Berth quit' });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ conversationId: id });
    expect(await harness.host.dispatch('pending.list', {})).toMatchObject({ ok: false, code: 'NOT_READY' });
  });
});
