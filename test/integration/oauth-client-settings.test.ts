import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRET_MASK, type ServerState } from '../../shared/domain/server';
import { serverTools } from '../../shared/domain/server-state-read';
import { eventAfter } from './host-chat-support';
import { hostOutput, hostPerTest, type HostHarness } from './host-harness';
import { oauthServerPerTest } from './oauth-support';

/**
 * A remote server's OAuth client settings through the host contract: a
 * pre-registered client (id + secret) signs in without registering; client
 * credentials (a secret, or a private key) connect with no person at all;
 * a pinned authorization server keeps the credentials from any other. The
 * secret and the key live in the secret store only: config.json refers to
 * them, the renderer sees a mask, and neither reaches an event or a log.
 */
const oauth = oauthServerPerTest();
const berth = hostPerTest('berth-oauth-settings-');

const CLIENT_SECRET = 'cs-7f3a9b1c5d2e8f40-very-secret';

const ready = (name: string) => (state: ServerState) => state.name === name && state.status === 'ready';

const visibleText = (h: HostHarness): Promise<string> => hostOutput(h, berth.dir);

describe('OAuth client settings', () => {
  it('a pre-registered confidential client signs in without registering, its secret kept in the store', async () => {
    oauth.server.preRegister('berth-desktop', { secret: CLIENT_SECRET });
    const h = await berth.start();
    const added = await h.call<ServerState>('servers.add', {
      name: 'notes',
      config: { url: oauth.server.mcpUrl, oauth: { clientId: 'berth-desktop', clientSecret: CLIENT_SECRET } },
    });
    expect(added.config.oauth).toEqual({ clientId: 'berth-desktop', clientSecret: SECRET_MASK });
    const onDisk = await readFile(join(berth.dir, 'config.json'), 'utf8');
    expect(onDisk).not.toContain(CLIENT_SECRET);
    expect(onDisk).toContain('${secret:server/notes/oauth/clientSecret}');
    await h.waitForEvent('servers.changed', (state) => state.name === 'notes' && state.status === 'error');

    const start = await h.call<{ authorizationUrl: string }>('servers.signIn', { name: 'notes' });
    expect(new URL(start.authorizationUrl).searchParams.get('client_id')).toBe('berth-desktop');
    await (await fetch(start.authorizationUrl)).text();
    await h.waitForEvent('servers.changed', ready('notes'));
    expect(oauth.server.requests).not.toContain('POST /register');
    const codeExchange = oauth.server.tokenRequests.findIndex(
      (form) => form.get('grant_type') === 'authorization_code',
    );
    expect(oauth.server.tokenAuthorizations[codeExchange]).toBe(
      `Basic ${Buffer.from(`berth-desktop:${CLIENT_SECRET}`).toString('base64')}`,
    );

    // Saving the form with the mask keeps the stored secret.
    await h.call('servers.update', {
      name: 'notes',
      config: { url: oauth.server.mcpUrl, oauth: { clientId: 'berth-desktop', clientSecret: SECRET_MASK } },
    });
    await h.waitForEvent('servers.changed', ready('notes'));
    const secrets = JSON.parse(await readFile(join(berth.dir, 'secrets.json'), 'utf8')) as {
      secrets: Record<string, string>;
    };
    expect(Object.keys(secrets.secrets)).toContain('server/notes/oauth/clientSecret');

    const text = await visibleText(h);
    expect(text).not.toContain(CLIENT_SECRET);
    expect(text).not.toContain(Buffer.from(`berth-desktop:${CLIENT_SECRET}`).toString('base64'));
  });

  it("the sign-in asks for the scope the server's 401 challenge named (before the metadata's scopes)", async () => {
    oauth.server.behaviour.challengeScope = 'mcp:admin';
    const h = await berth.start();
    await h.call('servers.add', { name: 'notes', config: { url: oauth.server.mcpUrl } });
    await h.waitForEvent('servers.changed', (state) => state.name === 'notes' && state.auth?.state === 'needs-sign-in');
    const start = await h.call<{ authorizationUrl: string }>('servers.signIn', { name: 'notes' });
    // The metadata alone would give mcp:tools; offline_access is the SDK's addition for a refresh token.
    expect(new URL(start.authorizationUrl).searchParams.get('scope')?.split(' ').sort()).toEqual([
      'mcp:admin',
      'offline_access',
    ]);
  });

  it('client credentials with a secret: the server starts with no sign-in', async () => {
    oauth.server.preRegister('ci-robot', { secret: CLIENT_SECRET });
    const h = await berth.start();
    await h.call('servers.add', {
      name: 'robot',
      config: {
        url: oauth.server.mcpUrl,
        oauth: { grant: 'client_credentials', clientId: 'ci-robot', clientSecret: CLIENT_SECRET, scope: 'mcp:tools' },
      },
    });
    const state = await h.waitForEvent('servers.changed', ready('robot'));
    expect(serverTools(state).map((tool) => tool.name)).toContain('whoami');
    expect(oauth.server.tokenRequests.map((form) => form.get('grant_type'))).toEqual(['client_credentials']);
    expect(oauth.server.tokenRequests[0]?.get('scope')).toBe('mcp:tools');
    expect(oauth.server.authorizeRequests).toEqual([]);
    const signIn = await h.host.dispatch('servers.signIn', { name: 'robot' });
    expect(signIn).toMatchObject({ ok: false, message: expect.stringContaining('client credentials') });
    expect(await visibleText(h)).not.toContain(CLIENT_SECRET);
  });

  it('client credentials with a wrong secret: the error says the authorization server refused the client', async () => {
    oauth.server.preRegister('ci-robot', { secret: CLIENT_SECRET });
    const h = await berth.start();
    await h.call('servers.add', {
      name: 'robot',
      config: {
        url: oauth.server.mcpUrl,
        restart: { enabled: false },
        oauth: { grant: 'client_credentials', clientId: 'ci-robot', clientSecret: 'not-the-secret-123' },
      },
    });
    const failed = await h.waitForEvent('servers.changed', (s) => s.name === 'robot' && s.status === 'error');
    expect(failed.reason).toMatch(/OAuth with .* failed: invalid_client/);
    expect(failed.reason).not.toContain('not-the-secret-123');
  });

  it('client credentials with a private key (private_key_jwt): signed assertion, no secret sent', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    oauth.server.preRegister('ci-signer', { publicKey });
    const h = await berth.start();
    await h.call('servers.add', {
      name: 'signer',
      config: {
        url: oauth.server.mcpUrl,
        oauth: { grant: 'client_credentials', clientId: 'ci-signer', privateKey: pem },
      },
    });
    await h.waitForEvent('servers.changed', ready('signer'));
    const form = oauth.server.tokenRequests[0];
    expect(form?.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    expect(form?.get('client_secret')).toBeNull();
    expect(await readFile(join(berth.dir, 'config.json'), 'utf8')).not.toContain('PRIVATE KEY');
    const text = await visibleText(h);
    expect(text).not.toContain('PRIVATE KEY');
  });

  it('an unreadable private key stops the start with the reason, and no restarts', async () => {
    const h = await berth.start();
    const pem = '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----';
    await h.call('servers.add', {
      name: 'signer',
      config: {
        url: oauth.server.mcpUrl,
        oauth: { grant: 'client_credentials', clientId: 'ci-signer', privateKey: pem },
      },
    });
    const failed = await h.waitForEvent('servers.changed', (s) => s.name === 'signer' && s.status === 'error');
    expect(failed.reason).toMatch(/^the OAuth private key is not a PEM private key Berth can read/);
    expect(failed.restartCount).toBe(0);
    expect(oauth.server.requests).toEqual([]);
  });

  it('workload identity: the token file is the grant, read again for each token request', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    oauth.server.preRegister('workload-1', { publicKey });
    const tokenFile = join(berth.dir, 'workload.jwt');
    const first = workloadJwt(privateKey, oauth.server.base);
    await writeFile(tokenFile, `${first}\n`);
    const h = await berth.start();
    await h.call('servers.add', {
      name: 'job',
      config: {
        url: oauth.server.mcpUrl,
        oauth: { grant: 'jwt_bearer', clientId: 'workload-1', assertionFile: tokenFile },
      },
    });
    await h.waitForEvent('servers.changed', ready('job'));
    expect(oauth.server.tokenRequests.map((form) => [form.get('grant_type'), form.get('assertion')])).toEqual([
      ['urn:ietf:params:oauth:grant-type:jwt-bearer', first],
    ]);

    // The platform rotated the token; the next start presents the new one.
    const second = workloadJwt(privateKey, oauth.server.base);
    await writeFile(tokenFile, second);
    await h.call('servers.restart', { name: 'job' });
    await h.waitForEvent('servers.changed', (state) => ready('job')(state) && oauth.server.tokenRequests.length === 2);
    expect(oauth.server.tokenRequests[1]?.get('assertion')).toBe(second);
  });

  it('workload identity with a missing token file says which file', async () => {
    const h = await berth.start();
    const missing = join(berth.dir, 'nowhere.jwt');
    await h.call('servers.add', {
      name: 'job',
      config: {
        url: oauth.server.mcpUrl,
        restart: { enabled: false },
        oauth: { grant: 'jwt_bearer', clientId: 'workload-1', assertionFile: missing },
      },
    });
    const failed = await h.waitForEvent('servers.changed', (s) => s.name === 'job' && s.status === 'error');
    expect(failed.reason).toContain(`could not read the workload identity token from ${missing}`);
  });

  it('a pinned authorization server: credentials are not sent to the one the server names instead', async () => {
    oauth.server.preRegister('ci-robot', { secret: CLIENT_SECRET });
    const h = await berth.start();
    await h.call('servers.add', {
      name: 'robot',
      config: {
        url: oauth.server.mcpUrl,
        restart: { enabled: false },
        oauth: {
          grant: 'client_credentials',
          clientId: 'ci-robot',
          clientSecret: CLIENT_SECRET,
          issuer: 'https://auth.example.com',
        },
      },
    });
    const failed = await h.waitForEvent('servers.changed', (s) => s.name === 'robot' && s.status === 'error');
    expect(failed.reason).toMatch(
      /belong to https:\/\/auth\.example\.com; Berth did not send the client's credentials there/,
    );
    expect(oauth.server.tokenRequests).toEqual([]);
  });

  it('settings that cannot work are refused with the field named', async () => {
    const h = await berth.start();
    const result = await h.host.dispatch('servers.add', {
      name: 'robot',
      config: { url: oauth.server.mcpUrl, oauth: { grant: 'client_credentials', clientId: 'ci-robot' } },
    });
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('client secret or a private key') });
  });
});

