import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../shared/domain/chat';
import type { LogEntry } from '../../shared/domain/log';
import type { TaskRecord } from '../../shared/domain/task';
import {
  addEverything,
  eventAfter,
  everythingConfig,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';
import { waitFor } from './host-harness';
import type { HostHarness } from './host-harness';

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function setup(): Promise<ChatWorld> {
  world = await startChatWorld();
  await world.harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
  return world;
}

type ToolTaskEvent = Extract<ChatEvent, { type: 'tool-task' }>;

function taskEvents(harness: HostHarness, from: number): ToolTaskEvent[] {
  return harness.events
    .slice(from)
    .flatMap((event) =>
      event.topic === 'chat.event' && (event.payload as ChatEvent).type === 'tool-task'
        ? [event.payload as ToolTaskEvent]
        : [],
    );
}

/** Sends `text`, the model calls `tool` with `input`, and the person allows it once; returns the consent's tool use id. */
async function callThroughChat(
  harness: HostHarness,
  fake: ChatWorld['fake'],
  conversationId: string,
  input: Record<string, unknown>,
): Promise<string> {
  fake.script([{ toolUses: [{ name: 'everything__simulate-research-query', input }] }, { text: 'Done' }]);
  const mark = harness.events.length;
  await harness.call('chat.send', { id: conversationId, text: 'Research this' });
  const consent = await pendingAfter(harness, mark, 'tool-call');
  await harness.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });
  return consent.toolUseId ?? '';
}

