import { describe, expect, it } from 'vitest';
import { JWT_BEARER_GRANT, WorkloadIdentityOAuthProvider } from './workload-identity-provider';

describe('WorkloadIdentityOAuthProvider', () => {
  it('reads the token file for every token request', async () => {
    const tokens = ['a.b.c', ' d.e.f\n'];
    const read: string[] = [];
    const provider = new WorkloadIdentityOAuthProvider({
      clientId: 'wl',
      assertionFile: '/run/t',
      scope: 'mcp',
      readText: (path) => (read.push(path), Promise.resolve(tokens.shift() ?? '')),
    });
    expect((await provider.prepareTokenRequest()).toString()).toBe(
      `grant_type=${encodeURIComponent(JWT_BEARER_GRANT)}&assertion=a.b.c&scope=mcp`,
    );
    expect((await provider.prepareTokenRequest('other')).get('assertion')).toBe('d.e.f');
    expect(read).toEqual(['/run/t', '/run/t']);
    expect(provider.clientInformation()).toEqual({ client_id: 'wl' });
    expect(provider.clientMetadata.grant_types).toEqual([JWT_BEARER_GRANT]);
  });

  it('says what is wrong with the file, never what is in it', async () => {
    const provider = new WorkloadIdentityOAuthProvider({
      clientId: 'wl',
      assertionFile: '/run/t',
      readText: () => Promise.resolve('not-a-jwt-secretish'),
    });
    await expect(provider.prepareTokenRequest()).rejects.toThrow(
      '/run/t does not hold a JWT (the workload identity token)',
    );
    const missing = new WorkloadIdentityOAuthProvider({
      clientId: 'wl',
      assertionFile: '/nope',
      readText: () => Promise.reject(new Error('ENOENT')),
    });
    await expect(missing.prepareTokenRequest()).rejects.toThrow(
      'could not read the workload identity token from /nope: ENOENT',
    );
  });
});
