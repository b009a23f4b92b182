import { describe, expect, it } from 'vitest';
import { SECRET_MASK, ServerConfigSchema } from '../../../shared/domain';
import { serverState } from '../../test-support/fake-transport';
import {
  buildServerInput as buildInput,
  emptyFormValues,
  formValuesFromServer,
  newRowId,
  type ServerFormValues,
} from './server-form-model';
import { wordsTexts } from '../../i18n/words';

/** The outcome as the form shows it: its errors worded in the active locale. */
function buildServerInput(...args: Parameters<typeof buildInput>) {
  const outcome = buildInput(...args);
  return outcome.ok ? outcome : { ok: false as const, errors: wordsTexts(outcome.errors) };
}

function remote(overrides: Partial<ServerFormValues> = {}): ServerFormValues {
  return { ...emptyFormValues(), name: 'linear', kind: 'remote', url: ' https://mcp.example.com/mcp ', ...overrides };
}

describe('the server form for a remote server', () => {
  it('builds a url config with headers; Authorization is secret without being listed', () => {
    const outcome = buildServerInput(
      remote({
        transport: 'sse',
        headers: [
          { id: newRowId(), key: 'Authorization', value: 'Bearer abc', secret: false },
          { id: newRowId(), key: 'X-Team', value: 'core', secret: false },
          { id: newRowId(), key: 'X-Signing', value: 'k3y', secret: true },
        ],
      }),
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.config).toMatchObject({
      url: 'https://mcp.example.com/mcp',
      type: 'sse',
      headers: { Authorization: 'Bearer abc', 'X-Team': 'core', 'X-Signing': 'k3y' },
      secretHeaders: ['X-Signing'],
    });
    expect(outcome.config.command).toBeUndefined();
    expect(ServerConfigSchema.safeParse(outcome.config).success).toBe(true);
  });

  it('says what is wrong with the address and the headers, under their fields', () => {
    const bad = newRowId();
    const twice = newRowId();
    const outcome = buildServerInput(
      remote({
        url: 'http://example.com/mcp',
        headers: [
          { id: bad, key: 'Bad Header', value: 'x', secret: false },
          { id: newRowId(), key: 'x-a', value: '1', secret: false },
          { id: twice, key: 'X-A', value: '2', secret: false },
        ],
      }),
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors.url).toMatch(/https:\/\/.*localhost/);
    expect(outcome.errors[`header.${bad}.key`]).toMatch(/Header names/);
    expect(outcome.errors[`header.${twice}.key`]).toMatch(/already set/);
    expect(buildServerInput(remote({ url: 'not a url' }))).toMatchObject({
      ok: false,
      errors: { url: expect.stringMatching(/full address/) },
    });
    expect(buildServerInput(remote({ url: '' }))).toMatchObject({
      ok: false,
      errors: { url: expect.stringMatching(/address/) },
    });
  });

  it('switching an edited server from local to remote drops the command, and back drops the url', () => {
    const local = ServerConfigSchema.parse({ command: 'npx', args: ['-y', 'pkg'], env: { A: 'b' }, cwd: '/tmp' });
    const toRemote = buildServerInput(remote({ url: 'http://localhost:3000/mcp' }), local);
    expect(toRemote.ok && toRemote.config).toMatchObject({ url: 'http://localhost:3000/mcp', args: [], env: {} });
    expect(toRemote.ok && 'command' in toRemote.config).toBe(false);
    expect(toRemote.ok && 'cwd' in toRemote.config).toBe(false);

    const remoteConfig = ServerConfigSchema.parse({
      url: 'https://a.example/mcp',
      type: 'http',
      headers: { 'X-A': '1' },
    });
    const toLocal = buildServerInput({ ...emptyFormValues(), name: 'x', command: 'node' }, remoteConfig);
    expect(toLocal.ok).toBe(true);
    if (!toLocal.ok) return;
    expect(toLocal.config).toMatchObject({ command: 'node', headers: {} });
    expect('url' in toLocal.config || 'type' in toLocal.config).toBe(false);
  });

  it('loads a remote server into the form with its secret headers still masked', () => {
    const state = serverState('linear', {
      config: ServerConfigSchema.parse({
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: SECRET_MASK, 'X-Team': 'core' },
      }),
    });
    const form = formValuesFromServer(state);
    expect(form).toMatchObject({ kind: 'remote', url: 'https://mcp.example.com/mcp', transport: '', command: '' });
    expect(form.headers.map(({ key, value, secret }) => [key, value, secret])).toEqual([
      ['Authorization', SECRET_MASK, true],
      ['X-Team', 'core', false],
    ]);
    // Saved unchanged: the mask goes back and the host keeps the stored value.
    const outcome = buildServerInput(form);
    expect(outcome.ok && outcome.config.headers).toEqual({ Authorization: SECRET_MASK, 'X-Team': 'core' });
  });
});

