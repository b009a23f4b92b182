import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerConnection } from '../../app/servers/server-connection';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, REPO_ROOT, serverConfig, tempDir, waitUntil } from '../../app/servers/test-support';
import { TaskRegistry } from '../../app/tasks/task-registry';
import type { ReceiverTaskRequests } from '../../app/tasks/task-capabilities';
import { ToolTasks } from '../../app/tasks/tool-tasks';

const everything = serverConfig({ command: process.execPath, args: [`${REPO_ROOT}/node_modules/@modelcontextprotocol/server-everything/dist/index.js`, 'stdio'] });
const RECEIVER: ReceiverTaskRequests = { sampling: { createMessage: {} }, elicitation: { create: {} } };

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

/** A supervisor whose connections are task-aware (as in host.ts), declaring sampling and elicitation, with the receiver's part of `tasks` or none. */
async function start(receiver: ReceiverTaskRequests | undefined): Promise<World> {
  const dir = await tempDir('berth-tasks-');
  const logs = new LogCollector();
  const registry = new TaskRegistry();
  const tasks = await ToolTasks.open({ stateDir: dir.path, registry, logs, optionalAsTasks: () => true, receiverRequests: () => receiver });
  const supervisor = new ServerSupervisor({
    logs,
    stateDir: dir.path,
    onState: (state) => tasks.serverChanged(state),
    clientSetup: (server: string, client: Client) => {
      client.registerCapabilities({ sampling: {}, elicitation: { form: {} } });
      client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
      tasks.clientSetup(server, client);
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

const toolNames = (supervisor: ServerSupervisor): string[] => (supervisor.get('everything')?.tools ?? []).map((tool) => tool.name);

describe('tool tasks through the supervisor (server-everything)', () => {
  it("declares tasks only with the receiver's part; then server-everything offers its *-async tools", async () => {
    const { supervisor } = await start(RECEIVER);
    await supervisor.sync({ everything });
    await waitUntil(() => toolNames(supervisor).includes('trigger-sampling-request-async'), 20_000, 'the async tools');
    expect(toolNames(supervisor)).toContain('trigger-elicitation-request-async');
  }, 30_000);

  it('claims no tasks capability without a receiver (server-everything then offers no *-async tools)', async () => {
    const { supervisor } = await start(undefined);
    await supervisor.sync({ everything });
    await waitUntil(() => supervisor.get('everything')?.status === 'ready', 20_000, 'ready');
    // The conditional tools are registered right after initialized; give a list_changed time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(toolNames(supervisor)).toContain('simulate-research-query');
    expect(toolNames(supervisor)).not.toContain('trigger-sampling-request-async');
  }, 30_000);

  it('supervisor.callTool runs a task-required tool as a task and returns its result as an ordinary CallToolResult', async () => {
    const { supervisor, registry } = await start(undefined);
    await supervisor.sync({ everything });
    await waitUntil(() => supervisor.get('everything')?.status === 'ready', 20_000, 'ready');
    const result = await supervisor.callTool('everything', 'simulate-research-query', { topic: 'rivers' });
    const text = result.content.map((block) => ('text' in block ? block.text : '')).join('');
    expect(text).toContain('# Research Report: rivers');
    expect(registry.list()).toEqual([expect.objectContaining({ server: 'everything', tool: 'simulate-research-query', status: 'completed' })]);
  }, 30_000);
});
