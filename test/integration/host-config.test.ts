import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppInfo, ConfigStatus } from '../../shared/domain/config';
import { SECRET_MASK, type ServerState } from '../../shared/domain/server';
import { hostPerTest, waitFor, type HostHarness } from './host-harness';

/** Servers here are disabled, so these tests exercise config and bridge behaviour without spawning anything. */
const idle = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  command: 'node',
  args: ['server.js'],
  enabled: false,
  ...extra,
});

const berth = hostPerTest('berth-host-config-');
let harness: HostHarness;

beforeEach(async () => {
  harness = await berth.start();
});

const configPath = (): string => join(berth.dir, 'config.json');
const readConfig = async (): Promise<{ mcpServers: Record<string, Record<string, unknown>> }> =>
  JSON.parse(await readFile(configPath(), 'utf8'));

describe('host handlers over a real config dir', () => {
  it('reports app info and a missing config', async () => {
    const info = await harness.call<AppInfo>('app.info', {});
    expect(info).toMatchObject({
      shell: 'browser',
      platform: process.platform,
      configDir: berth.dir,
      configPath: configPath(),
      logsDir: join(berth.dir, 'logs'),
    });
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(await harness.call<ConfigStatus>('config.status', {})).toMatchObject({
      state: 'missing',
      path: configPath(),
    });
  });

  it('answers UNKNOWN_METHOD and INVALID_INPUT through the host', async () => {
    expect(await harness.host.dispatch('servers.nuke', {})).toMatchObject({ ok: false, code: 'UNKNOWN_METHOD' });
    expect(await harness.host.dispatch('servers.add', { name: 'x', config: { command: '' } })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      path: 'config.command',
    });
  });

  it('adds a server, persists it, and refuses a duplicate name with CONFLICT', async () => {
    const state = await harness.call<ServerState>('servers.add', { name: 'alpha', config: idle() });
    expect(state).toMatchObject({ name: 'alpha', status: 'stopped', config: { command: 'node', enabled: false } });
    expect((await readConfig()).mcpServers.alpha).toMatchObject({ command: 'node', args: ['server.js'] });
    await harness.waitForEvent('servers.changed', (payload) => payload.name === 'alpha');
    await harness.waitForEvent('config.changed', (payload) => payload.state === 'ok');

    expect(await harness.host.dispatch('servers.add', { name: 'alpha', config: idle() })).toMatchObject({
      ok: false,
      code: 'CONFLICT',
      path: 'name',
      hostMessage: { code: 'server-errors.name-taken', params: { name: 'alpha' } },
    });
  });

  it('refuses the secret mask as a value for a new server', async () => {
    const result = await harness.host.dispatch('servers.add', {
      name: 'alpha',
      config: idle({ env: { TOKEN: SECRET_MASK } }),
    });
    expect(result).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      path: 'config.env.TOKEN',
      hostMessage: {
        code: 'credential-errors.mask-without-secret',
        params: { section: 'env', key: 'TOKEN', mask: SECRET_MASK },
      },
    });
    expect(await harness.call('servers.list', {})).toEqual([]);
  });

  it('keeps stored secrets when an update sends the mask, and masks them in states', async () => {
    await harness.call('servers.add', {
      name: 'alpha',
      config: idle({ env: { TOKEN: 's3cret', PLAIN: 'a' }, secretEnv: ['TOKEN'] }),
    });
    const listed = await harness.call<ServerState[]>('servers.list', {});
    expect(listed[0]?.config.env).toEqual({ TOKEN: SECRET_MASK, PLAIN: 'a' });

    const updated = await harness.call<ServerState>('servers.update', {
      name: 'alpha',
      config: idle({ env: { TOKEN: SECRET_MASK, PLAIN: 'b' }, secretEnv: ['TOKEN'] }),
    });
    expect(updated.config.env).toEqual({ TOKEN: SECRET_MASK, PLAIN: 'b' });
    expect((await readConfig()).mcpServers.alpha?.env).toEqual({
      TOKEN: '${secret:server/alpha/env/TOKEN}',
      PLAIN: 'b',
    });
    expect(JSON.parse(await readFile(join(berth.dir, 'secrets.json'), 'utf8')).secrets).toEqual({
      'server/alpha/env/TOKEN': 's3cret',
    });

    const masked = await harness.host.dispatch('servers.update', {
      name: 'alpha',
      config: idle({ env: { PLAIN: SECRET_MASK } }),
    });
    expect(masked).toMatchObject({ ok: false, code: 'INVALID_INPUT', path: 'config.env.PLAIN' });
    expect((await readConfig()).mcpServers.alpha?.env).toEqual({
      TOKEN: '${secret:server/alpha/env/TOKEN}',
      PLAIN: 'b',
    });
  });

  it('renames a server: the old name is announced as removed', async () => {
    await harness.call('servers.add', { name: 'alpha', config: idle() });
    await harness.call('servers.add', { name: 'beta', config: idle() });
    expect(
      await harness.host.dispatch('servers.update', { name: 'alpha', newName: 'beta', config: idle() }),
    ).toMatchObject({
      ok: false,
      code: 'CONFLICT',
      path: 'newName',
    });
    const renamed = await harness.call<ServerState>('servers.update', {
      name: 'alpha',
      newName: 'gamma',
      config: idle({ args: ['v2.js'] }),
    });
    expect(renamed).toMatchObject({ name: 'gamma', config: { args: ['v2.js'] } });
    await harness.waitForEvent('servers.removed', (payload) => payload.name === 'alpha');
    expect((await harness.call<ServerState[]>('servers.list', {})).map((state) => state.name)).toEqual([
      'beta',
      'gamma',
    ]);
    expect(Object.keys((await readConfig()).mcpServers)).toEqual(['gamma', 'beta']);
  });

  it('answers NOT_FOUND for servers that do not exist', async () => {
    for (const method of ['servers.start', 'servers.stop', 'servers.restart', 'servers.remove']) {
      expect(await harness.host.dispatch(method, { name: 'ghost' })).toMatchObject({
        ok: false,
        code: 'NOT_FOUND',
        // Coded, so the renderer words it in the person's language; the English stays beside it.
        message: 'No server named "ghost"',
        hostMessage: { code: 'server-errors.not-found', params: { name: 'ghost' } },
      });
    }
    expect(await harness.host.dispatch('servers.setEnabled', { name: 'ghost', enabled: true })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
    expect(await harness.host.dispatch('servers.update', { name: 'ghost', config: idle() })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
    expect(await harness.host.dispatch('servers.setLogLevel', { name: 'ghost', level: 'info' })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
  });

  it('stores the log level of a server that is not running, for its next start', async () => {
    await harness.call('servers.add', { name: 'alpha', config: idle() });
    const state = await harness.call<ServerState>('servers.setLogLevel', { name: 'alpha', level: 'debug' });
    expect(state).toMatchObject({ status: 'stopped', logLevel: 'debug', config: { logLevel: 'debug' } });
    expect((await readConfig()).mcpServers.alpha).toMatchObject({ logLevel: 'debug' });
  });

  it('saves valid config text and syncs servers; refuses invalid text and leaves the file alone', async () => {
    await harness.call('servers.add', { name: 'alpha', config: idle() });
    const before = await readFile(configPath(), 'utf8');
    const refused = await harness.call<ConfigStatus>('config.saveText', {
      text: '{ "mcpServers": { "b": { "command": 5 } } ',
    });
    expect(refused.state).toBe('invalid');
    expect(refused.problems.length).toBeGreaterThan(0);
    expect(await readFile(configPath(), 'utf8')).toBe(before);

    const text = JSON.stringify({ mcpServers: { beta: idle() } }, null, 2);
    const saved = await harness.call<ConfigStatus>('config.saveText', { text });
    expect(saved.state).toBe('ok');
    expect(await readFile(configPath(), 'utf8')).toBe(text);
    expect((await harness.call<ServerState[]>('servers.list', {})).map((state) => state.name)).toEqual(['beta']);
    await harness.waitForEvent('servers.removed', (payload) => payload.name === 'alpha');
  });

  it('picks up external edits: config.changed, and servers follow', async () => {
    await writeFile(configPath(), JSON.stringify({ mcpServers: { alpha: idle(), beta: idle() } }));
    await harness.waitForEvent('config.changed', (status) => status.state === 'ok', 10_000);
    await waitFor(async () => (await harness.call<ServerState[]>('servers.list', {})).length === 2);

    // A broken entry keeps its server (with the last good config) instead of stopping it.
    await writeFile(configPath(), JSON.stringify({ mcpServers: { alpha: { command: 5 }, beta: idle() } }));
    await harness.waitForEvent('config.changed', (status) => status.state === 'invalid', 10_000);
    expect((await harness.call<ServerState[]>('servers.list', {})).map((state) => state.name)).toEqual([
      'alpha',
      'beta',
    ]);
    // ...but removing it on purpose still works.
    expect(await harness.call('servers.remove', { name: 'alpha' })).toEqual({ removed: 'alpha' });
    expect((await harness.call<ServerState[]>('servers.list', {})).map((state) => state.name)).toEqual(['beta']);

    await writeFile(configPath(), JSON.stringify({ mcpServers: {} }));
    await harness.waitForEvent('servers.removed', (payload) => payload.name === 'beta', 10_000);
  });

  it('a syntax error in the file stops nothing and blocks edits with CONFIG_INVALID', async () => {
    await harness.call('servers.add', { name: 'alpha', config: idle() });
    await writeFile(configPath(), '{ "mcpServers": { ');
    await harness.waitForEvent('config.changed', (status) => status.state === 'invalid', 10_000);
    expect((await harness.call<ServerState[]>('servers.list', {})).map((state) => state.name)).toEqual(['alpha']);
    expect(await harness.host.dispatch('servers.add', { name: 'beta', config: idle() })).toMatchObject({
      ok: false,
      code: 'CONFIG_INVALID',
      hostMessage: {
        code: 'config-errors.file-has-errors-at',
        params: { file: configPath(), line: 1 },
        cause: { code: 'config-problems.ends-early' },
      },
    });
    expect(await harness.host.dispatch('servers.setEnabled', { name: 'alpha', enabled: true })).toMatchObject({
      ok: false,
      code: 'CONFIG_INVALID',
    });
  });

  it('refuses an unknown default model with its code and the models to choose from', async () => {
    const result = await harness.host.dispatch('settings.setDefaultModel', { model: 'gpt-nothing' });
    expect(result).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      hostMessage: { code: 'settings-errors.unknown-model', params: { model: 'gpt-nothing' } },
    });
    const offered = (await harness.call<{ models: { id: string }[] }>('settings.get', {})).models.map((m) => m.id);
    expect(result).toMatchObject({ hostMessage: { params: { models: expect.stringContaining(offered[0] ?? '?') } } });
  });

  it('persists setEnabled', async () => {
    await harness.call('servers.add', { name: 'alpha', config: idle() });
    const state = await harness.call<ServerState>('servers.setEnabled', { name: 'alpha', enabled: false });
    expect(state.status).toBe('stopped');
    expect((await readConfig()).mcpServers.alpha).toMatchObject({ enabled: false });
  });

  it('clears logs and announces it', async () => {
    expect(await harness.call('logs.clear', {})).toEqual({ cleared: 0 });
    await harness.waitForEvent('logs.cleared', (payload) => payload.server === undefined);
    expect(await harness.call('logs.clear', { server: 'alpha' })).toEqual({ cleared: 0 });
    await harness.waitForEvent('logs.cleared', (payload) => payload.server === 'alpha');
    expect(await harness.call('logs.query', {})).toEqual({ entries: [], dropped: 0 });
  });
});
