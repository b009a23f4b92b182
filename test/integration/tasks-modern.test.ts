import type { Client } from '@modelcontextprotocol/client';
import {
  TaskCancelledError,
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  taskViewFromExecutionEvent,
} from '@modelcontextprotocol/ext-tasks/client';
import type {
  ApplicationInputRequest,
  ResolvedInputExchangeContext,
  TaskEnabledSession,
  TaskView,
  WithTasksOptions,
} from '@modelcontextprotocol/ext-tasks/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import type { BerthClient } from '../../app/servers/berth-client';
import { fixtureConfig } from '../../app/servers/test-support';
import { declareTasksExtension } from '../../app/tasks/modern-capability';
import { modernTaskSessionOptions, RAW_REQUEST_ID_PREFIX } from '../../app/tasks/modern-dispatch';
import { collectLogs, supervisorPerTest } from './supervisor-harness';

/**
 * The 2026-07-28 tasks extension end to end, on real processes: Berth's
 * supervisor starts the modern-tasks fixture, and ext-tasks runs its tools as
 * tasks through the raw dispatch of app/tasks/modern-dispatch.ts.
 */

const POLL_MS = 300;
const SERVER = 'tasks';

const clients = new Map<string, BerthClient>();
/** Whether clientSetup declares the extension on the Client itself (declareTasksExtension). */
let declareOnClient = false;
const servers = supervisorPerTest(collectLogs, {
  clientVersion: '0.1.0-test',
  clientSetup: (name: string, client: Client) => {
    if (declareOnClient) declareTasksExtension(client);
    clients.set(name, client as BerthClient);
  },
});
const sessions: TaskEnabledSession[] = [];

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  clients.clear();
  declareOnClient = false;
});

async function startFixture(): Promise<BerthClient> {
  await servers.supervisor.sync({
    [SERVER]: fixtureConfig('modern-tasks.mjs', { env: { BERTH_FIXTURE_POLL_MS: String(POLL_MS) } }),
  });
  expect(servers.supervisor.get(SERVER)).toMatchObject({
    status: 'ready',
    era: 'modern',
    protocolVersion: '2026-07-28',
  });
  const client = clients.get(SERVER);
  if (client === undefined || !servers.supervisor.isCurrentClient(SERVER, client))
    throw new Error('no live client for the fixture');
  return client;
}

async function openSession(
  onInputRequest?: WithTasksOptions['onInputRequest'],
): Promise<{ client: BerthClient; session: TaskEnabledSession }> {
  const client = await startFixture();
  const session = createTaskSessionFromClient(client, {
    endpointId: SERVER,
    ...modernTaskSessionOptions(client, { requestTimeoutMs: 10_000 }),
    ...(onInputRequest === undefined ? {} : { onInputRequest }),
  });
  sessions.push(session);
  return { client, session };
}

/** The client's own per-request envelope (without the tasks extension: the client does not declare it, ext-tasks does per request). */
const envelopeOf = (client: BerthClient) => client.requestEnvelope() as Record<string, JsonValue>;

/** Outgoing trace entries of `method`, in order. */
const sent = (method: string) =>
  servers.logs.for(SERVER, 'trace').filter((entry) => entry.direction === 'out' && entry.method === method);

