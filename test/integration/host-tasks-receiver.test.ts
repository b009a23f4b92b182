import { afterEach, describe, expect, it } from 'vitest';
import type { FakeTurn, RecordedRequest } from '../../e2e/fake-llm/fake-anthropic';
import type { LogEntry } from '../../shared/domain/log';
import { type ServerState } from '../../shared/domain/server';
import { serverTools } from '../../shared/domain/server-state-read';
import type { TaskRecord } from '../../shared/domain/task';
import {
  everythingConfig,
  eventAfter,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';
import type { HostHarness } from './host-harness';
import { waitFor } from './host-harness';

// Berth as a task receiver, against server-everything's two "-async" tools:
// they send sampling/elicitation with `params.task`, poll tasks/get and fetch
// the answer with tasks/result.

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const ASYNC_TOOLS = ['trigger-sampling-request-async', 'trigger-elicitation-request-async'];

/** server-everything with its async tools listed (they appear after initialized, with a list_changed). */
async function setup(config: Record<string, unknown> = everythingConfig): Promise<ChatWorld> {
  world = await startChatWorld();
  await world.harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
  await world.harness.call('servers.add', { name: 'everything', config });
  const ready = await world.harness.waitForEvent(
    'servers.changed',
    (state: ServerState) =>
      state.name === 'everything' &&
      state.status === 'ready' &&
      ASYNC_TOOLS.every((tool) => serverTools(state).some((t) => t.name === tool)),
  );
  expect(serverTools(ready).map((tool) => tool.name)).toEqual(expect.arrayContaining(ASYNC_TOOLS));
  return world;
}

function echoPrompt(request: RecordedRequest): FakeTurn {
  const content = request.body?.messages[0]?.content;
  const text = typeof content === 'string' ? content : ((content?.[0] as { text?: string } | undefined)?.text ?? '');
  return { text: `I saw: ${text}` };
}

async function receiverTasks(harness: HostHarness): Promise<TaskRecord[]> {
  return (await harness.call<TaskRecord[]>('tasks.list', {})).filter((task) => task.side === 'receiver');
}

async function trace(harness: HostHarness): Promise<LogEntry[]> {
  return (await harness.call<{ entries: LogEntry[] }>('logs.query', { server: 'everything', sources: ['trace'] }))
    .entries;
}

const FORM_ANSWER = { action: 'accept', content: { name: 'Ada Lovelace', favoriteColor: 'Blue', agreeToTerms: true } };

describe('Berth as a task receiver for server-everything', () => {
  it('declares the receiver part of tasks in initialize', async () => {
    const { harness } = await setup();
    const initialize = (await trace(harness)).find(
      (entry) => entry.direction === 'out' && entry.method === 'initialize',
    );
    const params = (JSON.parse(initialize?.body ?? '{}') as { params?: { capabilities?: Record<string, unknown> } })
      .params;
    expect(params?.capabilities?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
    });
  });

  it('trigger-sampling-request-async: the review opens as a task, and the approved answer reaches the server through tasks/result', async () => {
    const { harness, fake } = await setup();
    const { id } = await newConversation(harness);
    fake.script([
      {
        toolUses: [
          { name: 'everything__trigger-sampling-request-async', input: { prompt: 'Write a haiku', maxTokens: 50 } },
        ],
      },
      echoPrompt,
      { text: 'done' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Sample in the background' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });

    const review = await pendingAfter(harness, mark, 'sampling');
    expect(review.payload.request.messages[0]).toMatchObject({
      content: { text: expect.stringContaining('Write a haiku') },
    });
    await waitFor(async () => (await receiverTasks(harness)).some((task) => task.waitingFor === review.id));
    const [task] = await receiverTasks(harness);
    expect(task).toMatchObject({
      server: 'everything',
      kind: 'sampling',
      status: 'input_required',
      conversationId: id,
      ttlMs: 300_000,
    });
    await harness.call('pending.answer', { id: review.id, response: { decision: 'approve' } });
    const answer = await pendingAfter(harness, mark, 'sampling-answer');
    await harness.call('pending.answer', { id: answer.id, response: { decision: 'approve' } });

    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    const result = toolResultTexts(fake, 2);
    expect(result).toContain('[COMPLETED] Async sampling completed!');
    expect(result).toContain('I saw: Resource trigger-sampling-request-async context: Write a haiku');
    expect((await receiverTasks(harness))[0]).toMatchObject({ id: task?.id, status: 'completed' });
    expect((await trace(harness)).some((entry) => entry.direction === 'in' && entry.method === 'tasks/result')).toBe(
      true,
    );
  });

  it('trigger-elicitation-request-async: the form is answered and the server gets the values', async () => {
    const { harness, fake } = await setup();
    const { id } = await newConversation(harness);
    fake.script([
      { toolUses: [{ name: 'everything__trigger-elicitation-request-async', input: {} }] },
      { text: 'thanks' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Ask me in the background' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });
    const form = await pendingAfter(harness, mark, 'elicitation');
    expect(form.payload).toMatchObject({ mode: 'form', message: expect.stringContaining('async task demo') });
    await harness.call('pending.answer', { id: form.id, response: FORM_ANSWER });

    await turnEndAfter(harness, mark, id);
    const result = toolResultTexts(fake, 1);
    expect(result).toContain('[COMPLETED] User provided the requested information!');
    expect(result).toContain('Ada Lovelace');
    expect((await receiverTasks(harness))[0]).toMatchObject({
      kind: 'elicitation',
      status: 'completed',
      ttlMs: 600_000,
    });
  });

  it('Cancel in the Tasks view withdraws the form, and the server sees the task cancelled', async () => {
    const { harness, fake } = await setup();
    const { id } = await newConversation(harness);
    fake.script([
      { toolUses: [{ name: 'everything__trigger-elicitation-request-async', input: {} }] },
      { text: 'fine' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Ask me, then never mind' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });
    const form = await pendingAfter(harness, mark, 'elicitation');
    await waitFor(async () => (await receiverTasks(harness))[0]?.waitingFor === form.id);
    const [task] = await receiverTasks(harness);

    expect(await harness.call('tasks.cancel', { id: task?.id })).toEqual({ status: 'cancelled' });
    const withdrawn = await eventAfter(
      harness,
      mark,
      'pending.changed',
      ({ change }) => change.type === 'withdrawn' && change.id === form.id,
    );
    expect(withdrawn.change).toMatchObject({ note: 'you cancelled this task in Berth' });
    expect(await harness.call('pending.list', {})).toEqual([]);
    await eventAfter(harness, mark, 'tasks.changed', ({ changed }) =>
      changed.some((t) => t.id === task?.id && t.status === 'cancelled'),
    );

    await turnEndAfter(harness, mark, id);
    expect(toolResultTexts(fake, 1)).toContain('[CANCELLED]');
  });
});
