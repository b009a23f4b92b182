import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HIDDEN_BACKOFF_FACTOR, MIN_POLL_INTERVAL_MS } from '../../app/tasks/task-poll-pacer';
import type { ChatEvent, Conversation } from '../../shared/domain/chat';
import type { LogEntry } from '../../shared/domain/log';
import type { TaskRecord } from '../../shared/domain/task';
import { fixture } from '../../app/servers/test-support';
import {
  eventAfter,
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

// The 2026-07-28 tasks extension through Berth's one "call a tool" path: the
// modern-tasks fixture (e2e/fixtures/servers/modern-tasks.mjs) as a real
// process, a chat turn that calls its tools, and the host's own registry,
// chat events, dialogs, Stop and restart.

const POLL_MS = 250;
const SERVER = 'modern';

let world: ChatWorld | undefined;
let remote: ChildProcess | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
  if (remote !== undefined && remote.exitCode === null) {
    const exited = new Promise((done) => remote?.once('exit', done));
    remote.kill('SIGKILL');
    await exited;
  }
  remote = undefined;
});

async function setup(
  config: Record<string, unknown> = {
    command: process.execPath,
    args: [fixture('modern-tasks.mjs')],
    env: { BERTH_FIXTURE_POLL_MS: String(POLL_MS) },
  },
): Promise<ChatWorld> {
  world = await startChatWorld();
  await world.harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
  await world.harness.call('servers.add', { name: SERVER, config });
  const ready = await world.harness.waitForEvent(
    'servers.changed',
    (state) => state.name === SERVER && state.status === 'ready',
  );
  expect(ready).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
  return world;
}

type ToolTaskEvent = Extract<ChatEvent, { type: 'tool-task' }>;

/** The code Berth gave the saved result of the conversation's only tool call (the card words it; the model reads the English). */
async function outcomeCode(harness: HostHarness, id: string): Promise<unknown> {
  const conversation = await harness.call<Conversation>('chat.get', { id });
  const blocks = conversation.messages.flatMap((message) => message.content);
  return blocks.find((block) => block.type === 'tool_result')?.outcomeMessage;
}

function taskEvents(harness: HostHarness, from: number): ToolTaskEvent[] {
  return harness.events
    .slice(from)
    .flatMap((event) =>
      event.topic === 'chat.event' && (event.payload as ChatEvent).type === 'tool-task'
        ? [event.payload as ToolTaskEvent]
        : [],
    );
}

/** The model calls `tool` of the fixture with `input` and the person allows it once; resolves with the conversation and the call's tool use id. */
async function callThroughChat(
  harness: HostHarness,
  fake: ChatWorld['fake'],
  tool: string,
  input: Record<string, unknown>,
): Promise<{ id: string; toolUseId: string }> {
  const { id } = await newConversation(harness);
  fake.script([{ toolUses: [{ name: `${SERVER}__${tool}`, input }] }, { text: 'Done' }]);
  const mark = harness.events.length;
  await harness.call('chat.send', { id, text: 'Go' });
  const consent = await pendingAfter(harness, mark, 'tool-call');
  await harness.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });
  return { id, toolUseId: consent.toolUseId ?? '' };
}

/** Trace entries of `method` sent to (`out`) or received from (`in`) the server. */
async function traced(harness: HostHarness, method: string, direction?: 'in' | 'out'): Promise<LogEntry[]> {
  const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', { server: SERVER, limit: 10_000 });
  return entries.filter(
    (entry) =>
      entry.source === 'trace' && entry.method === method && (direction === undefined || entry.direction === direction),
  );
}

async function records(harness: HostHarness): Promise<TaskRecord[]> {
  return harness.call<TaskRecord[]>('tasks.list', {});
}