describe('tasks of the 2026-07-28 era (io.modelcontextprotocol/tasks) through the raw dispatch', () => {
  it('runs a task to completion, polling tasks/get no faster than the server asks and seeing its status messages', async () => {
    const { session } = await openSession();
    expect(session.capabilities).toMatchObject({ execution: true, inputResponses: true, cancellation: true });

    const execution = await session.callTool('slow_report', { steps: 3, stepMs: 500 });
    expect(execution.kind).toBe('task');
    const seen: TaskView[] = [];
    const { outcome } = await execution.settle({
      onEvent: (event) => {
        const task = taskViewFromExecutionEvent(event);
        if (task !== undefined) seen.push(task);
      },
    });
    const result = resultFromTaskOutcome(outcome);
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^report of 3 steps; \d+ polls, 0 sooner than 300 ms$/) },
    ]);

    const messages = seen.map((task) => task.statusMessage);
    expect(messages).toContain('step 1 of 3');
    expect(messages.at(-1)).toBe('report ready');
    expect(seen[0]?.suggestedPollIntervalMs).toBe(POLL_MS);

    // The wire: tools/call declared the extension in its per-request capabilities, then tasks/get polls at ≥ pollIntervalMs.
    const call = sent('tools/call').at(-1);
    expect(call?.id).toEqual(expect.stringMatching(new RegExp(`^${RAW_REQUEST_ID_PREFIX}`)));
    expect(JSON.parse(call?.body ?? '{}').params._meta['io.modelcontextprotocol/clientCapabilities']).toMatchObject({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    const polls = sent('tasks/get').map((entry) => entry.time);
    expect(polls.length).toBeGreaterThanOrEqual(3);
    for (let index = 1; index < polls.length; index += 1)
      expect((polls[index] ?? 0) - (polls[index - 1] ?? 0)).toBeGreaterThanOrEqual(POLL_MS - 25);
    // Every answer reached its raw request, and the SDK Client never saw one it did not send.
    expect(servers.logs.texts(SERVER, 'host').filter((text) => /unknown message ID/i.test(text))).toEqual([]);
  });

  it('answers the task’s elicitation input request through tasks/update and gets the result that used the answer', async () => {
    const asked: Array<{ request: ApplicationInputRequest; context: ResolvedInputExchangeContext }> = [];
    const { session } = await openSession(async (request, context) => {
      asked.push({ request, context });
      return { action: 'accept', content: { name: 'Ada' } } as never;
    });
    const execution = await session.callTool('ask_name', {});
    expect(execution.kind).toBe('task');
    const statuses: string[] = [];
    const { outcome } = await execution.settle({
      onEvent: (event) => void statuses.push(taskViewFromExecutionEvent(event)?.status ?? 'outcome'),
    });
    expect(resultFromTaskOutcome(outcome).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);

    expect(asked).toHaveLength(1);
    expect(asked[0]?.request).toMatchObject({ kind: 'elicitation', params: { message: 'Whom should I greet?' } });
    expect(asked[0]?.context).toMatchObject({
      scope: 'task',
      delivery: 'task-update',
      inputId: 'name',
      taskId: execution.handle?.taskId,
    });
    expect(statuses).toContain('input_required');
    const update = sent('tasks/update');
    expect(update).toHaveLength(1);
    expect(JSON.parse(update[0]?.body ?? '{}').params).toMatchObject({
      taskId: execution.handle?.taskId,
      inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
    });
  });

  it('cancels a running task with tasks/cancel, and the server marks it cancelled', async () => {
    const { client, session } = await openSession();
    const execution = await session.callTool('run_until_cancelled', {});
    if (execution.kind !== 'task') throw new Error('expected a task');
    const settled = execution.settle();
    await expect.poll(() => sent('tasks/get').length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);

    await execution.cancel();
    const { outcome } = await settled;
    expect(outcome.status).toBe('cancelled');
    expect(() => resultFromTaskOutcome(outcome)).toThrow(TaskCancelledError);
    expect(sent('tasks/cancel').map((entry) => JSON.parse(entry.body ?? '{}').params.taskId)).toEqual([
      execution.handle.taskId,
    ]);

    // Asked past the session: the server's own view of the task.
    const { rawDispatch } = modernTaskSessionOptions(client, { requestTimeoutMs: 5_000 });
    const _meta = {
      ...envelopeOf(client),
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    };
    const seen = await rawDispatch({ method: 'tasks/get', params: { taskId: execution.handle.taskId, _meta } });
    expect(seen).toMatchObject({ kind: 'result', result: { status: 'cancelled', resultType: 'complete' } });
  });

  it('returns an immediate result as such, and a JSON-RPC error as an error response', async () => {
    const { client, session } = await openSession();
    const execution = await session.callTool('echo', { text: 'now' });
    expect(execution.kind).toBe('immediate');
    expect(resultFromTaskOutcome((await execution.settle()).outcome).content).toEqual([{ type: 'text', text: 'now' }]);

    const { rawDispatch } = modernTaskSessionOptions(client, { requestTimeoutMs: 5_000 });
    // No tasks extension in this request's _meta: the fixture refuses, as SEP-2663 says.
    // The SDK's own callTool does not declare the extension either (only ext-tasks' requests do), so it is refused, not handed a task.
    await expect(servers.supervisor.callTool(SERVER, 'slow_report', {})).rejects.toThrow(
      'Missing required client capability',
    );
    expect(
      await rawDispatch({
        method: 'tools/call',
        params: { name: 'slow_report', arguments: {}, _meta: envelopeOf(client) },
      }),
    ).toMatchObject({
      kind: 'error',
      error: { code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } },
    });
  });
});

