import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { METHOD_NAMES, type Handlers, type MethodName, type TopicName } from '../../shared/contract';
import { SettingsStore } from '../settings/settings-store';
import type { SecretStore } from '../secrets/secret-store';
import { createInstructionsSettingsHandlers } from './handlers-instructions-settings';
import { createRouter } from './router';

const noSecrets: SecretStore = { get: async () => undefined, set: async () => undefined, delete: async () => undefined };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-instructions-settings-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function world(names: string[]) {
  const settings = await SettingsStore.open({ configDir: dir, secrets: noSecrets, env: {}, warn: () => undefined });
  const emitted: Array<{ topic: TopicName; payload: unknown }> = [];
  const servers = { list: () => names.map((name) => ({ name })), get: (name: string) => (names.includes(name) ? { name } : undefined) };
  const own = createInstructionsSettingsHandlers({ settings, servers, events: { emit: (topic, payload) => emitted.push({ topic, payload }) } });
  const others = Object.fromEntries(METHOD_NAMES.map((m: MethodName) => [m, () => Promise.reject(new Error(`${m} is not served here`))]));
  const router = createRouter({ ...others, ...own } as Handlers);
  return { settings, emitted, router };
}

describe('instructions settings handlers', () => {
  it('list every server as sending until one is switched off, keep the change in settings.json and announce it', async () => {
    const { router, emitted, settings } = await world(['zeta', 'alpha']);
    expect(await router.dispatch('servers.instructionsSettings', {})).toEqual({
      ok: true,
      value: [
        { server: 'alpha', sendInstructions: true },
        { server: 'zeta', sendInstructions: true },
      ],
    });
    expect(await router.dispatch('servers.setSendInstructions', { server: 'zeta', sendInstructions: false })).toEqual({ ok: true, value: { server: 'zeta', sendInstructions: false } });
    expect(settings.sendsInstructions('zeta')).toBe(false);
    expect(JSON.parse(await readFile(settings.filePath, 'utf8'))).toMatchObject({ sendInstructions: { zeta: false } });
    expect(emitted).toEqual([{ topic: 'servers.instructionsSettingChanged', payload: { server: 'zeta', sendInstructions: false } }]);

    expect(await router.dispatch('servers.setSendInstructions', { server: 'zeta', sendInstructions: true })).toEqual({ ok: true, value: { server: 'zeta', sendInstructions: true } });
    expect(JSON.parse(await readFile(settings.filePath, 'utf8')).sendInstructions).toEqual({});
  });

  it('refuses a server Berth does not have with NOT_FOUND, and a bad input with INVALID_INPUT, storing nothing', async () => {
    const { router, emitted, settings } = await world(['alpha']);
    expect(await router.dispatch('servers.setSendInstructions', { server: 'ghost', sendInstructions: false })).toMatchObject({ ok: false, code: 'NOT_FOUND', path: 'server' });
    expect(await router.dispatch('servers.setSendInstructions', { server: 'alpha', sendInstructions: 'no' })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(settings.sendsInstructions('alpha')).toBe(true);
    expect(emitted).toEqual([]);
  });
});
