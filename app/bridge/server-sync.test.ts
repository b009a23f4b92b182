import { describe, expect, it } from 'vitest';
import type { ConfigStatus } from '../../shared/domain/config';
import type { ServerState } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { ServerSync } from './server-sync';

describe('ServerSync removals', () => {
  it('a server gone from the config is removed, then forgotten by the services, then announced to the renderer', async () => {
    const heard: string[] = [];
    const running = new Set(['kept', 'gone']);
    const sync = new ServerSync({
      config: { status: (): ConfigStatus => ({ path: 'config.json', state: 'ok', problems: [] }), servers: () => ({}) },
      supervisor: {
        list: () => [...running].map((name) => ({ name }) as ServerState),
        sync: async () => undefined,
        remove: async (name) => {
          // Another caller removed 'kept' first: that one announces it.
          if (name === 'kept') throw new HostError('NOT_FOUND', `No server named "${name}"`);
          running.delete(name);
          heard.push(`removed ${name}`);
        },
      },
      events: { emit: (topic, payload) => heard.push(`${topic} ${JSON.stringify(payload)}`) },
      serverRemoved: (name) => heard.push(`forgotten ${name}`),
      onError: (error) => heard.push(`error ${String(error)}`),
    });
    await sync.apply();
    expect(heard).toEqual(['removed gone', 'forgotten gone', 'servers.removed {"name":"gone"}']);
  });
});
