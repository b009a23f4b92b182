import { afterEach, describe, expect, it } from 'vitest';
import { ServerConnection } from '../../app/servers/server-connection';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, REPO_ROOT, serverConfig, tempDir, waitUntil } from '../../app/servers/test-support';
import { TaskRegistry } from '../../app/tasks/task-registry';
import { ToolTasks } from '../../app/tasks/tool-tasks';

const optionalTool = serverConfig({
  command: process.execPath,
  args: [`${REPO_ROOT}/e2e/fixtures/servers/task-optional.mjs`],
});

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe("the per-server choice for tools that may run as tasks (fixture server with a taskSupport 'optional' tool)", () => {
  it('is read on every call: off, the tool is called plainly; on again, the next call is a task, without a restart', async () => {
    const dir = await tempDir('berth-tasks-optional-');
    const logs = new LogCollector();
    const registry = new TaskRegistry();
    // What SettingsStore.tasksForOptionalTools answers in the host (app/host.ts).
    let asTasks = true;
    const tasks = await ToolTasks.open({ stateDir: dir.path, registry, logs, optionalAsTasks: () => asTasks });
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
    await supervisor.sync({ fixture: optionalTool });
    await waitUntil(() => supervisor.get('fixture')?.status === 'ready', 20_000, 'ready');
    const pid = supervisor.get('fixture')?.pid;
    const callText = async () => {
      const result = await supervisor.callTool('fixture', 'maybe-task', { ms: 50 });
      return result.content.map((block) => ('text' in block ? block.text : '')).join('');
    };
    const calls = () => logs.texts('fixture', 'stderr').filter((line) => line.startsWith('tools/call'));

    expect(await callText()).toBe('maybe-task finished after 50 ms');
    await waitUntil(() => calls().length === 1, 5_000, 'the first call in the log');
    expect(registry.list()).toHaveLength(1);

    asTasks = false;
    expect(await callText()).toBe('maybe-task finished after 50 ms');
    await waitUntil(() => calls().length === 2, 5_000, 'the second call in the log');
    expect(registry.list()).toHaveLength(1);

    asTasks = true;
    expect(await callText()).toBe('maybe-task finished after 50 ms');
    await waitUntil(() => calls().length === 3, 5_000, 'the third call in the log');
    expect(registry.list()).toHaveLength(2);
    expect(registry.list().every((task) => task.tool === 'maybe-task' && task.status === 'completed')).toBe(true);

    expect(calls()).toEqual([
      'tools/call maybe-task as a task',
      'tools/call maybe-task plainly',
      'tools/call maybe-task as a task',
    ]);
    // One process throughout: the change needed no restart.
    expect(supervisor.get('fixture')?.pid).toBe(pid);
  }, 30_000);
});