describe('MCP tasks of the 2026-07-28 era through the host', () => {
  it('a tool the server runs as a task is polled to its end: status messages on the card and in the registry, the report to the model', async () => {
    const { harness, fake } = await setup();
    const mark = harness.events.length;
    const { id, toolUseId } = await callThroughChat(harness, fake, 'slow_report', { steps: 3, stepMs: 400 });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');

    expect(toolResultTexts(fake, 1)).toMatch(new RegExp(`report of 3 steps; \\d+ polls, 0 sooner than ${POLL_MS} ms`));
    const events = taskEvents(harness, mark);
    expect(events.length).toBeGreaterThan(2);
    expect(events.every((event) => event.toolUseId === toolUseId && event.taskId === events[0]?.taskId)).toBe(true);
    expect(events.map((event) => event.statusMessage)).toEqual(expect.arrayContaining(['step 1 of 3', 'step 2 of 3']));
    expect(events.at(-1)?.status).toBe('completed');
    const [record] = await records(harness);
    expect(record).toMatchObject({
      id: events[0]?.taskId,
      server: SERVER,
      side: 'requester',
      kind: 'tool',
      tool: 'slow_report',
      conversationId: id,
      toolUseId,
      status: 'completed',
      ttlMs: 60_000,
      pollIntervalMs: POLL_MS,
    });

    // The wire: the call declared the extension itself (the SDK Client would refuse the task), then tasks/get at ≥ pollIntervalMs.
    const [call] = await traced(harness, 'tools/call', 'out');
    expect(JSON.parse(call?.body ?? '{}').params._meta['io.modelcontextprotocol/clientCapabilities']).toMatchObject({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    const polls = (await traced(harness, 'tasks/get', 'out')).map((entry) => entry.time);
    expect(polls.length).toBeGreaterThanOrEqual(3);
    for (let index = 1; index < polls.length; index += 1)
      expect((polls[index] ?? 0) - (polls[index - 1] ?? 0)).toBeGreaterThanOrEqual(POLL_MS - 10);
  }, 60_000);

  it('an immediate answer through the task path is a plain result: no task, no card line', async () => {
    const { harness, fake } = await setup();
    const mark = harness.events.length;
    const { id } = await callThroughChat(harness, fake, 'echo', { text: 'right away' });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(toolResultTexts(fake, 1)).toBe('right away');
    expect(taskEvents(harness, mark)).toEqual([]);
    expect(await records(harness)).toEqual([]);
  }, 60_000);

  it('progress on a call through the task path reaches the card and keeps its request timeout from running out', async () => {
    const { harness, fake } = await setup({
      command: process.execPath,
      args: [fixture('modern-tasks.mjs')],
      timeouts: { requestMs: 1_000 },
    });
    const mark = harness.events.length;
    // 2.5 s of work, progress every 100 ms: without progress re-arming it, the 1 s timeout would end the call.
    const { id } = await callThroughChat(harness, fake, 'slow_echo', { text: 'worth the wait', ms: 2_500 });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(toolResultTexts(fake, 1)).toBe('worth the wait');
    const progress = harness.events
      .slice(mark)
      .flatMap((event) =>
        event.topic === 'chat.event' && (event.payload as ChatEvent).type === 'tool-progress' ? [event.payload] : [],
      );
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ total: 2_500 });
    // The progress was the call's, not the SDK Client's: nothing reported an unknown token.
    const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', { server: SERVER, limit: 10_000 });
    expect(
      entries.filter((entry) => entry.source === 'host' && /unknown (message ID|token)/i.test(entry.text)),
    ).toEqual([]);
  }, 60_000);

  it('progress does not keep a call through the task path going past its maximum total time', async () => {
    const { harness, fake } = await setup({
      command: process.execPath,
      args: [fixture('modern-tasks.mjs')],
      timeouts: { requestMs: 1_000, maxTotalMs: 1_500 },
    });
    const mark = harness.events.length;
    const { id } = await callThroughChat(harness, fake, 'slow_echo', { text: 'too late', ms: 5_000 });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(toolResultTexts(fake, 1)).toBe(
      "tools/call tool 'slow_echo' on server 'modern' did not finish within its maximum total time of 1.5 s (time spent waiting for your answers not counted)",
    );
    expect(await outcomeCode(harness, id)).toEqual({
      code: 'server-errors.max-total-time',
      params: { name: 'modern', subject: "tools/call tool 'slow_echo'", seconds: 1.5 },
    });
  }, 60_000);

  it("input: the task's elicitation input request opens Berth's own form for that call, and the answer goes back with tasks/update", async () => {
    const { harness, fake } = await setup();
    const mark = harness.events.length;
    const { id, toolUseId } = await callThroughChat(harness, fake, 'ask_name', {});
    const form = await pendingAfter(harness, mark, 'elicitation');
    expect(form).toMatchObject({
      server: SERVER,
      conversationId: id,
      toolUseId,
      payload: { message: 'Whom should I greet?' },
    });
    // The card waits for the person (its Answer opens the form), the task's record points at it.
    await eventAfter(
      harness,
      mark,
      'chat.event',
      (event) => event.type === 'tool-call-waiting' && event.pendingId === form.id,
    );
    await waitFor(async () => (await records(harness))[0]?.waitingFor === form.id);
    expect((await records(harness))[0]).toMatchObject({
      status: 'input_required',
      statusMessage: 'waiting for a name',
    });
    // Nothing is answered before the person does.
    expect(await traced(harness, 'tasks/update', 'out')).toEqual([]);

    await harness.call('pending.answer', { id: form.id, response: { action: 'accept', content: { name: 'Ada' } } });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(toolResultTexts(fake, 1)).toBe('Hello, Ada!');
    const updates = await traced(harness, 'tasks/update', 'out');
    expect(updates).toHaveLength(1);
    expect(JSON.parse(updates[0]?.body ?? '{}').params).toMatchObject({
      taskId: (await records(harness))[0]?.taskId,
      inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect((await records(harness))[0]).toMatchObject({ status: 'completed', waitingFor: undefined });
  }, 60_000);

  it('Stop cancels the task on the server (tasks/cancel): the card and the registry say the person stopped it', async () => {
    const { harness, fake } = await setup();
    const mark = harness.events.length;
    const { id } = await callThroughChat(harness, fake, 'run_until_cancelled', {});
    await waitFor(() => taskEvents(harness, mark).filter((event) => event.status === 'working').length >= 3);
    await harness.call('chat.stop', { id });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');

    await eventAfter(
      harness,
      mark,
      'chat.event',
      (event) => event.type === 'tool-task' && event.status === 'cancelled',
    );
    const [record] = await records(harness);
    expect(record).toMatchObject({
      status: 'cancelled',
      statusMessage: 'stopped by you',
      statusWording: { code: 'task-errors.status-by-you', params: { by: 'stop' } },
    });
    // The card may say cancelled before the answer to tasks/cancel is in (a poll can tell it first): wait for the answer's trace.
    await waitFor(async () => (await traced(harness, 'tasks/cancel', 'in')).length > 0);
    const cancels = await traced(harness, 'tasks/cancel');
    expect(cancels.map((entry) => entry.direction)).toEqual(['out', 'in']);
    expect(JSON.parse(cancels[0]?.body ?? '{}').params.taskId).toBe(record?.taskId);
    // The server's own view: cancelled, so Berth stopped polling it. Counted as Berth's requests ('out'): the answer
    // to a poll already on its way when Stop was pressed may still arrive after this first count.
    const polls = await traced(harness, 'tasks/get', 'out');
    await new Promise((resolve) => setTimeout(resolve, 3 * POLL_MS));
    expect(await traced(harness, 'tasks/get', 'out')).toHaveLength(polls.length);
  }, 60_000);

  it('Cancel in the Tasks view sends tasks/cancel; the model is told it was cancelled', async () => {
    const { harness, fake } = await setup();
    const mark = harness.events.length;
    const { id } = await callThroughChat(harness, fake, 'run_until_cancelled', {});
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
    expect(await outcomeCode(harness, id)).toEqual({
      code: 'task-errors.cancelled-by-you',
      params: { tool: 'run_until_cancelled', server: 'modern', by: 'cancel' },
    });
    expect(await traced(harness, 'tasks/cancel', 'out')).toHaveLength(1);
  }, 60_000);

  it('polls four times less often while the window is hidden', async () => {
    const { harness, fake } = await setup();
    await harness.call('tasks.setWindowVisible', { visible: false });
    const mark = harness.events.length;
    // Hidden, the server's 250 ms becomes Berth's floor (500 ms) × 4: a task of 4.5 s sees two polls at least.
    const { id } = await callThroughChat(harness, fake, 'slow_report', { steps: 3, stepMs: 1_500 });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(toolResultTexts(fake, 1)).toMatch(/^report of 3 steps;/);
    const polls = (await traced(harness, 'tasks/get', 'out')).map((entry) => entry.time);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    const hiddenGap = HIDDEN_BACKOFF_FACTOR * Math.max(POLL_MS, MIN_POLL_INTERVAL_MS);
    for (let index = 1; index < polls.length; index += 1)
      expect((polls[index] ?? 0) - (polls[index - 1] ?? 0)).toBeGreaterThanOrEqual(hiddenGap - 10);
  }, 60_000);

  it('Stop while the form is open cancels the task and withdraws its question, unanswered', async () => {
    const { harness, fake } = await setup();
    const mark = harness.events.length;
    const { id } = await callThroughChat(harness, fake, 'ask_name', {});
    const form = await pendingAfter(harness, mark, 'elicitation');
    await harness.call('chat.stop', { id });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    await eventAfter(
      harness,
      mark,
      'pending.changed',
      ({ change }) => change.type !== 'opened' && change.id === form.id,
    );
    expect(await harness.call<unknown[]>('pending.list', {})).toEqual([]);
    await waitFor(async () => (await records(harness))[0]?.status === 'cancelled');
    expect(await traced(harness, 'tasks/update', 'out')).toEqual([]);
    expect(await traced(harness, 'tasks/cancel', 'out')).toHaveLength(1);
  }, 60_000);
});

/** The fixture serving Streamable HTTP on a free port (outliving the host); resolves with its /mcp URL. */
async function startRemote(): Promise<string> {
  const child = spawn(process.execPath, [fixture('modern-tasks.mjs'), '--http', '0'], {
    env: { ...process.env, BERTH_FIXTURE_POLL_MS: String(POLL_MS) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  remote = child;
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`modern-tasks --http exited early with ${code}: ${output}`)));
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on port (\d+)/.exec(output);
      if (listening?.[1] !== undefined) resolve(Number(listening[1]));
    });
  });
  return `http://127.0.0.1:${port}/mcp`;
}

