import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_MASK, ServerConfigSchema, type ServerConfig, type ServerConfigInput } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { ServerStartError } from '../../shared/domain/server-start-error';
import { secretRef } from './secret-refs';
import { FileSecretStore, type SecretStore } from './secret-store';
import { ServerSecrets } from './server-secrets';

const cfg = (input: ServerConfigInput): ServerConfig => ServerConfigSchema.parse(input);

let dir: { path: string; cleanup: () => Promise<void> };
let store: FileSecretStore;
let configText: string;
let infos: string[];
let warnings: string[];
let changed: string[][];
let secrets: ServerSecrets;

function withStore(secretStore: SecretStore): ServerSecrets {
  return new ServerSecrets({
    store: secretStore,
    configText: () => configText,
    info: (text) => infos.push(text),
    warn: (text) => warnings.push(text),
    onValuesChanged: (names) => changed.push(names),
  });
}

beforeEach(async () => {
  const path = await mkdtemp(join(tmpdir(), 'berth-server-secrets-'));
  dir = { path, cleanup: () => rm(path, { recursive: true, force: true }) };
  store = new FileSecretStore({ filePath: join(dir.path, 'secrets.json'), warn: (text) => warnings.push(text) });
  configText = '';
  infos = [];
  warnings = [];
  changed = [];
  secrets = withStore(store);
});
afterEach(async () => {
  await dir.cleanup();
});

/** Saves like the handler does, keeping `configText` in step with what was "written". */
async function save(
  name: string,
  incoming: ServerConfig,
  stored?: ServerConfig,
): Promise<{ config: ServerConfig; secretsChanged: boolean; written: ServerConfig[] }> {
  const written: ServerConfig[] = [];
  const outcome = await secrets.save({
    name,
    incoming,
    ...(stored !== undefined ? { stored } : {}),
    write: async (config) => {
      written.push(config);
      configText = JSON.stringify({ mcpServers: { [name]: config } });
    },
  });
  return { ...outcome, written };
}

describe('ServerSecrets.save', () => {
  it('stores secret values and writes references; plain values stay plain', async () => {
    const result = await save('gh', cfg({ command: 'gh', env: { TOKEN: 's3cret', MODE: 'ro' }, secretEnv: ['TOKEN'] }));
    expect(result.written).toEqual([result.config]);
    expect(result.config.env).toEqual({ TOKEN: '${secret:server/gh/env/TOKEN}', MODE: 'ro' });
    expect(result.secretsChanged).toBe(true);
    expect(await store.get('server/gh/env/TOKEN')).toBe('s3cret');
    expect(await readFile(store.filePath, 'utf8')).toContain('s3cret');
  });

  it('keeps the stored value for a mask, and says whether a value changed', async () => {
    const first = await save('gh', cfg({ command: 'gh', env: { TOKEN: 's3cret' }, secretEnv: ['TOKEN'] }));
    const kept = await save(
      'gh',
      cfg({ command: 'gh', env: { TOKEN: SECRET_MASK }, secretEnv: ['TOKEN'] }),
      first.config,
    );
    expect(kept).toMatchObject({ config: first.config, secretsChanged: false });
    const replaced = await save('gh', cfg({ command: 'gh', env: { TOKEN: 'n3w' }, secretEnv: ['TOKEN'] }), kept.config);
    expect(replaced).toMatchObject({ config: first.config, secretsChanged: true });
    expect(await store.get('server/gh/env/TOKEN')).toBe('n3w');
  });

  it('refuses a mask that stands for nothing stored', async () => {
    await expect(
      save('gh', cfg({ command: 'gh', env: { TOKEN: SECRET_MASK }, secretEnv: ['TOKEN'] })),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', path: 'config.env.TOKEN' });
    const stored = cfg({
      command: 'gh',
      env: { PLAIN: 'a', TOKEN: secretRef('server/gh/env/TOKEN') },
      secretEnv: ['TOKEN'],
    });
    await expect(save('gh', cfg({ command: 'gh', env: { PLAIN: SECRET_MASK } }), stored)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      path: 'config.env.PLAIN',
    });
    // Referenced, but the store lost it (another machine's store, a deleted file).
    await expect(
      save('gh', cfg({ command: 'gh', env: { TOKEN: SECRET_MASK }, secretEnv: ['TOKEN'] }), stored),
    ).rejects.toThrow(/Enter the value of TOKEN again/);
  });

  it('moves secrets on rename and deletes the ones no longer used', async () => {
    const first = await save('old', cfg({ command: 'x', env: { A: 'alpha', B: 'beta' }, secretEnv: ['A', 'B'] }));
    const renamed = await save('new', cfg({ command: 'x', env: { A: SECRET_MASK }, secretEnv: ['A'] }), first.config);
    expect(renamed.config.env).toEqual({ A: '${secret:server/new/env/A}' });
    expect(await store.get('server/new/env/A')).toBe('alpha');
    expect(await store.get('server/old/env/A')).toBeUndefined();
    expect(await store.get('server/old/env/B')).toBeUndefined();
    expect(await readFile(store.filePath, 'utf8')).not.toContain('beta');
  });

  it('puts the store back when config.json cannot be written', async () => {
    const first = await save('gh', cfg({ command: 'gh', env: { TOKEN: 'old-value' }, secretEnv: ['TOKEN'] }));
    const failing = secrets.save({
      name: 'gh',
      incoming: cfg({ command: 'gh', env: { TOKEN: 'new-value', OTHER: 'o' }, secretEnv: ['TOKEN', 'OTHER'] }),
      stored: first.config,
      write: async () => {
        throw new HostError('IO_ERROR', 'disk full');
      },
    });
    await expect(failing).rejects.toThrow('disk full');
    expect(await store.get('server/gh/env/TOKEN')).toBe('old-value');
    expect(await store.get('server/gh/env/OTHER')).toBeUndefined();
  });
});

