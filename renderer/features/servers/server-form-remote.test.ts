import { describe, expect, it } from 'vitest';
import { SECRET_MASK, ServerConfigSchema } from '../../../shared/domain';
import { serverState } from '../../test-support/fake-transport';
import { buildServerInput, emptyFormValues, formValuesFromServer, newRowId, type ServerFormValues } from './server-form-model';

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
    expect(outcome.config).toMatchObject({ url: 'https://mcp.example.com/mcp', type: 'sse', headers: { Authorization: 'Bearer abc', 'X-Team': 'core', 'X-Signing': 'k3y' }, secretHeaders: ['X-Signing'] });
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
    expect(buildServerInput(remote({ url: 'not a url' }))).toMatchObject({ ok: false, errors: { url: expect.stringMatching(/full address/) } });
    expect(buildServerInput(remote({ url: '' }))).toMatchObject({ ok: false, errors: { url: expect.stringMatching(/address/) } });
  });

  it('switching an edited server from local to remote drops the command, and back drops the url', () => {
    const local = ServerConfigSchema.parse({ command: 'npx', args: ['-y', 'pkg'], env: { A: 'b' }, cwd: '/tmp' });
    const toRemote = buildServerInput(remote({ url: 'http://localhost:3000/mcp' }), local);
    expect(toRemote.ok && toRemote.config).toMatchObject({ url: 'http://localhost:3000/mcp', args: [], env: {} });
    expect(toRemote.ok && 'command' in toRemote.config).toBe(false);
    expect(toRemote.ok && 'cwd' in toRemote.config).toBe(false);

    const remoteConfig = ServerConfigSchema.parse({ url: 'https://a.example/mcp', type: 'http', headers: { 'X-A': '1' } });
    const toLocal = buildServerInput({ ...emptyFormValues(), name: 'x', command: 'node' }, remoteConfig);
    expect(toLocal.ok).toBe(true);
    if (!toLocal.ok) return;
    expect(toLocal.config).toMatchObject({ command: 'node', headers: {} });
    expect('url' in toLocal.config || 'type' in toLocal.config).toBe(false);
  });

  it('loads a remote server into the form with its secret headers still masked', () => {
    const state = serverState('linear', {
      config: ServerConfigSchema.parse({ url: 'https://mcp.example.com/mcp', headers: { Authorization: SECRET_MASK, 'X-Team': 'core' } }),
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
