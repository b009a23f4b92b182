import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, REPO_ROOT, StateRecorder, serverConfig, tempDir, waitUntil } from '../../app/servers/test-support';

/** The stdio entry of an npm-installed server, from its package.json `bin`. */
function binOf(pkg: string): string {
  const dir = join(REPO_ROOT, 'node_modules', pkg);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  if (bin === undefined) throw new Error(`${pkg} has no bin`);
  return join(dir, bin);
}

function textOf(result: { content: unknown[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');
}

describe('real MCP servers from npm', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let logs: LogCollector;
  let supervisor: ServerSupervisor;

  beforeEach(async () => {
    dir = await tempDir();
    logs = new LogCollector();
    supervisor = new ServerSupervisor({ logs, stateDir: dir.path, onState: new StateRecorder().onState });
  });
  afterEach(async () => {
    await supervisor.shutdown();
    await dir.cleanup();
  });

  it('server-everything over stdio: ready, tools, echo, stderr, log level and notifications', async () => {
    await supervisor.sync({
      everything: serverConfig({ command: process.execPath, args: [binOf('@modelcontextprotocol/server-everything'), 'stdio'], env: { API_TOKEN: 'tok-123456' }, secretEnv: ['API_TOKEN'] }),
    });
    const state = supervisor.get('everything');
    expect(state).toMatchObject({ status: 'ready', era: 'legacy', serverInfo: { name: 'mcp-servers/everything' } });
    expect(state?.config.env.API_TOKEN).toBe('••••••••');
    const names = state?.tools.map((tool) => tool.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'toggle-simulated-logging']));

    const echo = await supervisor.callTool('everything', 'echo', { message: 'hi there' });
    expect(textOf(echo)).toBe('Echo: hi there');
    await waitUntil(() => logs.for('everything', 'stderr').length > 0, 10_000, 'stderr output');
    expect(logs.texts('everything', 'stderr').join('\n')).toMatch(/Starting default \(STDIO\) server/);

    // get-env shows the server's environment: the secret must not reach the log.
    const env = await supervisor.callTool('everything', 'get-env', {});
    expect(textOf(env)).toContain('tok-123456');
    expect(logs.entries.some((entry) => (entry.body ?? '').includes('tok-123456') || entry.text.includes('tok-123456'))).toBe(false);

    const leveled = await supervisor.setLogLevel('everything', 'debug');
    expect(leveled.logLevel).toBe('debug');
    expect(logs.for('everything', 'trace').some((entry) => entry.method === 'logging/setLevel' && entry.direction === 'out')).toBe(true);
    await supervisor.callTool('everything', 'toggle-simulated-logging', {});
    await waitUntil(() => logs.for('everything', 'notification').length > 0, 20_000, 'a notifications/message');
    const note = logs.for('everything', 'notification')[0];
    expect(note?.level).toBeDefined();
    expect(note?.text.length).toBeGreaterThan(0);
  });

  it('server-filesystem with a temp dir: list and read a file through tools', async () => {
    const root = join(dir.path, 'files');
    await mkdir(root);
    await writeFile(join(root, 'hello.txt'), 'hello from berth\n');
    await supervisor.sync({ fs: serverConfig({ command: process.execPath, args: [binOf('@modelcontextprotocol/server-filesystem'), root] }) });
    const state = supervisor.get('fs');
    expect(state?.status).toBe('ready');
    expect(state?.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['list_directory', 'read_text_file']));
    const listing = await supervisor.callTool('fs', 'list_directory', { path: root });
    expect(textOf(listing)).toContain('hello.txt');
    const read = await supervisor.callTool('fs', 'read_text_file', { path: join(root, 'hello.txt') });
    expect(textOf(read)).toContain('hello from berth');
    const outside = await supervisor.callTool('fs', 'read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
  });
});
