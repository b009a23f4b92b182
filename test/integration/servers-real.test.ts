import { mkdir, writeFile } from 'node:fs/promises';
import { serverTools } from '../../shared/domain/server-state-read';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverConfig, waitUntil } from '../../app/servers/test-support';
import { binOf, collectLogs, supervisorPerTest } from './supervisor-harness';

function textOf(result: { content: unknown[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');
}

describe('real MCP servers from npm', () => {
  const servers = supervisorPerTest(collectLogs);

  it('server-everything over stdio: ready, tools, echo, stderr, log level and notifications', async () => {
    await servers.supervisor.sync({
      everything: serverConfig({
        command: process.execPath,
        args: [binOf('@modelcontextprotocol/server-everything'), 'stdio'],
        env: { API_TOKEN: 'tok-123456' },
        secretEnv: ['API_TOKEN'],
      }),
    });
    const state = servers.supervisor.get('everything');
    expect(state).toMatchObject({ status: 'ready', era: 'legacy', serverInfo: { name: 'mcp-servers/everything' } });
    expect(state?.config.env.API_TOKEN).toBe('••••••••');
    const names = serverTools(state).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'toggle-simulated-logging']));

    const echo = await servers.supervisor.callTool('everything', 'echo', { message: 'hi there' });
    expect(textOf(echo)).toBe('Echo: hi there');
    await waitUntil(() => servers.logs.for('everything', 'stderr').length > 0, 10_000, 'stderr output');
    expect(servers.logs.texts('everything', 'stderr').join('\n')).toMatch(/Starting default \(STDIO\) server/);

    // get-env shows the server's environment: the secret must not reach the log.
    const env = await servers.supervisor.callTool('everything', 'get-env', {});
    expect(textOf(env)).toContain('tok-123456');
    expect(
      servers.logs.entries.some(
        (entry) => (entry.body ?? '').includes('tok-123456') || entry.text.includes('tok-123456'),
      ),
    ).toBe(false);

    const leveled = await servers.supervisor.setLogLevel('everything', 'debug');
    expect(leveled.logLevel).toBe('debug');
    expect(
      servers.logs
        .for('everything', 'trace')
        .some((entry) => entry.method === 'logging/setLevel' && entry.direction === 'out'),
    ).toBe(true);
    await servers.supervisor.callTool('everything', 'toggle-simulated-logging', {});
    await waitUntil(() => servers.logs.for('everything', 'notification').length > 0, 20_000, 'a notifications/message');
    const note = servers.logs.for('everything', 'notification')[0];
    expect(note?.level).toBeDefined();
    expect(note?.text.length).toBeGreaterThan(0);
  });

  it('server-filesystem with a temp dir: list and read a file through tools', async () => {
    const root = join(servers.dir, 'files');
    await mkdir(root);
    await writeFile(join(root, 'hello.txt'), 'hello from berth\n');
    await servers.supervisor.sync({
      fs: serverConfig({ command: process.execPath, args: [binOf('@modelcontextprotocol/server-filesystem'), root] }),
    });
    const state = servers.supervisor.get('fs');
    expect(state?.status).toBe('ready');
    expect(serverTools(state).map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['list_directory', 'read_text_file']),
    );
    const listing = await servers.supervisor.callTool('fs', 'list_directory', { path: root });
    expect(textOf(listing)).toContain('hello.txt');
    const read = await servers.supervisor.callTool('fs', 'read_text_file', { path: join(root, 'hello.txt') });
    expect(textOf(read)).toContain('hello from berth');
    const outside = await servers.supervisor.callTool('fs', 'read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
  });
});
