/**
 * Test-only set-up shared by the per-server setting handlers' tests (never imported by host code):
 * a real SettingsStore in a temporary folder, a fixed list of servers, the events emitted, and a
 * router serving only the handlers under test (any other method is a test mistake).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { METHOD_NAMES, type Handlers, type MethodName, type TopicName } from '../../shared/contract';
import type { EventHub } from '../events/event-hub';
import type { SecretStore } from '../secrets/secret-store';
import { SettingsStore } from '../settings/settings-store';
import type { KnownServers } from './per-server-setting';
import { createRouter } from './router';

const noSecrets: SecretStore = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
};

export interface SettingHandlerDeps {
  settings: SettingsStore;
  servers: KnownServers;
  events: Pick<EventHub, 'emit'>;
}

/** Registers a fresh temporary config folder per test; the answer builds a world for a list of server names. */
export function settingHandlersWorld(prefix: string, create: (deps: SettingHandlerDeps) => Partial<Handlers>) {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return async (names: string[]) => {
    const settings = await SettingsStore.open({ configDir: dir, secrets: noSecrets, env: {}, warn: () => undefined });
    const emitted: Array<{ topic: TopicName; payload: unknown }> = [];
    const servers = {
      list: () => names.map((name) => ({ name })),
      get: (name: string) => (names.includes(name) ? { name } : undefined),
    };
    const own = create({ settings, servers, events: { emit: (topic, payload) => emitted.push({ topic, payload }) } });
    const others = Object.fromEntries(
      METHOD_NAMES.map((m: MethodName) => [m, () => Promise.reject(new Error(`${m} is not served here`))]),
    );
    const router = createRouter({ ...others, ...own } as Handlers);
    return { settings, emitted, router };
  };
}
