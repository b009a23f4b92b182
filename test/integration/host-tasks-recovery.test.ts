import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../shared/domain/chat';
import type { LogEntry } from '../../shared/domain/log';
import type { TaskRecord } from '../../shared/domain/task';
import { STDIO_TASK_LOST } from '../../app/tasks/tool-task-session';
import {
  addEverything,
  eventAfter,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';
import { waitFor } from './host-harness';
import type { HostHarness } from './host-harness';

const FIXTURE = resolve(__dirname, '../../e2e/fixtures/servers/task-http.mjs');

let world: ChatWorld | undefined;
let fixture: ChildProcess | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
  if (fixture !== undefined && fixture.exitCode === null) {
    const exited = new Promise((done) => fixture?.once('exit', done));
    fixture.kill('SIGKILL');
    await exited;
  }
  fixture = undefined;
});

/** The task-http fixture on `port` (default: a free one); resolves with its /mcp URL. */
async function startFixture(port = 0): Promise<string> {
  const child = spawn(process.execPath, [FIXTURE], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  fixture = child;
  const listening = await new Promise<string>((done, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match?.[1] !== undefined) done(match[1]);
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => fail(new Error(`task-http exited with ${code}: ${output}`)));
  });
  return `http://127.0.0.1:${listening}/mcp`;
}

async function stopFixture(): Promise<void> {
  const child = fixture;
  if (child === undefined || child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGKILL');
  await exited;
}

/** The model calls `tool` with `input`, the person allows it; resolves with the Berth task id once the task runs. */
async function startTask(
  harness: HostHarness,
  fake: ChatWorld['fake'],
  tool: string,
  input: Record<string, unknown>,
): Promise<string> {
  const { id } = await newConversation(harness);
  fake.script([{ toolUses: [{ name: tool, input }] }, { text: 'ok' }]);
  const mark = harness.events.length;
  await harness.call('chat.send', { id, text: 'Go' });
  await harness.call('pending.answer', {
    id: (await pendingAfter(harness, mark, 'tool-call')).id,
    response: { decision: 'allow-once' },
  });
  const working = (await eventAfter(
    harness,
    mark,
    'chat.event',
    (event) => event.type === 'tool-task' && event.status === 'working',
  )) as Extract<ChatEvent, { type: 'tool-task' }>;
  return working.taskId;
}

async function taskRecord(harness: HostHarness, id: string): Promise<TaskRecord | undefined> {
  return (await harness.call<TaskRecord[]>('tasks.list', {})).find((record) => record.id === id);
}

describe('MCP tasks across a Berth restart', () => {
  it("an HTTP server's task is left running when Berth quits, then picked up again and followed to its end", async () => {
    const url = await startFixture();
    world = await startChatWorld();
    let harness = world.harness;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await harness.call('servers.add', { name: 'remote', config: { url } });
    await harness.waitForEvent('servers.changed', (state) => state.name === 'remote' && state.status === 'ready');
    const id = await startTask(harness, world.fake, 'remote__slow-task', { ms: 5_000 });
    await harness.host.shutdown();

    const saved = JSON.parse(await readFile(join(world.dir, 'state', 'tasks.json'), 'utf8')) as {
      tasks: Array<{ record: TaskRecord; reference?: { taskId: string } }>;
    };
    const entry = saved.tasks.find((task) => task.record.id === id);
    expect(entry?.record).toMatchObject({ status: 'working', tool: 'slow-task', server: 'remote' });
    expect(entry?.reference?.taskId).toBe(entry?.record.taskId);
    harness = await world.restart();
    expect(await taskRecord(harness, id)).toMatchObject({ status: 'working' });
    // Quitting is not the person's Stop: had Berth sent tasks/cancel, the task could not complete now.
    await waitFor(async () => (await taskRecord(harness, id))?.status === 'completed', 30_000);
    // Its chat call ended "stopped" when Berth quit: the record says that was Berth's doing, not the person's.
    expect(await taskRecord(harness, id)).toMatchObject({ berthQuit: true });
    const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', { server: 'remote', limit: 10_000 });
    expect(
      entries.some(
        (line) =>
          line.source === 'host' &&
          line.text.includes('picked up task') &&
          line.text.includes('again after the restart'),
      ),
    ).toBe(true);
  }, 90_000);

  it('a task its HTTP server no longer knows after the restart is marked lost, saying it could not be picked up again', async () => {
    const url = await startFixture();
    world = await startChatWorld();
    let harness = world.harness;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await harness.call('servers.add', { name: 'remote', config: { url } });
    await harness.waitForEvent('servers.changed', (state) => state.name === 'remote' && state.status === 'ready');
    const id = await startTask(harness, world.fake, 'remote__slow-task', { ms: 60_000 });
    await harness.host.shutdown();
    // The server restarts too, at the same address, with none of its old tasks.
    await stopFixture();
    await startFixture(Number(new URL(url).port));

    harness = await world.restart();
    await waitFor(async () => (await taskRecord(harness, id))?.status === 'lost', 30_000);
    expect((await taskRecord(harness, id))?.statusMessage).toMatch(
      /^could not pick it up again after the restart: expired — no longer on the server/,
    );
    expect((await taskRecord(harness, id))?.statusWording).toMatchObject({
      code: 'task-errors.status-resume-expired',
      params: { detail: expect.any(String) },
    });
    expect(await taskRecord(harness, id)).toMatchObject({ expired: true, berthQuit: true });
  }, 90_000);

  it("a stdio server's running task is marked lost after a restart, with the reason", async () => {
    world = await startChatWorld();
    let harness = world.harness;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addEverything(harness);
    const id = await startTask(harness, world.fake, 'everything__simulate-research-query', { topic: 'gone' });
    await harness.host.shutdown();

    harness = await world.restart();
    expect(await taskRecord(harness, id)).toMatchObject({
      status: 'lost',
      statusMessage: STDIO_TASK_LOST.statusMessage,
      statusWording: { code: 'task-errors.status-process-ended' },
      tool: 'simulate-research-query',
      berthQuit: true,
    });
  }, 60_000);
});