describe('2026-07-28 tasks across a Berth restart', () => {
  it("an HTTP server's task is left running when Berth quits, then picked up again by its saved handle and followed to its end", async () => {
    const url = await startRemote();
    const { fake } = await setup({ url });
    let harness = (world as ChatWorld).harness;
    const mark = harness.events.length;
    await callThroughChat(harness, fake, 'slow_report', { steps: 8, stepMs: 500 });
    const working = await eventAfter(
      harness,
      mark,
      'chat.event',
      (event) => event.type === 'tool-task' && event.status === 'working',
    );
    const id = working.type === 'tool-task' ? working.taskId : '';
    await harness.host.shutdown();

    const saved = JSON.parse(await readFile(join((world as ChatWorld).dir, 'state', 'tasks.json'), 'utf8')) as {
      tasks: Array<{ record: TaskRecord; reference?: Record<string, unknown> }>;
    };
    const entry = saved.tasks.find((task) => task.record.id === id);
    expect(entry?.record).toMatchObject({ status: 'working', tool: 'slow_report', server: SERVER });
    expect(entry?.reference).toMatchObject({
      generation: 'v2',
      taskId: entry?.record.taskId,
      originalOperation: 'tools/call',
    });

    harness = await (world as ChatWorld).restart();
    await waitFor(
      async () => (await records(harness)).find((record) => record.id === id)?.status === 'completed',
      30_000,
    );
    // Quitting is not the person's Stop: had Berth sent tasks/cancel, the task could not have completed.
    expect(await traced(harness, 'tasks/cancel')).toEqual([]);
    const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', { server: SERVER, limit: 10_000 });
    expect(
      entries.some(
        (line) =>
          line.source === 'host' &&
          line.text.includes('picked up task') &&
          line.text.includes('again after the restart'),
      ),
    ).toBe(true);
  }, 90_000);

  it('a task that waits for the person when Berth quits asks again after the restart, and only the answer then given goes back', async () => {
    const url = await startRemote();
    const { fake } = await setup({ url });
    let harness = (world as ChatWorld).harness;
    const mark = harness.events.length;
    const { id: conversationId, toolUseId } = await callThroughChat(harness, fake, 'ask_name', {});
    await pendingAfter(harness, mark, 'elicitation');
    const [asked] = await records(harness);
    await harness.host.shutdown();

    harness = await (world as ChatWorld).restart();
    // Quitting withdrew the form, but told the server nothing: the task still waits for a name.
    const form = await pendingAfter(harness, 0, 'elicitation');
    expect(form).toMatchObject({
      server: SERVER,
      conversationId,
      toolUseId,
      taskId: asked?.id,
      payload: { message: 'Whom should I greet?' },
    });
    await waitFor(
      async () => (await records(harness)).find((record) => record.id === asked?.id)?.waitingFor === form.id,
    );
    await harness.call('pending.answer', { id: form.id, response: { action: 'accept', content: { name: 'Grace' } } });
    await waitFor(
      async () => (await records(harness)).find((record) => record.id === asked?.id)?.status === 'completed',
      30_000,
    );
    const updates = await traced(harness, 'tasks/update', 'out');
    expect(updates.map((entry) => JSON.parse(entry.body ?? '{}').params.inputResponses)).toEqual([
      { name: { action: 'accept', content: { name: 'Grace' } } },
    ]);
  }, 90_000);
});