describe('the raw dispatch itself', () => {
  it('gives up on a request at its timeout, tells the server with notifications/cancelled, and leaves the SDK Client undisturbed', async () => {
    const client = await startFixture();
    const { rawDispatch } = modernTaskSessionOptions(client, { requestTimeoutMs: 10_000 });
    const started = Date.now();
    const answer = rawDispatch(
      { method: 'tools/call', params: { name: 'stall', arguments: {}, _meta: envelopeOf(client) } },
      { context: { requestTimeoutMs: 400 } },
    );
    await expect(answer).rejects.toThrow("the server did not answer 'tools/call' within 0.4 s");
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    const stalled = sent('tools/call').at(-1)?.id;
    await expect
      .poll(() => sent('notifications/cancelled').map((entry) => JSON.parse(entry.body ?? '{}').params.requestId))
      .toEqual([stalled]);
    // The connection goes on: the SDK's own requests still work.
    expect((await servers.supervisor.callTool(SERVER, 'echo', { text: 'still here' })).content).toEqual([
      { type: 'text', text: 'still here' },
    ]);
  });

  it('re-arms the timeout on progress when the caller asks, and takes that progress off the SDK Client', async () => {
    const client = await startFixture();
    const { rawDispatch } = modernTaskSessionOptions(client, { requestTimeoutMs: 10_000 });
    const call = (resetTimeoutOnProgress: boolean) =>
      rawDispatch(
        {
          method: 'tools/call',
          params: { name: 'slow_echo', arguments: { text: 'late', ms: 1_200 }, _meta: envelopeOf(client) },
        },
        { context: { requestTimeoutMs: 500, resetTimeoutOnProgress } },
      );
    expect(await call(true)).toMatchObject({
      kind: 'result',
      result: { resultType: 'complete', content: [{ type: 'text', text: 'late' }] },
    });
    expect(
      servers.logs
        .for(SERVER, 'trace')
        .filter((entry) => entry.direction === 'in' && entry.method === 'notifications/progress').length,
    ).toBeGreaterThanOrEqual(5);
    await expect(call(false)).rejects.toThrow("the server did not answer 'tools/call' within 0.5 s");
    expect(servers.logs.texts(SERVER, 'host').filter((text) => /unknown (message ID|token)/i.test(text))).toEqual([]);
  });

  it('stops waiting when the caller aborts, with the caller’s reason', async () => {
    const client = await startFixture();
    const { rawDispatch } = modernTaskSessionOptions(client, { requestTimeoutMs: 10_000 });
    const stop = new AbortController();
    const answer = rawDispatch(
      { method: 'tools/call', params: { name: 'stall', arguments: {}, _meta: envelopeOf(client) } },
      { signal: stop.signal },
    );
    await expect.poll(() => sent('tools/call').length).toBe(1);
    stop.abort(new Error('stopped by you'));
    await expect(answer).rejects.toThrow('stopped by you');
    await expect.poll(() => sent('notifications/cancelled').length).toBe(1);
  });

  it('fails a waiting request at once when the connection ends', async () => {
    const client = await startFixture();
    const { rawDispatch } = modernTaskSessionOptions(client, { requestTimeoutMs: 30_000 });
    const answer = rawDispatch({
      method: 'tools/call',
      params: { name: 'stall', arguments: {}, _meta: envelopeOf(client) },
    });
    await expect.poll(() => sent('tools/call').length).toBe(1);
    const started = Date.now();
    await servers.supervisor.stop(SERVER);
    await expect(answer).rejects.toThrow('the connection to the server closed before it answered');
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(rawDispatch({ method: 'tasks/get', params: { taskId: 'x' } })).rejects.toThrow(
      "cannot send 'tasks/get': the connection to the server is closed",
    );
  });

  it('carries the log level the person chose, as the SDK’s own requests do', async () => {
    const { session } = await openSession();
    await servers.supervisor.setLogLevel(SERVER, 'info');
    await session.callTool('echo', { text: 'x' });
    const call = sent('tools/call').at(-1);
    expect(call?.id).toEqual(expect.stringMatching(new RegExp(`^${RAW_REQUEST_ID_PREFIX}`)));
    expect(JSON.parse(call?.body ?? '{}').params._meta['io.modelcontextprotocol/logLevel']).toBe('info');
  });

  it('reports an answer to a request id of its namespace that was never sent, and keeps it from the SDK Client', async () => {
    const { session } = await openSession();
    const execution = await session.callTool('stray_answer', { id: `${RAW_REQUEST_ID_PREFIX}999` });
    expect(resultFromTaskOutcome((await execution.settle()).outcome).content).toEqual([{ type: 'text', text: 'sent' }]);
    await expect
      .poll(() =>
        servers.logs
          .texts(SERVER, 'host')
          .filter((text) => text.includes(`answered request ${RAW_REQUEST_ID_PREFIX}999, which Berth never sent`)),
      )
      .toHaveLength(1);
    expect(servers.logs.texts(SERVER, 'host').filter((text) => /unknown message ID/i.test(text))).toEqual([]);
  });

  it('refuses a client that is not in the modern era', async () => {
    await servers.supervisor.sync({ legacy: fixtureConfig('legacy-echo.mjs') });
    const client = clients.get('legacy');
    expect(client?.getProtocolEra()).toBe('legacy');
    expect(() => modernTaskSessionOptions(client as BerthClient, { requestTimeoutMs: 1_000 })).toThrow(
      'needs a client connected in the modern era',
    );
  });

  it('declareTasksExtension puts the extension on every request the SDK sends, so its own callTool may get a task it cannot read', async () => {
    declareOnClient = true;
    const client = await startFixture();
    const capabilities = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    expect(
      modernTaskSessionOptions(client, { requestTimeoutMs: 1_000 }).v2RequestFraming.clientCapabilities,
    ).toMatchObject(capabilities);
    await servers.supervisor.callTool(SERVER, 'echo', { text: 'x' });
    const call = sent('tools/call').at(-1);
    expect(typeof call?.id).toBe('number');
    expect(JSON.parse(call?.body ?? '{}').params._meta['io.modelcontextprotocol/clientCapabilities']).toMatchObject(
      capabilities,
    );
    // Hence the rule in its doc: only once every modern tool call goes through the task session.
    await expect(servers.supervisor.callTool(SERVER, 'slow_report', {})).rejects.toThrow(
      "Unsupported result type 'task' for tools/call",
    );
  });
});
