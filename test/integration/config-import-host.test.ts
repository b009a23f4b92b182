import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ClaudeDesktopExport, ImportOutcome, ImportPreview } from '../../shared/contract/config-import';
import type { LogEntry } from '../../shared/domain/log';
import type { ServerState } from '../../shared/domain/server';
import { hostPerTest, type HostHarness } from './host-harness';

const SECRET = 'tok_typed_into_the_password_prompt_42';

/** A VS Code file whose server prints the password input's value to stderr, as a careless server might. */
const VSCODE_TEXT = JSON.stringify({
  inputs: [{ id: 'conf', type: 'promptString', description: 'Service key', password: true }],
  servers: {
    leaky: {
      command: process.execPath,
      args: ['-e', 'console.error("my key is " + process.env.SERVICE_CONF); setTimeout(() => {}, 60000)'],
      env: { SERVICE_CONF: '${input:conf}' },
    },
  },
});

const berth = hostPerTest('berth-import-host-');
let harness: HostHarness;

beforeEach(async () => {
  await mkdir(join(berth.dir, 'berth'));
  harness = await berth.start(
    { env: { ...process.env, HOME: berth.dir, XDG_CONFIG_HOME: join(berth.dir, '.config') } },
    join(berth.dir, 'berth'),
  );
});

