import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../shared/domain/log';
import { type ServerState } from '../../shared/domain/server';
import { serverTools } from '../../shared/domain/server-state-read';
import { hostOutput, hostPerTest } from './host-harness';
import { oauthServerPerTest } from './oauth-support';

/**
 * The whole path through the contract, as the renderer drives it in browser
 * mode: a remote server that wants OAuth is an error saying so; servers.signIn
 * answers with the authorization page; "the browser" follows it; the server
 * starts signed in; renaming keeps the sign-in; servers.signOut forgets it.
 * No token, code or verifier appears in anything the renderer or the log
 * files could see.
 */
const oauth = oauthServerPerTest();
const berth = hostPerTest('berth-oauth-host-');

const oauthKeys = async (): Promise<string[]> => {
  const text = await readFile(join(berth.dir, 'secrets.json'), 'utf8').catch(() => '{"secrets":{}}');
  return Object.keys((JSON.parse(text) as { secrets: Record<string, string> }).secrets).filter((key) =>
    key.startsWith('oauth/'),
  );
};

describe('OAuth through the host contract', () => {
  it('sign in, use, rename, sign out', async () => {
    const h = await berth.start();
    const needsSignIn = (name: string) => (state: ServerState) =>
      state.name === name &&
      state.status === 'error' &&
      state.auth?.state === 'needs-sign-in' &&
      /needs you to sign in/.test(state.reason ?? '');
    await h.call('servers.add', { name: 'notes', config: { url: oauth.server.mcpUrl } });
    await h.waitForEvent('servers.changed', needsSignIn('notes'));

    const start = await h.call<{ authorizationUrl: string; opened: boolean }>('servers.signIn', { name: 'notes' });
    expect(start.opened).toBe(false);
    await (await fetch(start.authorizationUrl)).text();
    await h.waitForEvent(
      'servers.changed',
      (state) =>
        state.name === 'notes' &&
        state.status === 'ready' &&
        state.auth?.state === 'signed-in' &&
        state.auth.renews === true,
    );
    // The tool list came over the signed-in connection (tool calls go through chat and consent, tested elsewhere).
    const listed = (await h.call<ServerState[]>('servers.list', {})).find((state) => state.name === 'notes');
    expect(
      serverTools(listed)
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(['admin', 'whoami']);
    expect((await oauthKeys()).length).toBe(2);
    const notesLog = (
      await h.call<{ entries: LogEntry[] }>('logs.query', { server: 'notes', limit: 1_000 })
    ).entries.map((entry) => entry.text);
    expect(notesLog).toEqual(
      expect.arrayContaining(['signing in (OAuth): waiting for the browser', 'signed in (OAuth)']),
    );

    const renamed = await h.call<ServerState>('servers.update', {
      name: 'notes',
      newName: 'journal',
      config: { url: oauth.server.mcpUrl },
    });
    expect(renamed.name).toBe('journal');
    await h.waitForEvent('servers.changed', (state) => state.name === 'journal' && state.status === 'ready');
    expect((await oauthKeys()).every((key) => key.startsWith('oauth/journal/'))).toBe(true);

    expect(
      (await h.call<ServerState[]>('servers.list', {})).find((state) => state.name === 'journal')?.auth?.state,
    ).toBe('signed-in');
    await h.call('servers.signOut', { name: 'journal' });
    await h.waitForEvent('servers.changed', needsSignIn('journal'));
    expect(await oauthKeys()).toEqual([]);

    const everything = await hostOutput(h, berth.dir);
    const secrets = [
      ...oauth.server.accessTokens.keys(),
      ...oauth.server.refreshTokens.keys(),
      ...oauth.server.tokenRequests.flatMap((form) => [
        form.get('code'),
        form.get('code_verifier'),
        form.get('refresh_token'),
      ]),
    ];
    for (const secret of secrets) if (secret !== null && secret !== '') expect(everything).not.toContain(secret);
  });
});