describe('ServerSecrets.forget', () => {
  it('deletes what nothing refers to, and keeps a secret another entry still uses', async () => {
    await store.set('server/a/env/T', 'one');
    await store.set('server/a/env/U', 'two');
    configText = JSON.stringify({ mcpServers: { copy: { command: 'x', env: { T: secretRef('server/a/env/T') } } } });
    await secrets.forget(
      cfg({ command: 'x', env: { T: secretRef('server/a/env/T'), U: secretRef('server/a/env/U') } }),
    );
    expect(await store.get('server/a/env/T')).toBe('one');
    expect(await store.get('server/a/env/U')).toBeUndefined();
  });
});

describe('ServerSecrets.resolve', () => {
  it('replaces references with values and treats their keys as secret', async () => {
    await store.set('server/gh/env/TOKEN', 's3cret');
    const resolved = await secrets.resolve(
      'gh',
      cfg({ command: 'gh', env: { TOKEN: secretRef('server/gh/env/TOKEN'), MODE: 'ro' } }),
    );
    expect(resolved.env).toEqual({ TOKEN: 's3cret', MODE: 'ro' });
    expect(resolved.secretEnv).toEqual(['TOKEN']);
  });

  it('refuses to start with a missing secret, naming the key and the fix', async () => {
    const config = cfg({ command: 'gh', env: { TOKEN: secretRef('server/gh/env/TOKEN') }, secretEnv: ['TOKEN'] });
    const failure = secrets.resolve('gh', config);
    await expect(failure).rejects.toBeInstanceOf(ServerStartError);
    await expect(failure).rejects.toMatchObject({
      kind: 'config',
      message:
        "the secret value of TOKEN is not in Berth's secret store (config.json refers to ${secret:server/gh/env/TOKEN}) — open the settings of 'gh', enter TOKEN again and save",
      wording: {
        code: 'server-start.secret-missing',
        params: { section: 'env', key: 'TOKEN', ref: '${secret:server/gh/env/TOKEN}', server: 'gh' },
      },
    });
  });
});

describe('ServerSecrets.moveOutOfText', () => {
  const text = JSON.stringify(
    { mcpServers: { gh: { command: 'gh', env: { TOKEN: 'plain-token' }, secretEnv: ['TOKEN'] } } },
    null,
    2,
  );

  it('moves plain values into the store, with one info line naming keys, never values', async () => {
    const moved = await secrets.moveOutOfText(text);
    expect(moved).toBe(text.replace('"plain-token"', '"${secret:server/gh/env/TOKEN}"'));
    expect(await store.get('server/gh/env/TOKEN')).toBe('plain-token');
    expect(infos).toEqual([
      'moved 1 secret value (gh: TOKEN) from config.json into the secret store; the file now refers to them as ${secret:…}',
    ]);
    expect(await secrets.moveOutOfText(moved ?? '')).toBeUndefined();
    expect(changed).toEqual([]);
  });

  it('reports servers whose stored value a hand edit replaced', async () => {
    await store.set('server/gh/env/TOKEN', 'older-token');
    await secrets.moveOutOfText(text);
    expect(changed).toEqual([['gh']]);
  });

  it('leaves the text alone, with a warning, when the store refuses', async () => {
    const refusing = withStore({
      get: async () => undefined,
      set: async () => {
        throw new Error('keychain locked');
      },
      delete: async () => undefined,
    });
    expect(await refusing.moveOutOfText(text)).toBeUndefined();
    expect(warnings).toEqual([
      'could not move secret values out of config.json into the secret store (keychain locked); they stay in the file for now',
    ]);
    expect(infos).toEqual([]);
  });
});

