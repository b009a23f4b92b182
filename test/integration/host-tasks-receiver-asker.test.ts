import { afterEach, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../shared/domain/log';
import type { TaskRecord } from '../../shared/domain/task';
import { fixture } from '../../app/servers/test-support';
import {
  eventAfter,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';
import type { HostHarness } from './host-harness';
import { waitFor } from './host-harness';

// Berth as a task receiver for our own server (e2e/fixtures/servers/task-asker.mjs),
// which asks as a task and collects the answer after its tool call has ended:
// what the person answers reaches the server however long they take, until
// the task's time to live runs out.

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The asker with a 1 s request timeout, and a chat turn that calls ask-later; resolves with the form. */
async function askLater(ttlMs: number) {
  world = await startChatWorld();
  const { harness, fake } = world;
  await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
  await harness.call('servers.add', {
    name: 'asker',
    config: { command: process.execPath, args: [fixture('task-asker.mjs')], timeouts: { requestMs: 1_000 } },
  });
  await harness.waitForEvent('servers.changed', (state) => state.name === 'asker' && state.status === 'ready');
  const { id } = await newConversation(harness);
  fake.script([{ toolUses: [{ name: 'asker__ask-later', input: { ttlMs } }] }, { text: 'asked' }]);
  const mark = harness.events.length;
  await harness.call('chat.send', { id, text: 'Ask me later' });
  await harness.call('pending.answer', {
    id: (await pendingAfter(harness, mark, 'tool-call')).id,
    response: { decision: 'allow-once' },
  });
  const form = await pendingAfter(harness, mark, 'elicitation');
  // The tool call itself is over at once: only the task keeps the question.
  expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
  return { harness, form, mark };
}

async function serverSays(harness: HostHarness, line: string): Promise<void> {
  await waitFor(async () => {
    const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', {
      server: 'asker',
      sources: ['stderr'],
    });
    return entries.some((entry) => entry.text.includes(line));
  });
}

async function receiverTask(harness: HostHarness): Promise<TaskRecord | undefined> {
  return (await harness.call<TaskRecord[]>('tasks.list', {})).find((task) => task.side === 'receiver');
}

describe('Berth as a task receiver for a server that collects answers later', () => {
  it('a task waiting longer than the request timeout still completes with the answer the person gives', async () => {
    const { harness, form } = await askLater(600_000);
    // Three request timeouts go by while the person thinks; the server polls all along.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await harness.call<Array<{ id: string }>>('pending.list', {})).map((request) => request.id)).toEqual([
      form.id,
    ]);
    expect(await receiverTask(harness)).toMatchObject({
      server: 'asker',
      kind: 'elicitation',
      status: 'input_required',
      waitingFor: form.id,
      ttlMs: 600_000,
    });
    await harness.call('pending.answer', { id: form.id, response: { action: 'accept', content: { name: 'Ada' } } });

    await serverSays(harness, 'result: {"action":"accept","content":{"name":"Ada"}}');
    expect(await receiverTask(harness)).toMatchObject({ status: 'completed' });
  });

  it("at the task's time to live the question is withdrawn with a note and the server finds the task gone", async () => {
    const { harness, form, mark } = await askLater(2_000);
    const withdrawn = await eventAfter(
      harness,
      mark,
      'pending.changed',
      ({ change }) => change.type === 'withdrawn' && change.id === form.id,
      10_000,
    );
    expect(withdrawn.change).toMatchObject({ note: "the task's time to live (2 s) ran out before it was answered" });
    expect(await receiverTask(harness)).toMatchObject({ status: 'failed', error: expect.stringContaining('ran out') });
    await serverSays(harness, 'error: Unknown or expired task');
    const late = await harness.host.dispatch('pending.answer', {
      id: form.id,
      response: { action: 'accept', content: { name: 'Too late' } },
    });
    expect(late).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});
