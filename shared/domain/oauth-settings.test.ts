import { describe, expect, it } from 'vitest';
import { ServerConfigSchema, oauthGrant } from './server';

const url = 'https://mcp.example.com/mcp';

function problems(input: unknown): Array<{ path: string; message: string }> {
  const parsed = ServerConfigSchema.safeParse(input);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

describe('oauth settings of a server', () => {
  it('are optional; the grant defaults to a browser sign-in', () => {
    expect(problems({ url })).toEqual([]);
    expect(oauthGrant(ServerConfigSchema.parse({ url }))).toBe('authorization_code');
    expect(
      problems({
        url,
        oauth: { clientId: 'berth', clientSecret: 's', scope: 'read write', issuer: 'https://auth.example.com' },
      }),
    ).toEqual([]);
    expect(
      problems({
        url,
        oauth: {
          grant: 'client_credentials',
          clientId: 'ci',
          privateKey: '-----BEGIN PRIVATE KEY-----',
          signingAlgorithm: 'ES256',
        },
      }),
    ).toEqual([]);
  });

  it('say which field is missing or contradicts another', () => {
    expect(problems({ url, oauth: { grant: 'client_credentials' } })).toEqual([
      { path: 'oauth.clientId', message: 'Client credentials need the client ID the authorization server issued' },
      { path: 'oauth.clientSecret', message: 'Client credentials need a client secret or a private key' },
    ]);
    expect(problems({ url, oauth: { clientSecret: 's' } })).toEqual([
      { path: 'oauth.clientId', message: 'A client secret needs the client ID it belongs to' },
    ]);
    expect(problems({ url, oauth: { clientId: 'c', privateKey: 'k' } })).toEqual([
      { path: 'oauth.privateKey', message: 'A private key is only used with client credentials' },
    ]);
    expect(
      problems({ url, oauth: { grant: 'client_credentials', clientId: 'c', clientSecret: 's', privateKey: 'k' } }),
    ).toEqual([{ path: 'oauth.privateKey', message: 'Give either a client secret or a private key, not both' }]);
    expect(problems({ command: 'x', oauth: { clientId: 'c' } })).toEqual([
      { path: 'oauth.grant', message: 'OAuth settings are for remote servers: this server has no url' },
    ]);
    expect(problems({ url, headers: { Authorization: 'Bearer x' }, oauth: { clientId: 'c' } })).toHaveLength(1);
    expect(problems({ url, oauth: { clientId: 'c', issuer: 'http://auth.example.com' } })[0]?.path).toBe(
      'oauth.issuer',
    );
    expect(problems({ url, oauth: { clientId: 'c', extra: 1 } })[0]?.path).toBe('oauth');
    expect(problems({ url, oauth: { grant: 'jwt_bearer', clientId: 'w' } })).toEqual([
      { path: 'oauth.assertionFile', message: 'Workload identity needs the file that holds the identity token' },
    ]);
    expect(problems({ url, oauth: { clientId: 'w', assertionFile: '/t' } })).toEqual([
      { path: 'oauth.assertionFile', message: 'A token file is only used with workload identity' },
    ]);
  });

  it('never throw on hostile input (the cross-field check runs on invalid values too)', () => {
    for (const oauth of [null, 5, 'x', [], { grant: 7, clientId: {}, clientSecret: [] }])
      expect(() => ServerConfigSchema.safeParse({ url, oauth })).not.toThrow();
  });
});
