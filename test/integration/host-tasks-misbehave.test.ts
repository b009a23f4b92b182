import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../shared/domain/log';
import type { TaskRecord } from '../../shared/domain/task';
import {
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

const FIXTURE = resolve(__dirname, '../../e2e/fixtures/servers/task-misbehave.mjs');

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('the host with a server whose tasks misbehave (task-misbehave fixture)', () => {
  it('a task whose server asks to be polled every 1 ms gets at most ~7 tasks/get in 3 s, and its result reaches the model', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await harness.call('servers.add', { name: 'misbehave', config: { command: process.execPath, args: [FIXTURE] } });
    await harness.waitForEvent('servers.changed', (state) => state.name === 'misbehave' && state.status === 'ready');
    const { id } = await newConversation(harness);
    fake.script([{ toolUses: [{ name: 'misbehave__fast-poll', input: { ms: 3_000 } }] }, { text: 'Done' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Go' });
    const consent = await pendingAfter(harness, mark, 'tool-call');
    await harness.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');

    expect(toolResultTexts(fake, 1)).toContain('fast-poll finished after 3000 ms');
    const [record] = await harness.call<TaskRecord[]>('tasks.list', {});
    expect(record).toMatchObject({ tool: 'fast-poll', status: 'completed', pollIntervalMs: 1 });
    const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', {
      server: 'misbehave',
      limit: 10_000,
    });
    const polls = entries
      .filter((entry) => entry.source === 'trace' && entry.direction === 'out' && entry.method === 'tasks/get')
      .map((entry) => entry.time);
    expect(polls.length).toBeGreaterThanOrEqual(3);
    expect(polls.length).toBeLessThanOrEqual(7);
    for (let index = 1; index < polls.length; index += 1)
      expect((polls[index] ?? 0) - (polls[index - 1] ?? 0)).toBeGreaterThanOrEqual(490);
  }, 60_000);
});
