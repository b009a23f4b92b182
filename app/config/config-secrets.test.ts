import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigStatus } from '../../shared/domain/config';
import { ServerConfigSchema } from '../../shared/domain/server';
import { FileSecretStore } from '../secrets/secret-store';
import { ServerSecrets } from '../secrets/server-secrets';
import { tempDir, waitUntil } from '../servers/test-support';
import { ConfigStore } from './config-store';

const TOKEN = 'ghp_plain_token_123';
const REF = '${secret:server/gh/env/TOKEN}';
const plainConfig = (token: string): string =>
  `${JSON.stringify({ mcpServers: { gh: { command: 'gh', env: { TOKEN: token, MODE: 'ro' }, secretEnv: ['TOKEN'] }, other: { command: 'x' } } }, null, 2)}\n`;

let dir: { path: string; cleanup: () => Promise<void> };
let file: string;
let secretStore: FileSecretStore;
let infos: string[];
let warnings: string[];
let config: ConfigStore;
let changes: ConfigStatus[];
let valuesChanged: string[][];

beforeEach(async () => {
  dir = await tempDir('berth-config-secrets-');
  file = join(dir.path, 'config.json');
  infos = [];
  warnings = [];
  changes = [];
  valuesChanged = [];
  secretStore = new FileSecretStore({ filePath: join(dir.path, 'secrets.json'), warn: (text) => warnings.push(text) });
  const secrets: ServerSecrets = new ServerSecrets({
    store: secretStore,
    configText: () => config.text(),
    info: (text) => infos.push(text),
    warn: (text) => warnings.push(text),
    onValuesChanged: (names) => valuesChanged.push(names),
  });
  config = new ConfigStore({
    filePath: file,
    watchDebounceMs: 50,
    onChange: (status) => changes.push(status),
    moveSecretsOut: (text) => secrets.moveOutOfText(text),
    warn: (text) => warnings.push(text),
  });
});
afterEach(async () => {
  config.close();
  await dir.cleanup();
});

describe('ConfigStore with secret references', () => {
  it('migrates plain secret values on load: values into the store, the file rewritten 0600 with references', async () => {
    await writeFile(file, plainConfig(TOKEN));
    const status = await config.load();
    expect(status.state).toBe('ok');
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).toBe(plainConfig(REF));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(config.servers().gh?.env).toEqual({ TOKEN: REF, MODE: 'ro' });
    expect(await secretStore.get('server/gh/env/TOKEN')).toBe(TOKEN);
    expect(infos).toHaveLength(1);
    expect(infos[0]).not.toContain(TOKEN);
    await config.load();
    expect(infos).toHaveLength(1);
  });

  it('moves a value typed into the file by hand out again, and reports the server whose value changed', async () => {
    await writeFile(file, plainConfig(REF));
    await secretStore.set('server/gh/env/TOKEN', 'the-old-value');
    await config.load();
    config.watch();
    await writeFile(file, plainConfig('hand-typed-value'));
    await waitUntil(
      async () => (await secretStore.get('server/gh/env/TOKEN')) === 'hand-typed-value',
      10_000,
      'the hand-typed value to be stored',
    );
    await waitUntil(
      async () => (await readFile(file, 'utf8')) === plainConfig(REF),
      10_000,
      'the file to be rewritten',
    );
    expect(config.servers().gh?.env.TOKEN).toBe(REF);
    expect(valuesChanged).toEqual([['gh']]);
    // The file reads as before, so there is no config change to report, and our own rewrite is not one either.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(changes).toEqual([]);
    expect(infos).toHaveLength(1);
  });

  it('writes references, not values, for text saved from the fix-it editor', async () => {
    const status = await config.saveText(plainConfig('from-the-editor'));
    expect(status.state).toBe('ok');
    expect(await readFile(file, 'utf8')).toBe(plainConfig(REF));
    expect(await secretStore.get('server/gh/env/TOKEN')).toBe('from-the-editor');
  });

  it('never writes a plain secret value, even from an edit made without ServerSecrets.save', async () => {
    await config.load();
    await config.addServer(
      'gh',
      ServerConfigSchema.parse({ command: 'gh', env: { TOKEN: 'added-in-plain' }, secretEnv: ['TOKEN'] }),
    );
    expect(await readFile(file, 'utf8')).not.toContain('added-in-plain');
    expect(config.servers().gh?.env.TOKEN).toBe(REF);
    expect(await secretStore.get('server/gh/env/TOKEN')).toBe('added-in-plain');
  });

  it('keeps the file as it was, with a warning, when the secret store cannot be written', async () => {
    const locked = {
      get: async (): Promise<undefined> => undefined,
      set: async (): Promise<void> => {
        throw new Error('the keychain is locked');
      },
      delete: async (): Promise<void> => undefined,
    };
    const refusing = new ServerSecrets({
      store: locked,
      configText: () => '',
      info: (text) => infos.push(text),
      warn: (text) => warnings.push(text),
    });
    const store = new ConfigStore({ filePath: file, moveSecretsOut: (text) => refusing.moveOutOfText(text) });
    await writeFile(file, plainConfig(TOKEN));
    await store.load();
    expect(await readFile(file, 'utf8')).toBe(plainConfig(TOKEN));
    expect(store.servers().gh?.env.TOKEN).toBe(TOKEN);
    expect(warnings.join('\n')).toMatch(/could not move secret values out of config.json into the secret store/);
    expect(warnings.join('\n')).not.toContain(TOKEN);
  });
});
