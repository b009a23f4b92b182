import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { METHOD_NAMES, type Handlers, type MethodName, type TopicName } from '../../shared/contract';
import { SettingsStore } from '../settings/settings-store';
import type { SecretStore } from '../secrets/secret-store';
import { createResultSettingsHandlers } from './handlers-result-settings';
import { createRouter } from './router';

const noSecrets: SecretStore = { get: async () => undefined, set: async () => undefined, delete: async () => undefined };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-result-settings-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function world(names: string[]) {
  const settings = await SettingsStore.open({ configDir: dir, secrets: noSecrets, env: {}, warn: () => undefined });
  const emitted: Array<{ topic: TopicName; payload: unknown }> = [];
  const servers = { list: () => names.map((name) => ({ name })), get: (name: string) => (names.includes(name) ? { name } : undefined) };
  const own = createResultSettingsHandlers({ settings, servers, events: { emit: (topic, payload) => emitted.push({ topic, payload }) } });
  const others = Object.fromEntries(METHOD_NAMES.map((m: MethodName) => [m, () => Promise.reject(new Error(`${m} is not served here`))]));
  const router = createRouter({ ...others, ...own } as Handlers);
  return { settings, emitted, router };
}

describe('result settings handlers', () => {
  it('list every server on the default until one is set, keep the limit in settings.json and announce it', async () => {
    const { router, emitted, settings } = await world(['zeta', 'alpha']);
    expect(await router.dispatch('servers.resultLimits', {})).toEqual({ ok: true, value: [{ server: 'alpha' }, { server: 'zeta' }] });
    expect(await router.dispatch('servers.setResultLimit', { server: 'zeta', limitTokens: 2_000 })).toEqual({ ok: true, value: { server: 'zeta', limitTokens: 2_000 } });
    expect(settings.resultLimit('zeta')).toBe(2_000);
    expect(JSON.parse(await readFile(settings.filePath, 'utf8'))).toMatchObject({ resultLimits: { zeta: 2_000 } });
    expect(emitted).toEqual([{ topic: 'servers.resultLimitChanged', payload: { server: 'zeta', limitTokens: 2_000 } }]);

    expect(await router.dispatch('servers.setResultLimit', { server: 'zeta', limitTokens: null })).toEqual({ ok: true, value: { server: 'zeta' } });
    expect(JSON.parse(await readFile(settings.filePath, 'utf8')).resultLimits).toEqual({});
  });

  it('refuses an unknown server (NOT_FOUND) and a limit out of range (INVALID_INPUT, in words), storing nothing', async () => {
    const { router, emitted, settings } = await world(['alpha']);
    expect(await router.dispatch('servers.setResultLimit', { server: 'ghost', limitTokens: 2_000 })).toMatchObject({ ok: false, code: 'NOT_FOUND', path: 'server' });
    for (const limitTokens of [10, 600_000, 1_000.5, '2000']) {
      expect(await router.dispatch('servers.setResultLimit', { server: 'alpha', limitTokens })).toMatchObject({
        ok: false,
        code: 'INVALID_INPUT',
        message: expect.stringContaining('A result limit is a whole number of tokens from 500 to 500,000'),
      });
    }
    expect(settings.resultLimit('alpha')).toBeUndefined();
    expect(emitted).toEqual([]);
  });

  it('follows a renamed server and is forgotten with a removed one', async () => {
    const { settings } = await world(['alpha']);
    await settings.setResultLimit('alpha', 1_500);
    await settings.renameServer('alpha', 'beta');
    expect(settings.resultLimit('alpha')).toBeUndefined();
    expect(settings.resultLimit('beta')).toBe(1_500);
    await settings.forgetServer('beta');
    expect(settings.resultLimit('beta')).toBeUndefined();
    await expect(settings.setResultLimit('beta', 20)).rejects.toThrow('A result limit is a whole number of tokens from 500 to 500,000');
  });
});
