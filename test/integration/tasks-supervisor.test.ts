import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerConnection } from '../../app/servers/server-connection';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, REPO_ROOT, serverConfig, tempDir, waitUntil } from '../../app/servers/test-support';
import { TaskRegistry } from '../../app/tasks/task-registry';
import { ToolTasks } from '../../app/tasks/tool-tasks';

const everything = serverConfig({
  command: process.execPath,
  args: [`${REPO_ROOT}/node_modules/@modelcontextprotocol/server-everything/dist/index.js`, 'stdio'],
});

interface World {
  supervisor: ServerSupervisor;
  registry: TaskRegistry;
  cleanup(): Promise<void>;
}

let world: World | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

/** A supervisor whose connections are task-aware (as in host.ts), declaring sampling and elicitation. */
async function start(): Promise<World> {
  const dir = await tempDir('berth-tasks-');
  const logs = new LogCollector();
  const registry = new TaskRegistry();
  const tasks = await ToolTasks.open({ stateDir: dir.path, registry, logs, optionalAsTasks: () => true });
  const supervisor = new ServerSupervisor({
    logs,
    stateDir: dir.path,
    onState: (state) => tasks.serverChanged(state),
    clientSetup: (_server: string, client: Client) => {
      client.registerCapabilities({ sampling: {}, elicitation: { form: {} } });
      client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
    },
    openConnection: tasks.wrap(ServerConnection.open),
  });
  world = {
    supervisor,
    registry,
    cleanup: async () => {
      await supervisor.shutdown();
      await dir.cleanup();
    },
  };
  return world;
}

describe('tool tasks through the supervisor (server-everything)', () => {
  it('supervisor.callTool runs a task-required tool as a task and returns its result as an ordinary CallToolResult', async () => {
    const { supervisor, registry } = await start();
    await supervisor.sync({ everything });
    await waitUntil(() => supervisor.get('everything')?.status === 'ready', 20_000, 'ready');
    const result = await supervisor.callTool('everything', 'simulate-research-query', { topic: 'rivers' });
    const text = result.content.map((block) => ('text' in block ? block.text : '')).join('');
    expect(text).toContain('# Research Report: rivers');
    expect(registry.list()).toEqual([
      expect.objectContaining({ server: 'everything', tool: 'simulate-research-query', status: 'completed' }),
    ]);
  }, 30_000);
});