describe('config import through the host', () => {
  it('keeps a password answer out of everything the renderer can get', async () => {
    const source = { kind: 'text', format: 'vscode', text: VSCODE_TEXT };
    const preview = await harness.call<ImportPreview>('configImport.preview', { source });
    expect(preview.servers.map((server) => [server.name, server.secretEnvKeys])).toEqual([['leaky', ['SERVICE_CONF']]]);

    const outcome = await harness.call<ImportOutcome>('configImport.apply', {
      source,
      servers: [{ sourceName: 'leaky', name: 'leaky' }],
      answers: { conf: SECRET },
    });
    expect(outcome).toEqual({ imported: true, added: ['leaky'] });
    // Imported turned off: no process until the person turns it on.
    const added = await harness.waitForEvent('servers.changed', (state) => state.name === 'leaky');
    expect(added).toMatchObject({ status: 'stopped', config: { enabled: false } });
    expect(added.pid).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      harness.events.some(
        (event) =>
          event.topic === 'servers.changed' &&
          (event.payload as ServerState).name === 'leaky' &&
          (event.payload as ServerState).status !== 'stopped',
      ),
    ).toBe(false);
    await harness.call('servers.setEnabled', { name: 'leaky', enabled: true });
    // Then it starts like one added through the form, and its stderr reaches the logs (masked).
    await harness.waitForEvent('logs.appended', (batch) =>
      batch.entries.some((entry) => entry.server === 'leaky' && entry.text.includes('my key is')),
    );
    const stored = JSON.parse(await readFile(join(berth.dir, 'berth', 'config.json'), 'utf8')) as {
      mcpServers: Record<string, { env: Record<string, string>; secretEnv: string[] }>;
    };
    // The password answer went to the secret store: config.json only refers to it.
    expect(stored.mcpServers.leaky).toMatchObject({
      env: { SERVICE_CONF: '${secret:server/leaky/env/SERVICE_CONF}' },
      secretEnv: ['SERVICE_CONF'],
    });
    expect(await readFile(join(berth.dir, 'berth', 'config.json'), 'utf8')).not.toContain(SECRET);

    const exported = await harness.call<ClaudeDesktopExport>('configImport.export', {});
    expect(exported.omittedSecrets).toEqual([{ server: 'leaky', key: 'SERVICE_CONF' }]);
    const seen = [
      JSON.stringify(harness.events),
      JSON.stringify(await harness.call<ServerState[]>('servers.list', {})),
      JSON.stringify(await harness.call<{ entries: LogEntry[] }>('logs.query', {})),
      JSON.stringify(await harness.call('config.status', {})),
      JSON.stringify(await harness.call('configImport.preview', { source })),
      exported.text,
    ];
    for (const text of seen) expect(text).not.toContain(SECRET);
    expect(
      harness.events.some(
        (event) => event.topic === 'servers.changed' && (event.payload as ServerState).name === 'leaky',
      ),
    ).toBe(true);
  });

  it('finds a Claude Desktop file where the app keeps it and imports from it by id', async () => {
    const claudeDir = join(berth.dir, '.config', 'Claude');
    await mkdir(claudeDir, { recursive: true });
    await copyFile(
      join(__dirname, '..', '..', 'app', 'config-import', 'fixtures', 'claude_desktop_config.json'),
      join(claudeDir, 'claude_desktop_config.json'),
    );

    const { locations } = await harness.call<{ locations: Array<{ id: string; exists: boolean }> }>(
      'configImport.locations',
      {},
    );
    expect(locations.find((location) => location.id === 'claude-desktop')?.exists).toBe(true);

    // Its cwd (/Users/ada) does not exist here, so it fails to start: the import itself must not care.
    const outcome = await harness.call<ImportOutcome>('configImport.apply', {
      source: { kind: 'location', id: 'claude-desktop' },
      servers: [{ sourceName: 'sqlite/local', name: 'sqlite' }],
      answers: {},
    });
    expect(outcome).toEqual({ imported: true, added: ['sqlite'] });
    await harness.waitForEvent('servers.changed', (state) => state.name === 'sqlite');
    await harness.waitForEvent('config.changed', (status) => status.state === 'ok');
  });

  it('refuses to import what runs code or reaches inward until each flagged item is confirmed for its server', async () => {
    const text = JSON.stringify({
      mcpServers: {
        shell: {
          command: 'docker',
          args: ['run', '-i', '--rm', '--privileged', '-v', '/:/host', 'img:1'],
          env: { BASH_ENV: '/tmp/x', npm_config_registry: 'https://evil.example' },
        },
        inward: { url: 'https://[::ffff:127.0.0.1]:8080/mcp' },
        plain: { command: 'node', args: ['server.js'] },
      },
    });
    const source = { kind: 'text', format: 'claude-desktop', text };
    const preview = await harness.call<ImportPreview>('configImport.preview', { source });
    const keys = (name: string) =>
      preview.servers
        .find((server) => server.sourceName === name)
        ?.warnings.filter((warning) => warning.confirm === true)
        .map((warning) => warning.key);
    expect(keys('shell')).toEqual(['BASH_ENV', 'npm_config_registry', 'docker:--privileged', 'docker:-v /:/host']);
    expect(keys('inward')).toEqual(['address:[::ffff:7f00:1]']);
    expect(keys('plain')).toEqual([]);
    const servers = [
      { sourceName: 'shell', name: 'shell', confirmed: ['BASH_ENV', 'docker:--privileged'] },
      { sourceName: 'inward', name: 'inward' },
      { sourceName: 'plain', name: 'plain' },
    ];
    const refused = await harness.call<ImportOutcome>('configImport.apply', { source, servers });
    expect(refused).toEqual({
      imported: false,
      failures: [
        {
          sourceName: 'shell',
          field: 'confirmed',
          message:
            'Confirm first what this server asks for that runs code or opens its walls (npm_config_registry, -v /:/host): tick "I understand" for them in the review, then import again',
          hostMessage: {
            code: 'bundle-errors.unconfirmed',
            params: { names: 'npm_config_registry, -v /:/host', count: 2, action: 'import' },
          },
        },
        {
          sourceName: 'inward',
          field: 'confirmed',
          message:
            'Confirm first what this server asks for that runs code or opens its walls ([::ffff:7f00:1]): tick "I understand" for it in the review, then import again',
          hostMessage: {
            code: 'bundle-errors.unconfirmed',
            params: { names: '[::ffff:7f00:1]', count: 1, action: 'import' },
          },
        },
      ],
    });
    expect(await harness.call<ServerState[]>('servers.list', {})).toEqual([]);
    const confirmed = servers.map((server) => ({ ...server, confirmed: keys(server.sourceName) ?? [] }));
    await expect(harness.call<ImportOutcome>('configImport.apply', { source, servers: confirmed })).resolves.toEqual({
      imported: true,
      added: ['shell', 'inward', 'plain'],
    });
  });
});
