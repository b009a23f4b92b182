import { afterEach, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { ServerConnection } from '../../app/servers/server-connection';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, REPO_ROOT, serverConfig, tempDir, waitUntil } from '../../app/servers/test-support';
import { TaskRegistry } from '../../app/tasks/task-registry';
import { ToolTasks } from '../../app/tasks/tool-tasks';
import { EXPIRED_TASK } from '../../app/tasks/tool-task-session';

const misbehaving = serverConfig({
  command: process.execPath,
  args: [`${REPO_ROOT}/e2e/fixtures/servers/task-misbehave.mjs`],
});

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

interface World {
  supervisor: ServerSupervisor;
  registry: TaskRegistry;
  logs: LogCollector;
}

/** The supervisor with Berth's tool tasks over the task-misbehave fixture, ready. */
async function start(): Promise<World> {
  const dir = await tempDir('berth-tasks-misbehave-');
  const logs = new LogCollector();
  const registry = new TaskRegistry();
  const tasks = await ToolTasks.open({ stateDir: dir.path, registry, logs, optionalAsTasks: () => true });
  const supervisor = new ServerSupervisor({
    logs,
    stateDir: dir.path,
    onState: (state) => tasks.serverChanged(state),
    openConnection: tasks.wrap(ServerConnection.open),
  });
  cleanup = async () => {
    await supervisor.shutdown();
    await dir.cleanup();
  };
  await supervisor.sync({ fixture: misbehaving });
  await waitUntil(() => supervisor.get('fixture')?.status === 'ready', 20_000, 'ready');
  return { supervisor, registry, logs };
}

function text(result: CallToolResult): string {
  return result.content.map((block) => ('text' in block ? block.text : '')).join('');
}

describe('tasks that misbehave (task-misbehave fixture server)', () => {
  it('a server asking to be polled every 1 ms is polled no more than every 500 ms', async () => {
    const { supervisor, logs } = await start();
    const result = await supervisor.callTool('fixture', 'fast-poll', { ms: 3_000 });
    expect(text(result)).toBe('fast-poll finished after 3000 ms');
    const polls = logs.texts('fixture', 'stderr').filter((line) => line.startsWith('tasks/get'));
    // 3 s at 500 ms apart: 6 polls, a 7th if the last one lands just after the end.
    expect(polls.length).toBeGreaterThanOrEqual(3);
    expect(polls.length).toBeLessThanOrEqual(7);
  }, 30_000);

  it('a task id the server gives a second call while the first is live is refused for that call; the first gets its own result', async () => {
    const { supervisor, registry } = await start();
    const first = supervisor.callTool('fixture', 'same-id', { label: 'first', ms: 1_500 });
    await waitUntil(() => registry.list().length === 1, 10_000, 'the first task');
    const second = supervisor.callTool('fixture', 'same-id', { label: 'second', ms: 200 });
    await expect(second).rejects.toThrow(
      /server 'fixture' gave tool 'same-id' the task id 'reused', which an earlier call's task still uses: .*the server's fault/,
    );
    await expect(second).rejects.toMatchObject({
      hostMessage: { code: 'task-errors.reused-id', params: { server: 'fixture', tool: 'same-id', taskId: 'reused' } },
    });
    expect(text(await first)).toBe('same-id answered first');
    expect(registry.list()).toMatchObject([{ taskId: 'reused', tool: 'same-id', status: 'completed' }]);
  }, 30_000);

  it('a task the server purged reads "expired — no longer on the server", not a failure with its stale "working…"', async () => {
    const { supervisor, registry } = await start();
    const call = supervisor.callTool('fixture', 'forgotten', { ms: 600 });
    await expect(call).rejects.toThrow(
      /the task of tool 'forgotten' on server 'fixture' expired — it is no longer on the server/,
    );
    await expect(call).rejects.toMatchObject({
      hostMessage: { code: 'task-errors.expired', params: { tool: 'forgotten', server: 'fixture' } },
    });
    const [record] = registry.list();
    expect(record).toMatchObject({
      tool: 'forgotten',
      status: 'lost',
      expired: true,
      statusMessage: EXPIRED_TASK,
      statusWording: { code: 'task-errors.status-expired' },
    });
    expect(record?.error).toBeUndefined();
  }, 30_000);
});
