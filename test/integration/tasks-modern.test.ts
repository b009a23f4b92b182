import type { Client } from '@modelcontextprotocol/client';
import { TaskCancelledError, createTaskSessionFromClient, resultFromTaskOutcome, taskViewFromExecutionEvent } from '@modelcontextprotocol/ext-tasks/client';
import type { ApplicationInputRequest, ResolvedInputExchangeContext, TaskEnabledSession, TaskView, WithTasksOptions } from '@modelcontextprotocol/ext-tasks/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import type { BerthClient } from '../../app/servers/berth-client';
import { fixtureConfig } from '../../app/servers/test-support';
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
const servers = supervisorPerTest(collectLogs, { clientVersion: '0.1.0-test', clientSetup: (name: string, client: Client) => clients.set(name, client as BerthClient) });
const sessions: TaskEnabledSession[] = [];

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  clients.clear();
});

async function startFixture(): Promise<BerthClient> {
  await servers.supervisor.sync({ [SERVER]: fixtureConfig('modern-tasks.mjs', { env: { BERTH_FIXTURE_POLL_MS: String(POLL_MS) } }) });
  expect(servers.supervisor.get(SERVER)).toMatchObject({ status: 'ready', era: 'modern', protocolVersion: '2026-07-28' });
  const client = clients.get(SERVER);
  if (client === undefined || !servers.supervisor.isCurrentClient(SERVER, client)) throw new Error('no live client for the fixture');
  return client;
}

async function openSession(onInputRequest?: WithTasksOptions['onInputRequest']): Promise<{ client: BerthClient; session: TaskEnabledSession }> {
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
const sent = (method: string) => servers.logs.for(SERVER, 'trace').filter((entry) => entry.direction === 'out' && entry.method === method);

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
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^report of 3 steps; \d+ polls, 0 sooner than 300 ms$/) }]);

    const messages = seen.map((task) => task.statusMessage);
    expect(messages).toContain('step 1 of 3');
    expect(messages.at(-1)).toBe('report ready');
    expect(seen[0]?.suggestedPollIntervalMs).toBe(POLL_MS);

    // The wire: tools/call declared the extension in its per-request capabilities, then tasks/get polls at ≥ pollIntervalMs.
    const call = sent('tools/call').at(-1);
    expect(call?.id).toEqual(expect.stringMatching(new RegExp(`^${RAW_REQUEST_ID_PREFIX}`)));
    expect(JSON.parse(call?.body ?? '{}').params._meta['io.modelcontextprotocol/clientCapabilities']).toMatchObject({ extensions: { 'io.modelcontextprotocol/tasks': {} } });
    const polls = sent('tasks/get').map((entry) => entry.time);
    expect(polls.length).toBeGreaterThanOrEqual(3);
    for (let index = 1; index < polls.length; index += 1) expect((polls[index] ?? 0) - (polls[index - 1] ?? 0)).toBeGreaterThanOrEqual(POLL_MS - 25);
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
    const { outcome } = await execution.settle({ onEvent: (event) => void statuses.push(taskViewFromExecutionEvent(event)?.status ?? 'outcome') });
    expect(resultFromTaskOutcome(outcome).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);

    expect(asked).toHaveLength(1);
    expect(asked[0]?.request).toMatchObject({ kind: 'elicitation', params: { message: 'Whom should I greet?' } });
    expect(asked[0]?.context).toMatchObject({ scope: 'task', delivery: 'task-update', inputId: 'name', taskId: execution.handle?.taskId });
    expect(statuses).toContain('input_required');
    const update = sent('tasks/update');
    expect(update).toHaveLength(1);
    expect(JSON.parse(update[0]?.body ?? '{}').params).toMatchObject({ taskId: execution.handle?.taskId, inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } });
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
    expect(sent('tasks/cancel').map((entry) => JSON.parse(entry.body ?? '{}').params.taskId)).toEqual([execution.handle.taskId]);

    // Asked past the session: the server's own view of the task.
    const { rawDispatch } = modernTaskSessionOptions(client, { requestTimeoutMs: 5_000 });
    const _meta = { ...envelopeOf(client), 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
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
    expect(await rawDispatch({ method: 'tools/call', params: { name: 'slow_report', arguments: {}, _meta: envelopeOf(client) } })).toMatchObject({ kind: 'error', error: { code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } } });
  });
});