describe('secret headers of remote servers', () => {
  const remote = (headers: Record<string, string>, extra: Partial<ServerConfigInput> = {}): ServerConfig =>
    cfg({ url: 'https://a.example/mcp', headers, ...extra });

  it('are stored like secret env values: references in the config, values in the store, resolved at start', async () => {
    const first = await save(
      'r',
      remote({ Authorization: 'Bearer tok-abcdef', 'X-Sig': 'sig-1', 'X-Team': 'core' }, { secretHeaders: ['X-Sig'] }),
    );
    expect(first.config.headers).toEqual({
      Authorization: secretRef('server/r/header/Authorization'),
      'X-Sig': secretRef('server/r/header/X-Sig'),
      'X-Team': 'core',
    });
    expect(configText).not.toContain('tok-abcdef');
    expect(await store.get('server/r/header/Authorization')).toBe('Bearer tok-abcdef');
    const resolved = await secrets.resolve('r', first.config);
    expect(resolved.headers).toEqual({ Authorization: 'Bearer tok-abcdef', 'X-Sig': 'sig-1', 'X-Team': 'core' });

    // The form sends masks back for the secrets it did not change.
    const again = await save(
      'r',
      remote({ Authorization: SECRET_MASK, 'X-Sig': 'sig-2', 'X-Team': 'core' }, { secretHeaders: ['X-Sig'] }),
      first.config,
    );
    expect(again.secretsChanged).toBe(true);
    expect(await store.get('server/r/header/Authorization')).toBe('Bearer tok-abcdef');
    expect(await store.get('server/r/header/X-Sig')).toBe('sig-2');
  });

  it('refuse a mask that stands for nothing stored, naming the header', async () => {
    await expect(save('r', remote({ 'X-Team': SECRET_MASK }))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      path: 'config.headers.X-Team',
      message: expect.stringContaining('the X-Team header') as unknown,
    });
  });

  it('a missing stored header stops the start with the header named', async () => {
    const config = remote({ Authorization: secretRef('server/r/header/Authorization') });
    await expect(secrets.resolve('r', config)).rejects.toThrow(
      /the secret value of the Authorization header is not in Berth's secret store/,
    );
  });

  it('are deleted with the server', async () => {
    const saved = await save('r', remote({ Authorization: 'Bearer tok' }));
    configText = '{ "mcpServers": {} }';
    await secrets.forget(saved.config);
    expect(await store.get('server/r/header/Authorization')).toBeUndefined();
  });
});

describe('OAuth client credentials of remote servers', () => {
  const remote = (oauth: ServerConfigInput['oauth']): ServerConfig => cfg({ url: 'https://a.example/mcp', oauth });

  it('keep the client secret and the private key in the store; the client ID stays in the config', async () => {
    const first = await save(
      'r',
      remote({ grant: 'client_credentials', clientId: 'robot', clientSecret: 'cs-abcdef-123' }),
    );
    expect(first.config.oauth).toEqual({
      grant: 'client_credentials',
      clientId: 'robot',
      clientSecret: secretRef('server/r/oauth/clientSecret'),
    });
    expect(configText).not.toContain('cs-abcdef-123');
    expect((await secrets.resolve('r', first.config)).oauth).toEqual({
      grant: 'client_credentials',
      clientId: 'robot',
      clientSecret: 'cs-abcdef-123',
    });

    // A mask keeps the stored secret, also across a rename; the old name's secret goes.
    const renamed = await save(
      's',
      remote({ grant: 'client_credentials', clientId: 'robot', clientSecret: SECRET_MASK }),
      first.config,
    );
    expect(await store.get('server/s/oauth/clientSecret')).toBe('cs-abcdef-123');
    expect(await store.get('server/r/oauth/clientSecret')).toBeUndefined();
    expect(renamed.secretsChanged).toBe(true);
  });

  it('refuse a mask that stands for nothing stored, naming the field', async () => {
    await expect(save('r', remote({ clientId: 'robot', clientSecret: SECRET_MASK }))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('the OAuth client secret') as unknown,
    });
  });

  it('a missing stored private key stops the start with the field named', async () => {
    const config = remote({
      grant: 'client_credentials',
      clientId: 'robot',
      privateKey: secretRef('server/r/oauth/privateKey'),
    });
    await expect(secrets.resolve('r', config)).rejects.toThrow(
      /the secret value of the OAuth private key is not in Berth's secret store/,
    );
  });
});