describe('the OAuth section of the server form', () => {
  it('sends nothing when left alone, and only what the chosen grant uses', () => {
    expect(buildServerInput(remote())).toMatchObject({
      ok: true,
      config: expect.not.objectContaining({ oauth: expect.anything() }),
    });
    const browser = buildServerInput(
      remote({
        oauth: {
          ...emptyFormValues().oauth,
          clientId: ' berth ',
          clientSecret: 's3',
          privateKey: 'stale key',
          scope: ' read ',
        },
      }),
    );
    expect(browser.ok && browser.config.oauth).toEqual({ clientId: 'berth', clientSecret: 's3', scope: 'read' });
    const machine = buildServerInput(
      remote({
        oauth: {
          ...emptyFormValues().oauth,
          grant: 'client_credentials',
          clientId: 'ci',
          clientAuth: 'key',
          clientSecret: 'stale',
          privateKey: 'PEM',
        },
      }),
    );
    expect(machine.ok && machine.config.oauth).toEqual({
      grant: 'client_credentials',
      clientId: 'ci',
      privateKey: 'PEM',
    });
    const workload = buildServerInput(
      remote({
        oauth: {
          ...emptyFormValues().oauth,
          grant: 'jwt_bearer',
          clientId: 'wl',
          clientSecret: 'stale',
          assertionFile: ' /run/token ',
        },
      }),
    );
    expect(workload.ok && workload.config.oauth).toEqual({
      grant: 'jwt_bearer',
      clientId: 'wl',
      assertionFile: '/run/token',
    });
  });

  it('puts the missing credential under the field the form shows', () => {
    const withKey = buildServerInput(
      remote({ oauth: { ...emptyFormValues().oauth, grant: 'client_credentials', clientId: 'ci', clientAuth: 'key' } }),
    );
    expect(withKey).toMatchObject({
      ok: false,
      errors: { 'oauth.privateKey': 'Client credentials need a client secret or a private key' },
    });
    const withSecret = buildServerInput(remote({ oauth: { ...emptyFormValues().oauth, grant: 'client_credentials' } }));
    expect(withSecret).toMatchObject({
      ok: false,
      errors: {
        'oauth.clientId': expect.stringContaining('client ID'),
        'oauth.clientSecret': expect.stringContaining('secret'),
      },
    });
  });

  it('loads stored settings with the secret masked, and a local server drops them', () => {
    const state = serverState('robot', {
      config: ServerConfigSchema.parse({
        url: 'https://mcp.example.com/mcp',
        oauth: { grant: 'client_credentials', clientId: 'ci', clientSecret: SECRET_MASK },
      }),
    });
    const form = formValuesFromServer(state);
    expect(form.oauth).toMatchObject({
      grant: 'client_credentials',
      clientId: 'ci',
      clientAuth: 'secret',
      clientSecret: SECRET_MASK,
    });
    const saved = buildServerInput(form);
    expect(saved.ok && saved.config.oauth).toEqual({
      grant: 'client_credentials',
      clientId: 'ci',
      clientSecret: SECRET_MASK,
    });
    const toLocal = buildServerInput({ ...form, kind: 'local', command: 'node' }, state.config);
    expect(toLocal.ok && 'oauth' in toLocal.config).toBe(false);
  });
});
