import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SandboxServerSettingsView } from '../../shared/contract/sandbox';
import type { LogEntry } from '../../shared/domain/log';
import type { ServerState } from '../../shared/domain/server';
import { sandboxSupport } from '../../app/sandbox/sandbox-runtime';
import { hostPerTest, waitFor } from './host-harness';

const ECHO = resolve(__dirname, '../../e2e/fixtures/servers/modern-echo.mjs');
const support = await sandboxSupport();
const world = hostPerTest('berth-sandbox-add-');

async function logsOf(harness: Awaited<ReturnType<typeof world.start>>, server: string): Promise<string[]> {
  const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', { server, limit: 500 });
  return entries.map((entry) => entry.text);
}

// Each case needs the machine one way: with bubblewrap, socat and ripgrep (npm test installs them on Linux as root),
// or without them. Where they are installed, the refusal case is skipped here; the same refusal of a start is covered
// with a machine check that says "unavailable" (sandbox-service-turns.test.ts, sandbox-hostile.test.ts).
describe('a new server gets its sandbox before its first start', () => {
  it.skipIf(!support.available)(`servers.add with the sandbox on starts it sandboxed, never once without`, async () => {
    const harness = await world.start();
    // Beside Berth's config folder, not in it (a folder inside it is refused).
    const reports = join(dirname(world.dir), `berth-reports-${process.pid}`);
    await harness.call('servers.add', {
      name: 'echo',
      config: { command: process.execPath, args: [ECHO] },
      sandbox: { enabled: true, allowedFolders: [reports], allowedDomains: ['API.example.com'] },
    });
    await harness.waitForEvent('servers.changed', (state) => state.name === 'echo' && state.status === 'ready');
    const settings = await harness.call<SandboxServerSettingsView[]>('sandbox.serverSettings', {});
    expect(settings).toEqual([
      {
        server: 'echo',
        applies: true,
        enabled: true,
        allowedFolders: [reports],
        allowedDomains: ['api.example.com'],
        offered: true,
      },
    ]);
    // Its one start ran in the sandbox: the host says so for each process it spawns, and no process came before it.
    await waitFor(async () => (await logsOf(harness, 'echo')).some((text) => text.startsWith('runs in the sandbox')));
    const spawns = (await logsOf(harness, 'echo')).filter((text) => text.startsWith('spawned pid'));
    expect(spawns).toHaveLength(1);
    expect(spawns[0]).toMatch(/\(in the sandbox\)$/);
    // Stored as asked: enabled (it starts with Berth) in config.json.
    const config = JSON.parse(await readFile(join(world.dir, 'config.json'), 'utf8')) as {
      mcpServers: Record<string, { enabled?: boolean }>;
    };
    expect(config.mcpServers.echo?.enabled ?? true).toBe(true);
  });

  it('a server added with the sandbox off is marked offered (the person chose), and one added without a choice is not', async () => {
    const harness = await world.start();
    await harness.call('servers.add', {
      name: 'chosen',
      config: { command: process.execPath, args: [ECHO], enabled: false },
      sandbox: { enabled: false },
    });
    await harness.call('servers.add', {
      name: 'plain',
      config: { command: process.execPath, args: [ECHO], enabled: false },
    });
    const settings = await harness.call<SandboxServerSettingsView[]>('sandbox.serverSettings', {});
    expect(settings.map(({ server, enabled, offered }) => ({ server, enabled, offered }))).toEqual([
      { server: 'chosen', enabled: false, offered: true },
      { server: 'plain', enabled: false, offered: false },
    ]);
    const config = JSON.parse(await readFile(join(world.dir, 'config.json'), 'utf8')) as {
      mcpServers: Record<string, { enabled?: boolean }>;
    };
    expect(config.mcpServers.chosen?.enabled).toBe(false);
  });

  it('a bad folder is refused and leaves no server behind', async () => {
    const harness = await world.start();
    const result = await harness.host.dispatch('servers.add', {
      name: 'echo',
      config: { command: process.execPath, args: [ECHO] },
      sandbox: { enabled: support.available, allowedFolders: ['/'] },
    });
    expect(result).toMatchObject({ ok: false });
    expect(await harness.call<ServerState[]>('servers.list', {})).toEqual([]);
    const config = JSON.parse(
      await readFile(join(world.dir, 'config.json'), 'utf8').catch(() => '{"mcpServers":{}}'),
    ) as { mcpServers: Record<string, unknown> };
    expect(config.mcpServers).toEqual({});
    expect(await harness.call<SandboxServerSettingsView[]>('sandbox.serverSettings', {})).toEqual([]);
  });

  it.skipIf(support.available)(
    'where the sandbox is unavailable, adding with it on is refused saying why, and nothing is added',
    async () => {
      const harness = await world.start();
      const result = await harness.host.dispatch('servers.add', {
        name: 'echo',
        config: { command: process.execPath, args: [ECHO] },
        sandbox: { enabled: true },
      });
      expect(result).toMatchObject({
        ok: false,
        code: 'FORBIDDEN',
        message: expect.stringContaining('The sandbox is unavailable here'),
      });
      expect(await harness.call<ServerState[]>('servers.list', {})).toEqual([]);
    },
  );

  it('an HTTP server: the sandbox does not apply to it, whatever was chosen', async () => {
    const harness = await world.start();
    await harness.call('servers.add', {
      name: 'web',
      config: { url: 'https://mcp.example.invalid/mcp', enabled: false },
      sandbox: { enabled: false },
    });
    const settings = await harness.call<SandboxServerSettingsView[]>('sandbox.serverSettings', {});
    expect(settings).toEqual([expect.objectContaining({ server: 'web', applies: false })]);
    // Asking for it on a remote server is refused (it would read as protected while nothing is), and nothing is added.
    const refused = await harness.host.dispatch('servers.add', {
      name: 'web2',
      config: { url: 'https://mcp.example.invalid/mcp', enabled: false },
      sandbox: { enabled: true },
    });
    expect(refused).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      message: expect.stringContaining('The sandbox is for local servers'),
      hostMessage: { code: 'sandbox-errors.local-only', params: {} },
    });
    expect((await harness.call<ServerState[]>('servers.list', {})).map((state) => state.name)).toEqual(['web']);
  });

  it.skipIf(!support.available)(
    'an import with the sandbox on sets it for each local server it adds (added turned off, so before any start); remote ones are left alone',
    async () => {
      const harness = await world.start();
      const text = JSON.stringify({
        mcpServers: {
          echo: { command: process.execPath, args: [ECHO] },
          web: { url: 'https://mcp.example.invalid/mcp' },
        },
      });
      const source = { kind: 'text', format: 'claude-desktop', text };
      await harness.call('configImport.apply', {
        source,
        servers: [
          { sourceName: 'echo', name: 'echo' },
          { sourceName: 'web', name: 'web' },
        ],
        sandbox: true,
      });
      const settings = await harness.call<SandboxServerSettingsView[]>('sandbox.serverSettings', {});
      expect(settings.map(({ server, enabled, offered }) => ({ server, enabled, offered }))).toEqual([
        { server: 'echo', enabled: true, offered: true },
        { server: 'web', enabled: false, offered: false },
      ]);
    },
  );

  it('an import with the sandbox off marks its local servers offered: the person answered in the review', async () => {
    const harness = await world.start();
    const source = {
      kind: 'text',
      format: 'claude-desktop',
      text: JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [ECHO] } } }),
    };
    await harness.call('configImport.apply', {
      source,
      servers: [{ sourceName: 'echo', name: 'echo' }],
      sandbox: false,
    });
    expect(await harness.call<SandboxServerSettingsView[]>('sandbox.serverSettings', {})).toEqual([
      expect.objectContaining({ server: 'echo', enabled: false, offered: true }),
    ]);
  });
});
