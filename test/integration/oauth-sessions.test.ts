import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OAuthSessions } from '../../app/oauth/oauth-sessions';
import { FileSecretStore } from '../../app/secrets/secret-store';
import { serverConfig, tempDir, waitUntil } from '../../app/servers/test-support';
import { TestOAuthServer } from './oauth-support';

describe('OAuthSessions (what servers.signIn / servers.signOut run)', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let as: TestOAuthServer;
  let store: FileSecretStore;
  let lines: string[];
  let signedIn: string[];

  function sessions(openExternal?: (url: string) => Promise<void>, clientMetadataUrl?: string): OAuthSessions {
    return new OAuthSessions({
      store,
      ...(clientMetadataUrl === undefined ? {} : { clientMetadataUrl: () => clientMetadataUrl }),
      ...(openExternal === undefined ? {} : { openExternal }),
      log: (server, level, text) => lines.push(`${server} ${level} ${text}`),
      onSignedIn: (server) => signedIn.push(server),
      timeoutMs: 5_000,
    });
  }

  beforeEach(async () => {
    dir = await tempDir('berth-oauth-sessions-');
    as = new TestOAuthServer();
    await as.start();
    store = new FileSecretStore({ filePath: join(dir.path, 'secrets.json'), warn: () => undefined });
    lines = [];
    signedIn = [];
  });
  afterEach(async () => {
    await as.stop();
    await dir.cleanup();
  });

  it('a published client ID metadata document replaces registration where the authorization server accepts one', async () => {
    const documentUrl = 'https://berth.example/oauth/client-metadata.json';
    as.behaviour.clientMetadataUrl = documentUrl;
    const oauth = sessions(undefined, documentUrl);
    const start = await oauth.startSignIn('notes', serverConfig({ url: as.mcpUrl }));
    expect(new URL(start.authorizationUrl).searchParams.get('client_id')).toBe(documentUrl);
    await (await fetch(start.authorizationUrl)).text();
    await waitUntil(() => signedIn.length === 1);
    expect(as.requests).not.toContain('POST /register');
  });

  it('browser mode: answers with the page for the renderer to open, then finishes on the loopback redirect', async () => {
    const oauth = sessions();
    const config = serverConfig({ url: as.mcpUrl });
    const start = await oauth.startSignIn('notes', config);
    expect(start.opened).toBe(false);
    expect(new URL(start.authorizationUrl).origin).toBe(as.base);
    expect(await oauth.signedIn('notes', config)).toBe(false);

    await (await fetch(start.authorizationUrl)).text();
    await waitUntil(() => signedIn.includes('notes'), 5_000, 'the sign-in to finish');
    expect(await oauth.signedIn('notes', config)).toBe(true);
    expect(lines).toEqual(['notes info signing in (OAuth): waiting for the browser', 'notes info signed in (OAuth)']);

    await oauth.signOut('notes', config);
    expect(await oauth.signedIn('notes', config)).toBe(false);
  });

  it('Electron: Berth opens the page itself', async () => {
    const opened: string[] = [];
    const oauth = sessions(async (url) => {
      opened.push(url);
      await (await fetch(url)).text();
    });
    const start = await oauth.startSignIn('notes', serverConfig({ url: as.mcpUrl }));
    expect(start.opened).toBe(true);
    expect(opened).toEqual([start.authorizationUrl]);
    await waitUntil(() => signedIn.includes('notes'), 5_000, 'the sign-in to finish');
  });

  it('a failure before the browser is the answer; a failure after it goes to the server log', async () => {
    const oauth = sessions();
    as.behaviour = { rejectRegistration: true };
    const refused = oauth.startSignIn('notes', serverConfig({ url: as.mcpUrl }));
    await expect(refused).rejects.toThrow(/sign-in failed while registering Berth/);
    // The step is a code for the person's language; the authorization server's words stay as they are.
    await expect(refused).rejects.toMatchObject({
      hostMessage: {
        code: 'credential-errors.sign-in-failed',
        params: { step: 'registration', reason: expect.stringMatching(/.+/) as unknown },
      },
    });

    as.behaviour = { authorizeError: 'access_denied' };
    const start = await oauth.startSignIn('notes', serverConfig({ url: as.mcpUrl }));
    await (await fetch(start.authorizationUrl)).text();
    await waitUntil(() => lines.some((line) => line.startsWith('notes error ')), 5_000, 'the error line');
    expect(lines.at(-1)).toMatch(
      /^notes error sign-in failed while authorization in the browser \(consent\): the authorization server refused the sign-in: access_denied/,
    );
    expect(signedIn).toEqual([]);
  });

  it('a second sign-in replaces the one still waiting, which ends quietly', async () => {
    const oauth = sessions();
    const config = serverConfig({ url: as.mcpUrl });
    const first = await oauth.startSignIn('notes', config);
    const second = await oauth.startSignIn('notes', config);
    await (await fetch(second.authorizationUrl)).text();
    await waitUntil(() => signedIn.includes('notes'), 5_000, 'the sign-in to finish');
    // The first one's listener is gone: its redirect reaches nobody.
    await expect(fetch(first.authorizationUrl).then((response) => response.text())).rejects.toThrow();
    expect(lines.filter((line) => line.includes(' error '))).toEqual([]);
  });

  it('local servers and servers with their own Authorization header are not signed in to', () => {
    const oauth = sessions();
    expect(() => oauth.startSignIn('local', serverConfig({ command: 'node' }))).toThrow(
      /is local: there is nothing to sign in to/,
    );
    const withHeader = serverConfig({ url: as.mcpUrl, headers: { authorization: 'Bearer x' } });
    expect(oauth.providerFor('remote', withHeader)).toBeUndefined();
    expect(() => oauth.startSignIn('remote', withHeader)).toThrow(/sends its own Authorization header/);
  });
});
