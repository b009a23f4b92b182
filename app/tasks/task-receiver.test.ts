import { Client, InMemoryTransport, RELATED_TASK_META_KEY } from '@modelcontextprotocol/client';
import type { ElicitRequestParams } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PendingChange, PendingRequestOf } from '../../shared/domain/pending';
import type { ServerState } from '../../shared/domain/server';
import { ElicitationFlow } from '../elicitation/elicitation-flow';
import { PendingRequests } from '../pending/pending-requests';
import { LogCollector } from '../servers/test-support';
import { MAX_FINISHED_RECEIVER_TASKS, MAX_OPEN_RECEIVER_TASKS, TaskReceivers } from './task-receiver';
import { TaskRegistry } from './task-registry';

const TaskSchema = z.looseObject({
  taskId: z.string(),
  status: z.string(),
  ttl: z.number().nullable(),
  statusMessage: z.string().optional(),
});
const CreateTaskSchema = z.object({ task: TaskSchema });
const AnySchema = z.looseObject({});

const FORM = {
  message: 'Your name?',
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] },
};

function nextOpened(pending: PendingRequests): Promise<PendingRequestOf<'elicitation'>> {
  return new Promise((resolve) => {
    const stop = pending.onChange(({ change }) => {
      if (change.type === 'opened' && change.request.kind === 'elicitation') {
        stop();
        resolve(change.request as PendingRequestOf<'elicitation'>);
      }
    });
  });
}

function nextWithdrawn(pending: PendingRequests): Promise<Extract<PendingChange['change'], { type: 'withdrawn' }>> {
  return new Promise((resolve) => {
    const stop = pending.onChange(({ change }) => {
      if (change.type === 'withdrawn') {
        stop();
        resolve(change);
      }
    });
  });
}

const ready = { name: 'asker', status: 'ready' } as ServerState;