describe('MCP tasks (2025-11-25) with server-everything', () => {
  it('runs simulate-research-query (task required) as a task: the card and the registry follow it, the model gets the report', async () => {
    const { harness, fake } = await setup();
    await addEverything(harness);
    const { id } = await newConversation(harness);
    const mark = harness.events.length;
    const toolUseId = await callThroughChat(harness, fake, id, { topic: 'tides' });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');

    expect(toolResultTexts(fake, 1)).toContain('# Research Report: tides');
    const events = taskEvents(harness, mark);
    expect(events.every((event) => event.toolUseId === toolUseId)).toBe(true);
    expect(events.map((event) => event.statusMessage)).toContain('Gathering sources...');
    expect(events.at(-1)?.status).toBe('completed');
    const [record] = await harness.call<TaskRecord[]>('tasks.list', {});
    expect(record).toMatchObject({
      id: events[0]?.taskId,
      server: 'everything',
      side: 'requester',
      kind: 'tool',
      tool: 'simulate-research-query',
      conversationId: id,
      toolUseId,
      status: 'completed',
      ttlMs: 300_000,
      pollIntervalMs: 1_000,
    });

    // Polled at the server's interval (1 s), never faster (its status notifications may spare some polls).
    const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', {
      server: 'everything',
      limit: 10_000,
    });
    const polls = entries
      .filter((entry) => entry.source === 'trace' && entry.direction === 'out' && entry.method === 'tasks/get')
      .map((entry) => entry.time);
    for (let index = 1; index < polls.length; index += 1)
      expect((polls[index] ?? 0) - (polls[index - 1] ?? 0)).toBeGreaterThanOrEqual(990);
  }, 60_000);

  it('input_required: the queued question is released, Berth shows its own form for that call, and the answer reaches the task', async () => {
    const { harness, fake } = await setup();
    await addEverything(harness);
    const { id } = await newConversation(harness);
    const mark = harness.events.length;
    const toolUseId = await callThroughChat(harness, fake, id, { topic: 'python', ambiguous: true });
    await eventAfter(
      harness,
      mark,
      'chat.event',
      (event) => event.type === 'tool-task' && event.status === 'input_required',
    );

    const form = await pendingAfter(harness, mark, 'elicitation');
    expect(form).toMatchObject({ server: 'everything', conversationId: id, toolUseId });
    // The task's record points at its question (the Tasks view's "Answer").
    await waitFor(async () => (await harness.call<TaskRecord[]>('tasks.list', {}))[0]?.waitingFor === form.id);
    await harness.call('pending.answer', {
      id: form.id,
      response: { action: 'accept', content: { interpretation: 'snake' } },
    });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');

    const report = toolResultTexts(fake, 1);
    expect(report).toContain('# Research Report: python (snake)');
    expect(report).not.toContain('elicitation unavailable');
    expect((await harness.call<TaskRecord[]>('tasks.list', {}))[0]?.waitingFor).toBeUndefined();
    const statuses = taskEvents(harness, mark).map((event) => event.status);
    expect(statuses).toContain('input_required');
    expect(statuses.at(-1)).toBe('completed');
  }, 60_000);

  it('Stop cancels the task on the server (tasks/cancel): the card and the registry say it was stopped', async () => {
    const { harness, fake } = await setup();
    await addEverything(harness);
    const { id } = await newConversation(harness);
    const mark = harness.events.length;
    await callThroughChat(harness, fake, id, { topic: 'slow things' });
    const working = await eventAfter(
      harness,
      mark,
      'chat.event',
      (event) => event.type === 'tool-task' && event.status === 'working',
    );
    await harness.call('chat.stop', { id });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');

    await eventAfter(
      harness,
      mark,
      'chat.event',
      (event) => event.type === 'tool-task' && event.status === 'cancelled',
    );
    const [record] = await harness.call<TaskRecord[]>('tasks.list', {});
    expect(record).toMatchObject({
      id: working.type === 'tool-task' ? working.taskId : '',
      status: 'cancelled',
      statusMessage: 'stopped by you',
    });
    const cancelTrace = async (): Promise<LogEntry[]> =>
      (
        await harness.call<{ entries: LogEntry[] }>('logs.query', { server: 'everything', limit: 10_000 })
      ).entries.filter((entry) => entry.source === 'trace' && entry.method === 'tasks/cancel');
    // The card may say cancelled before the answer to tasks/cancel is in (a poll or a status notification can tell it
    // first): wait for the answer's trace, then look at exactly what went out and came back.
    await waitFor(async () => (await cancelTrace()).some((entry) => entry.direction === 'in'));
    const cancels = await cancelTrace();
    // One tasks/cancel for this task, and the server's answer: the task is cancelled on its side too.
    expect(cancels.map((entry) => entry.direction)).toEqual(['out', 'in']);
    expect(cancels[0]?.body ?? '').toContain(record?.taskId ?? '?');
    expect(cancels[1]?.body ?? '').toContain('"status":"cancelled"');
  }, 60_000);

  it('Cancel in the Tasks view cancels the task; the model is told it was cancelled', async () => {
    const { harness, fake } = await setup();
    await addEverything(harness);
    const { id } = await newConversation(harness);
    const mark = harness.events.length;
    await callThroughChat(harness, fake, id, { topic: 'slow things' });
    const working = await eventAfter(
      harness,
      mark,
      'chat.event',
      (event) => event.type === 'tool-task' && event.status === 'working',
    );
    if (working.type !== 'tool-task') throw new Error('unreachable');
    expect(await harness.call('tasks.cancel', { id: working.taskId })).toEqual({ status: 'cancelled' });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(toolResultTexts(fake, 1)).toContain('was cancelled (cancelled by you)');
    // A task Berth does not know is refused with a code the Tasks view words in the person's language.
    expect(await harness.host.dispatch('tasks.cancel', { id: 'no-such-task' })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      hostMessage: { code: 'workspace-errors.task-not-found', params: { id: 'no-such-task' } },
    });
  }, 60_000);

  it('polls four times less often while the window is hidden', async () => {
    const { harness, fake } = await setup();
    await addEverything(harness);
    await harness.call('tasks.setWindowVisible', { visible: false });
    const { id } = await newConversation(harness);
    const mark = harness.events.length;
    await callThroughChat(harness, fake, id, { topic: 'night' });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(toolResultTexts(fake, 1)).toContain('# Research Report: night');
    const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', {
      server: 'everything',
      limit: 10_000,
    });
    const polls = entries
      .filter((entry) => entry.source === 'trace' && entry.direction === 'out' && entry.method === 'tasks/get')
      .map((entry) => entry.time);
    for (let index = 1; index < polls.length; index += 1)
      expect((polls[index] ?? 0) - (polls[index - 1] ?? 0)).toBeGreaterThanOrEqual(3_990);
    // Seen, it is polled every second (first test); hidden, not within 4 s of its creation (the server's status notifications may end it before any poll).
    const [record] = await harness.call<TaskRecord[]>('tasks.list', {});
    expect(record?.status).toBe('completed');
    expect(polls.filter((time) => time - (record?.createdAt ?? 0) < 3_900)).toEqual([]);
  }, 60_000);

  it('a task outlives the request timeout: each request is short, the task takes as long as it takes', async () => {
    const { harness, fake } = await setup();
    // simulate-research-query takes about 4 s; a plain call would time out after 2.
    await harness.call('servers.add', {
      name: 'everything',
      config: { ...everythingConfig, timeouts: { requestMs: 2_000 } },
    });
    await harness.waitForEvent('servers.changed', (state) => state.name === 'everything' && state.status === 'ready');
    const { id } = await newConversation(harness);
    const mark = harness.events.length;
    await callThroughChat(harness, fake, id, { topic: 'patience' });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(toolResultTexts(fake, 1)).toContain('# Research Report: patience');
    const [record] = await harness.call<TaskRecord[]>('tasks.list', {});
    expect(record?.status).toBe('completed');
    expect((record?.updatedAt ?? 0) - (record?.createdAt ?? 0)).toBeGreaterThan(2_000);
  }, 60_000);
});

export { everythingConfig };
