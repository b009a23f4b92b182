import { spawn, type ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import type { SerializedTaskReference, TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { BerthClient } from '../../app/servers/berth-client';
import { fixture, serverConfig } from '../../app/servers/test-support';
import { modernTaskSessionOptions } from '../../app/tasks/modern-dispatch';
import { collectLogs, supervisorPerTest } from './supervisor-harness';

/**
 * The 2026-07-28 tasks extension over Streamable HTTP: the modern-tasks
 * fixture as a remote server (the SDK's HTTP entry checks the SEP-2243
 * headers, `Mcp-Name` = the taskId on tasks/*), Berth's HTTP transport, and
 * the raw dispatch of app/tasks/modern-dispatch.ts.
 */

const SERVER = 'remote-tasks';
const clients = new Map<string, BerthClient>();
const servers = supervisorPerTest(collectLogs, {
  clientVersion: '0.1.0-test',
  clientSetup: (name: string, client: Client) => clients.set(name, client as BerthClient),
});
const sessions: TaskEnabledSession[] = [];
let remote: { child: ChildProcess; output: string[] } | undefined;

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  clients.clear();
  if (remote !== undefined && remote.child.exitCode === null) {
    const exited = new Promise((resolve) => remote?.child.once('exit', resolve));
    remote.child.kill();
    await exited;
  }
  remote = undefined;
});

/** The fixture listening on a free port; resolves with its /mcp URL. */
async function startRemote(): Promise<string> {
  const child = spawn(process.execPath, [fixture('modern-tasks.mjs'), '--http', '0'], {
    env: { ...process.env, BERTH_FIXTURE_POLL_MS: '200' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const output: string[] = [];
  remote = { child, output };
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`modern-tasks --http exited early with ${code}: ${output.join('')}`)),
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      const listening = /listening on port (\d+)/.exec(output.join(''));
      if (listening?.[1] !== undefined) resolve(Number(listening[1]));
    });
  });
  return `http://127.0.0.1:${port}/mcp`;
}

async function connect(): Promise<{ client: BerthClient; session: TaskEnabledSession }> {
  await servers.supervisor.sync({ [SERVER]: serverConfig({ url: await startRemote() }) });
  expect(servers.supervisor.get(SERVER)).toMatchObject({
    status: 'ready',
    era: 'modern',
    transport: 'streamable-http',
  });
  const client = clients.get(SERVER);
  if (client === undefined || !servers.supervisor.isCurrentClient(SERVER, client))
    throw new Error('no live client for the remote fixture');
  const session = createTaskSessionFromClient(client, {
    endpointId: SERVER,
    ...modernTaskSessionOptions(client, { requestTimeoutMs: 10_000 }),
  });
  sessions.push(session);
  return { client, session };
}

const sent = (method: string) =>
  servers.logs.for(SERVER, 'trace').filter((entry) => entry.direction === 'out' && entry.method === method);

describe('tasks of the 2026-07-28 era over Streamable HTTP', () => {
  it('runs a task to completion and cancels another, each tasks/* request accepted by the server’s header checks', async () => {
    const { session } = await connect();
    const report = await session.callTool('slow_report', { steps: 2, stepMs: 300 });
    expect(report.kind).toBe('task');
    const { outcome } = await report.settle();
    expect(resultFromTaskOutcome(outcome).content).toEqual([
      { type: 'text', text: expect.stringMatching(/^report of 2 steps; \d+ polls, 0 sooner than 200 ms$/) },
    ]);
    expect(sent('tasks/get').length).toBeGreaterThanOrEqual(2);

    const endless = await session.callTool('run_until_cancelled', {});
    if (endless.kind !== 'task') throw new Error('expected a task');
    const settled = endless.settle();
    await expect.poll(() => sent('tasks/get').length).toBeGreaterThanOrEqual(4);
    await endless.cancel();
    expect((await settled).outcome.status).toBe('cancelled');
    expect(sent('tasks/cancel')).toHaveLength(1);
  });

  it('gives up on a request by closing its stream (no notifications/cancelled), and the server sees it end', async () => {
    const { client } = await connect();
    const { rawDispatch } = modernTaskSessionOptions(client, { requestTimeoutMs: 10_000 });
    const envelope = client.requestEnvelope() as Record<string, JsonValue>;
    await expect(
      rawDispatch(
        { method: 'tools/call', params: { name: 'stall', arguments: {}, _meta: envelope } },
        { context: { requestTimeoutMs: 400 } },
      ),
    ).rejects.toThrow("the server did not answer 'tools/call' within 0.4 s");
    await expect.poll(() => remote?.output.join('') ?? '').toContain('request cancelled: stall');
    expect(sent('notifications/cancelled')).toHaveLength(0);
  });

  it('resumes a task from its saved reference on a new connection (as after a Berth restart)', async () => {
    const first = await connect();
    const execution = await first.session.callTool('slow_report', { steps: 4, stepMs: 400 });
    if (execution.kind !== 'task') throw new Error('expected a task');
    let saved: SerializedTaskReference | undefined;
    await execution.handoff((reference) => {
      saved = reference;
    });
    // ext-tasks 0.2.2: session.close() cancels every execution it still tracks, and a handed-off one is
    // tracked until its result() settles (with the "closed" error), a few ticks after handoff resolves.
    await execution.result().catch(() => undefined);
    await first.session.close();
    if (saved === undefined) throw new Error('no reference was handed off');
    expect(saved).toMatchObject({
      endpointId: SERVER,
      generation: 'v2',
      taskId: execution.handle.taskId,
      originalOperation: 'tools/call',
    });

    await servers.supervisor.restart(SERVER);
    const client = clients.get(SERVER);
    if (client === undefined || client === first.client || !servers.supervisor.isCurrentClient(SERVER, client))
      throw new Error('expected a new live client');
    const session = createTaskSessionFromClient(client, {
      endpointId: SERVER,
      ...modernTaskSessionOptions(client, { requestTimeoutMs: 10_000 }),
    });
    sessions.push(session);
    const resumed = await session.resumeTask(JSON.parse(JSON.stringify(saved)) as SerializedTaskReference);
    const { outcome } = await resumed.settle();
    expect(resultFromTaskOutcome(outcome).content).toEqual([
      { type: 'text', text: expect.stringMatching(/^report of 4 steps;/) },
    ]);
    expect(sent('tasks/cancel')).toHaveLength(0);
  });
});