/** A real SDK client set up as Berth sets it up (plain handler, then the receiver), talking to a real SDK server in memory. */
async function setup(
  options: { maxTtlMs?: number; requesterPart?: boolean; samplingRefusal?: string; now?: () => number } = {},
) {
  const pending = new PendingRequests();
  const logs = new LogCollector();
  const registry = new TaskRegistry();
  const flow = new ElicitationFlow({ pending, logs, openExternal: async () => undefined });
  const plain: ElicitRequestParams[] = [];
  const receivers = new TaskReceivers({
    registry,
    pending,
    questions: {
      sampling: () => Promise.reject(new Error('no sampling in this test')),
      elicitation: (server, params, context) => flow.handle(server, params, context),
      samplingRefusal: () => (options.samplingRefusal === undefined ? undefined : new Error(options.samplingRefusal)),
    },
    origin: () => ({ conversationId: 'c-1', toolUseId: 'tu-1' }),
    logs,
    ...(options.maxTtlMs !== undefined ? { maxTtlMs: options.maxTtlMs } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  const client = new Client({ name: 'berth-test', version: '0.0.0' }, { capabilities: {} });
  // Another part of Berth declaring its share of `tasks` first: registerCapabilities merges the two.
  if (options.requesterPart === true) client.registerCapabilities({ tasks: { list: {}, cancel: {} } });
  client.registerCapabilities({ sampling: {}, elicitation: { form: {} } });
  client.setRequestHandler('elicitation/create', (request, ctx) => {
    plain.push(request.params);
    return flow.handle('asker', request.params, { signal: ctx.mcpReq.signal });
  });
  client.setRequestHandler('sampling/createMessage', () => Promise.reject(new Error('no plain sampling in this test')));
  receivers.clientSetup('asker', client);
  receivers.serverChanged(ready);
  const statuses: Array<{ taskId: string; status: string; statusMessage?: string }> = [];
  const server = new Server({ name: 'asker', version: '1.0.0' }, { capabilities: {} });
  server.setNotificationHandler(
    'notifications/tasks/status',
    { params: TaskSchema },
    (params) => void statuses.push(params),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  const ask = (params: Record<string, unknown>) =>
    server.request({ method: 'elicitation/create', params: { ...FORM, ...params } }, CreateTaskSchema);
  const taskRequest = <S extends z.ZodType>(method: string, taskId: string, schema: S) =>
    server.request({ method, params: { taskId } }, schema);
  return {
    pending,
    registry,
    logs,
    receivers,
    plain,
    statuses,
    server,
    ask,
    taskRequest,
    close: () => Promise.all([client.close(), server.close()]),
  };
}

let close: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('TaskReceivers behind a real SDK client', () => {
  it('declares tasks with list, cancel and both request kinds, merged with another part declared first', async () => {
    const env = await setup({ requesterPart: true });
    close = env.close;
    expect(env.server.getClientCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
    });
  });

  it("refuses to bind before Berth's own handlers are in place", () => {
    const receivers = new TaskReceivers({
      registry: new TaskRegistry(),
      pending: new PendingRequests(),
      questions: {
        sampling: () => Promise.reject(new Error('unused')),
        elicitation: () => Promise.reject(new Error('unused')),
      },
      origin: () => ({}),
      logs: new LogCollector(),
    });
    const client = new Client(
      { name: 'berth-test', version: '0.0.0' },
      { capabilities: { sampling: {}, elicitation: { form: {} } } },
    );
    expect(() => receivers.clientSetup('asker', client)).toThrow(
      /after Berth's own handlers.*sampling\/createMessage, elicitation\/create/,
    );
  });

  it('runs a task-augmented elicitation as a task: the same form, then tasks/get, tasks/list and tasks/result', async () => {
    const env = await setup();
    close = env.close;
    const opened = nextOpened(env.pending);
    const { task } = await env.ask({ task: { ttl: 60_000 } });
    expect(task).toMatchObject({ status: 'input_required', ttl: 60_000, pollInterval: 1_000 });
    const form = await opened;
    expect(form).toMatchObject({ server: 'asker', payload: { mode: 'form', message: 'Your name?' } });
    const [record] = env.registry.list();
    expect(record).toMatchObject({
      side: 'receiver',
      kind: 'elicitation',
      server: 'asker',
      taskId: task.taskId,
      status: 'input_required',
      waitingFor: form.id,
      conversationId: 'c-1',
      toolUseId: 'tu-1',
      ttlMs: 60_000,
    });
    expect(await env.taskRequest('tasks/get', task.taskId, TaskSchema)).toMatchObject({
      taskId: task.taskId,
      status: 'input_required',
    });
    const listed = await env.server.request(
      { method: 'tasks/list', params: {} },
      z.object({ tasks: z.array(TaskSchema) }),
    );
    expect(listed.tasks.map((t) => t.taskId)).toEqual([task.taskId]);

    const result = env.taskRequest('tasks/result', task.taskId, AnySchema);
    env.pending.answer(form.id, { action: 'accept', content: { name: 'Ada' } });
    expect(await result).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(await env.taskRequest('tasks/get', task.taskId, TaskSchema)).toMatchObject({ status: 'completed' });
    expect(env.registry.get(record?.id ?? '')).toMatchObject({ status: 'completed' });
    expect(env.registry.get(record?.id ?? '')?.waitingFor).toBeUndefined();
    expect(env.plain).toEqual([]);
  });

  it('a plain request, even one carrying a related task in _meta, goes to the plain handler and makes no task', async () => {
    const env = await setup();
    close = env.close;
    const opened = nextOpened(env.pending);
    const answer = env.server.request(
      {
        method: 'elicitation/create',
        params: { ...FORM, _meta: { [RELATED_TASK_META_KEY]: { taskId: 'server-task-1' } } },
      },
      AnySchema,
    );
    env.pending.answer((await opened).id, { action: 'decline' });
    expect(await answer).toEqual({ action: 'decline' });
    expect(env.plain).toHaveLength(1);
    expect(env.registry.list()).toEqual([]);
  });

  it('refuses a sampling request Berth cannot answer (no API key) before any task exists', async () => {
    const env = await setup({ samplingRefusal: 'Berth has no Anthropic API key yet' });
    close = env.close;
    const sampling = {
      task: { ttl: 60_000 },
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      maxTokens: 10,
    };
    await expect(
      env.server.request({ method: 'sampling/createMessage', params: sampling }, CreateTaskSchema),
    ).rejects.toThrow(/no Anthropic API key/);
    expect(env.registry.list()).toEqual([]);
  });

  it('refuses bad params before any task exists', async () => {
    const env = await setup();
    close = env.close;
    await expect(
      env.server.request({ method: 'elicitation/create', params: { task: {}, message: 42 } }, CreateTaskSchema),
    ).rejects.toThrow(/Invalid elicitation request/);
    expect(env.registry.list()).toEqual([]);
    expect(env.pending.list()).toEqual([]);
  });

  it("waits past any request timeout, and at the task's TTL withdraws the question and forgets the task", async () => {
    const env = await setup();
    close = env.close;
    const opened = nextOpened(env.pending);
    const withdrawn = nextWithdrawn(env.pending);
    const { task } = await env.ask({ task: { ttl: 1_500 } });
    const form = await opened;
    const change = await withdrawn;
    expect(change).toMatchObject({ id: form.id, note: expect.stringContaining('time to live (1.5 s) ran out') });
    await expect(env.taskRequest('tasks/get', task.taskId, TaskSchema)).rejects.toThrow(/Unknown or expired task/);
    expect(env.registry.list()[0]).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('ran out before it was answered'),
    });
  });

  it('reads the expiry as an expiry, not a cancel, when making the task took a while', async () => {
    // A clock whose next read, once armed, comes 20 ms late: a loaded machine between the binding's creation of the
    // task and Berth's. Berth's time to live must not start after the binding's, or it has not run out when the
    // binding expires the task.
    let slowRead = false;
    const now = () => {
      if (slowRead) {
        slowRead = false;
        const until = Date.now() + 20;
        while (Date.now() < until);
      }
      return Date.now();
    };
    const env = await setup({ now });
    close = env.close;
    const withdrawn = nextWithdrawn(env.pending);
    slowRead = true;
    await env.ask({ task: { ttl: 300 } });
    expect(await withdrawn).toMatchObject({ note: "the task's time to live (0.3 s) ran out before it was answered" });
    expect(env.registry.list()[0]).toMatchObject({ status: 'failed' });
  });

  it('keeps a task no longer than the maximum, whatever the server asks', async () => {
    const env = await setup({ maxTtlMs: 300 });
    close = env.close;
    const { task } = await env.ask({ task: { ttl: 3_600_000 } });
    expect(task.ttl).toBe(300);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await expect(env.taskRequest('tasks/get', task.taskId, TaskSchema)).rejects.toThrow(/Unknown or expired task/);
  });

  it("the server's tasks/cancel withdraws the question with a note", async () => {
    const env = await setup();
    close = env.close;
    const opened = nextOpened(env.pending);
    const { task } = await env.ask({ task: { ttl: 60_000 } });
    const form = await opened;
    const withdrawn = nextWithdrawn(env.pending);
    expect(await env.taskRequest('tasks/cancel', task.taskId, TaskSchema)).toMatchObject({ status: 'cancelled' });
    expect(await withdrawn).toMatchObject({ id: form.id, note: "server 'asker' cancelled the task" });
    expect(env.registry.list()[0]).toMatchObject({
      status: 'cancelled',
      statusMessage: "server 'asker' cancelled the task",
      statusWording: { code: 'task-errors.status-server-cancelled', params: { server: 'asker' } },
    });
    expect(env.pending.list()).toEqual([]);
  });

  it('Cancel in the Tasks view cancels the task for the server too and withdraws the question', async () => {
    const env = await setup();
    close = env.close;
    const opened = nextOpened(env.pending);
    const { task } = await env.ask({ task: { ttl: 60_000 } });
    const form = await opened;
    const withdrawn = nextWithdrawn(env.pending);
    const id = env.registry.list()[0]?.id ?? '';
    expect(await env.registry.cancel(id)).toMatchObject({
      status: 'cancelled',
      statusMessage: 'you cancelled this task in Berth',
      statusWording: { code: 'task-errors.status-you-cancelled' },
    });
    expect(await withdrawn).toMatchObject({ id: form.id, note: 'you cancelled this task in Berth' });
    expect(await env.taskRequest('tasks/get', task.taskId, TaskSchema)).toMatchObject({ status: 'cancelled' });
    await expect(env.taskRequest('tasks/result', task.taskId, AnySchema)).rejects.toThrow(/cancelled/);
    expect(env.statuses.at(-1)).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
  });

  it('a server that disconnects takes its open tasks with it: lost, question withdrawn', async () => {
    const env = await setup();
    close = env.close;
    const opened = nextOpened(env.pending);
    await env.ask({ task: { ttl: 60_000 } });
    const form = await opened;
    const withdrawn = nextWithdrawn(env.pending);
    env.receivers.serverChanged({ name: 'asker', status: 'crashed', reason: 'exited with code 1' } as ServerState);
    expect(await withdrawn).toMatchObject({ id: form.id, note: "server 'asker' disconnected" });
    expect(env.registry.list()[0]).toMatchObject({
      status: 'lost',
      error: expect.stringContaining('disconnected'),
      statusMessage: "server 'asker' disconnected",
      statusWording: { code: 'task-errors.status-server-disconnected', params: { server: 'asker' } },
    });
  });

  it('refuses more unfinished tasks than the limit before making one, and keeps only the newest finished ones', async () => {
    const env = await setup();
    close = env.close;
    const created = [];
    for (let i = 0; i < MAX_OPEN_RECEIVER_TASKS; i += 1)
      created.push((await env.ask({ task: { ttl: 60_000 } })).task.taskId);
    await expect(env.ask({ task: { ttl: 60_000 } })).rejects.toThrow(/already runs 20 unfinished tasks/);
    expect(env.registry.list()).toHaveLength(MAX_OPEN_RECEIVER_TASKS);

    for (let round = 0; round < 3; round += 1) {
      for (const taskId of created.splice(0)) await env.taskRequest('tasks/cancel', taskId, TaskSchema);
      for (let i = 0; i < MAX_OPEN_RECEIVER_TASKS; i += 1)
        created.push((await env.ask({ task: { ttl: 60_000 } })).task.taskId);
    }
    const finished = env.registry.list().filter((record) => record.status === 'cancelled');
    expect(finished).toHaveLength(MAX_FINISHED_RECEIVER_TASKS);
    expect(env.registry.list().filter((record) => record.status === 'input_required')).toHaveLength(
      MAX_OPEN_RECEIVER_TASKS,
    );
  });
});