describe('the authorization server a confidential client trusts', () => {
  // A second authorization server: what a hostile MCP server would name to collect the credentials.
  const hostile = oauthServerPerTest();

  const storedOAuth = async (name: string): Promise<Record<string, unknown> | undefined> =>
    (
      JSON.parse(await readFile(join(berth.dir, 'config.json'), 'utf8')) as {
        mcpServers: Record<string, { oauth?: Record<string, unknown> }>;
      }
    ).mcpServers[name]?.oauth;

  it('client credentials: the first success pins the issuer in the config; a server naming another one later gets nothing, and the error names both', async () => {
    oauth.server.preRegister('ci-robot', { secret: CLIENT_SECRET });
    const h = await berth.start();
    await h.call('servers.add', {
      name: 'robot',
      config: {
        url: oauth.server.mcpUrl,
        oauth: { grant: 'client_credentials', clientId: 'ci-robot', clientSecret: CLIENT_SECRET },
      },
    });
    const pinned = await h.waitForEvent(
      'servers.changed',
      (state) => state.name === 'robot' && state.config.oauth?.issuer === oauth.server.base,
    );
    // Taken over as it runs: still ready, no second start.
    expect(pinned.status).toBe('ready');
    expect(oauth.server.tokenRequests).toHaveLength(1);
    expect(await storedOAuth('robot')).toMatchObject({
      issuer: oauth.server.base,
      clientSecret: '${secret:server/robot/oauth/clientSecret}',
    });

    oauth.server.behaviour.authorizationServer = hostile.server.base;
    await h.call('servers.restart', { name: 'robot' });
    const refused = await h.waitForEvent(
      'servers.changed',
      (state) => state.name === 'robot' && state.status === 'error',
    );
    expect(refused.reason).toContain(
      `the server sends Berth to the authorization server ${hostile.server.base}, but its OAuth client settings belong to ${oauth.server.base}; Berth did not send the client's credentials there`,
    );
    // Retrying cannot help: no automatic restarts.
    expect(refused.restartCount).toBe(0);
    expect(hostile.server.tokenRequests).toEqual([]);
    expect(hostile.server.tokenAuthorizations).toEqual([]);
    expect(hostile.server.requests.filter((request) => !request.startsWith('GET /.well-known/'))).toEqual([]);
    expect(await visibleText(h)).not.toContain(CLIENT_SECRET);
  });

  it('a hostile server naming its own authorization server against an entered issuer: no token request reaches it', async () => {
    oauth.server.preRegister('ci-robot', { secret: CLIENT_SECRET });
    oauth.server.behaviour.authorizationServer = hostile.server.base;
    const h = await berth.start();
    await h.call('servers.add', {
      name: 'robot',
      config: {
        url: oauth.server.mcpUrl,
        oauth: {
          grant: 'client_credentials',
          clientId: 'ci-robot',
          clientSecret: CLIENT_SECRET,
          issuer: oauth.server.base,
        },
      },
    });
    const refused = await h.waitForEvent(
      'servers.changed',
      (state) => state.name === 'robot' && state.status === 'error',
    );
    expect(refused.reason).toContain(`belong to ${oauth.server.base}`);
    expect(hostile.server.tokenRequests).toEqual([]);
    expect(oauth.server.tokenRequests).toEqual([]);
  });

  it('a pre-registered confidential client: the sign-in pins the issuer; a sign-in sent to another authorization server is refused before anything is sent', async () => {
    oauth.server.preRegister('berth-desktop', { secret: CLIENT_SECRET });
    const h = await berth.start();
    await h.call('servers.add', {
      name: 'notes',
      config: { url: oauth.server.mcpUrl, oauth: { clientId: 'berth-desktop', clientSecret: CLIENT_SECRET } },
    });
    await h.waitForEvent('servers.changed', (state) => state.name === 'notes' && state.status === 'error');
    const start = await h.call<{ authorizationUrl: string }>('servers.signIn', { name: 'notes' });
    await (await fetch(start.authorizationUrl)).text();
    await h.waitForEvent(
      'servers.changed',
      (state) => ready('notes')(state) && state.config.oauth?.issuer === oauth.server.base,
    );
    expect(await storedOAuth('notes')).toMatchObject({ issuer: oauth.server.base });

    // The tokens are gone and the server now names another authorization server.
    oauth.server.revokeAll();
    oauth.server.behaviour.authorizationServer = hostile.server.base;
    const restarting = h.events.length;
    await h.call('servers.restart', { name: 'notes' });
    // The stored discovery still names the pinned server, which refuses the refresh: a sign-in is needed. Looked for
    // after the restart only: the first start's state already said needs-sign-in, and would end the wait at once.
    await eventAfter(
      h,
      restarting,
      'servers.changed',
      (state) => state.name === 'notes' && state.auth?.state === 'needs-sign-in',
    );
    const signIn = await h.host.dispatch('servers.signIn', { name: 'notes' });
    expect(signIn).toMatchObject({ ok: false, message: expect.stringContaining(`belong to ${oauth.server.base}`) });
    expect(hostile.server.requests.filter((request) => !request.startsWith('GET /.well-known/'))).toEqual([]);
  });

  it('workload identity is a credential too: its first success pins the issuer', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    oauth.server.preRegister('workload-1', { publicKey });
    const tokenFile = join(berth.dir, 'workload.jwt');
    await writeFile(tokenFile, workloadJwt(privateKey, oauth.server.base));
    const h = await berth.start();
    await h.call('servers.add', {
      name: 'job',
      config: {
        url: oauth.server.mcpUrl,
        oauth: { grant: 'jwt_bearer', clientId: 'workload-1', assertionFile: tokenFile },
      },
    });
    await h.waitForEvent(
      'servers.changed',
      (state) => ready('job')(state) && state.config.oauth?.issuer === oauth.server.base,
    );

    oauth.server.behaviour.authorizationServer = hostile.server.base;
    await h.call('servers.restart', { name: 'job' });
    await h.waitForEvent('servers.changed', (state) => state.name === 'job' && state.status === 'error');
    expect(hostile.server.tokenRequests).toEqual([]);
  });
});

/** A workload identity token as a platform would issue it: ES256, the workload as subject, this authorization server as audience. */
function workloadJwt(key: KeyObject, audience: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: 'ES256', typ: 'JWT' })}.${part({ iss: 'https://idp.example', sub: 'workload-1', aud: audience, iat: now, exp: now + 300, jti: String(Math.random()) })}`;
  return `${unsigned}.${sign('sha256', Buffer.from(unsigned), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}
