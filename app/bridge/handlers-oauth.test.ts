import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerConfigSchema, type ServerConfig } from '../../shared/domain/server';
import { secretRef } from '../secrets/secret-refs';
import { FileSecretStore } from '../secrets/secret-store';
import { ServerSecrets } from '../secrets/server-secrets';
import { createOAuthHandlers } from './handlers-oauth';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-handlers-oauth-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('servers.signIn', () => {
  it("refuses a pre-registered client whose secret is missing from the store, keeping the refusal's code", async () => {
    const store = new FileSecretStore({ filePath: join(dir, 'secrets.json'), warn: () => undefined });
    const secrets = new ServerSecrets({
      store,
      configText: () => '',
      info: () => undefined,
      warn: () => undefined,
      onValuesChanged: () => undefined,
    });
    const config: ServerConfig = ServerConfigSchema.parse({
      url: 'https://notes.example/mcp',
      oauth: { clientId: 'berth', clientSecret: secretRef('server/notes/oauth/clientSecret') },
    });
    const handlers = createOAuthHandlers({
      sessions: {
        startSignIn: () => Promise.reject(new Error('a sign-in must not start without its client secret')),
        signOut: () => Promise.resolve(),
      },
      rawServer: (name) => (name === 'notes' ? config : undefined),
      resolveSecrets: (name, stored) => secrets.resolve(name, stored),
      supervisor: {
        get: () => undefined,
        restart: () => Promise.reject(new Error('not restarted here')),
        signInChanged: () => Promise.reject(new Error('not changed here')),
      },
    });
    await expect(handlers['servers.signIn']({ name: 'notes' })).rejects.toMatchObject({
      code: 'NOT_READY',
      message: expect.stringContaining('the OAuth client secret') as unknown,
      hostMessage: { code: 'server-start.secret-missing', params: { section: 'oauth', key: 'clientSecret' } },
    });
  });
});
