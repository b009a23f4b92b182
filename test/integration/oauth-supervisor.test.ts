import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BerthOAuthProvider } from '../../app/oauth/berth-oauth-provider';
import { signIn } from '../../app/oauth/sign-in';
import { FileSecretStore } from '../../app/secrets/secret-store';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, StateRecorder, serverConfig, tempDir, waitUntil } from '../../app/servers/test-support';
import { TestOAuthServer, browserOpener } from './oauth-support';

function textOf(result: { content: unknown[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');
}

describe('a remote server behind OAuth, through the supervisor', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let as: TestOAuthServer;
  let store: FileSecretStore;
  let logs: LogCollector;
  let recorder: StateRecorder;
  let supervisor: ServerSupervisor;

  const providerFor = (server: string, url: string) => new BerthOAuthProvider({ server, serverUrl: url, store });

  beforeEach(async () => {
    dir = await tempDir('berth-oauth-sup-');
    as = new TestOAuthServer();
    await as.start();
    store = new FileSecretStore({ filePath: join(dir.path, 'secrets.json'), warn: () => undefined });
    logs = new LogCollector();
    recorder = new StateRecorder();
    supervisor = new ServerSupervisor({
      logs,
      stateDir: dir.path,
      onState: recorder.onState,
      authProviderFor: (server, config) => (config.url === undefined ? undefined : providerFor(server, config.url)),
    });
  });
  afterEach(async () => {
    await supervisor.shutdown();
    await as.stop();
    await dir.cleanup();
  });

  it('a server that wants a sign-in is an error saying so, not retried; after signing in it starts and its tools work; tokens never reach the logs', async () => {
    await supervisor.sync({ notes: serverConfig({ url: as.mcpUrl, restart: { initialDelayMs: 100 } }) });
    const failed = await waitUntil(
      () => (supervisor.get('notes')?.status === 'error' ? supervisor.get('notes') : undefined),
      20_000,
      'the sign-in error',
    );
    expect(failed.reason).toBe(`${as.mcpUrl} needs you to sign in (OAuth): press Sign in in the server's details`);
    // Coded too, so the renderer words it (and names its Sign in button) in the person's language.
    expect(failed.reasonMessage).toEqual({ code: 'server-state.needs-sign-in', params: { where: as.mcpUrl } });
    expect(failed.auth).toEqual({ state: 'needs-sign-in' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(recorder.statuses('notes').slice(-2)).toEqual(['starting', 'error']);
    expect(recorder.statuses('notes')).not.toContain('restarting');
    // Nothing was registered or authorized behind the person's back.
    expect(as.clients.size).toBe(0);
    expect(as.authorizeRequests).toHaveLength(0);

    const browser = browserOpener();
    await signIn({
      serverUrl: as.mcpUrl,
      provider: providerFor('notes', as.mcpUrl),
      openUrl: browser.openUrl,
      timeoutMs: 10_000,
    });
    await supervisor.start('notes');
    expect(supervisor.get('notes')?.status).toBe('ready');
    const signedIn = supervisor.get('notes')?.auth;
    expect(signedIn).toMatchObject({ state: 'signed-in', renews: true });
    expect(signedIn?.expiresAt).toBeGreaterThan(Date.now());
    expect(textOf(await supervisor.callTool('notes', 'whoami', {}))).toMatch(/^signed in as client-/);

    // Expired while connected: refreshed once, the call goes through.
    as.expireAccessTokens();
    expect(textOf(await supervisor.callTool('notes', 'whoami', {}))).toMatch(/^signed in as client-/);
    expect(as.tokenRequests.map((form) => form.get('grant_type'))).toEqual(['authorization_code', 'refresh_token']);

    const logged = JSON.stringify(logs.entries);
    for (const token of [...as.accessTokens.keys(), ...as.refreshTokens.keys()]) expect(logged).not.toContain(token);
    for (const form of as.tokenRequests)
      expect(logged).not.toContain(form.get('refresh_token') ?? form.get('code') ?? 'never');
  });

  it('the sign-in state goes needs-sign-in → signed-in → needs-sign-in after signing out, and carries no token', async () => {
    await supervisor.sync({ notes: serverConfig({ url: as.mcpUrl }) });
    await waitUntil(() => supervisor.get('notes')?.auth?.state === 'needs-sign-in', 20_000, 'needs-sign-in');

    const provider = providerFor('notes', as.mcpUrl);
    await signIn({ serverUrl: as.mcpUrl, provider, openUrl: browserOpener().openUrl, timeoutMs: 10_000 });
    // What servers.signIn's completion runs: the state says so before (and whether or not) the server starts.
    expect((await supervisor.signInChanged('notes')).auth?.state).toBe('signed-in');
    expect(supervisor.get('notes')?.status).toBe('error');
    await supervisor.restart('notes');
    expect(supervisor.get('notes')).toMatchObject({ status: 'ready', auth: { state: 'signed-in' } });

    // What servers.signOut runs.
    await provider.signOut();
    expect((await supervisor.signInChanged('notes')).auth).toEqual({ state: 'needs-sign-in' });
    await supervisor.restart('notes');
    expect(supervisor.get('notes')).toMatchObject({ status: 'error', auth: { state: 'needs-sign-in' } });

    const emitted = JSON.stringify(recorder.states);
    for (const token of [...as.accessTokens.keys(), ...as.refreshTokens.keys()]) expect(emitted).not.toContain(token);
  });

  it('a 401 from a server that offers no OAuth says to check its headers, not to sign in', async () => {
    as.behaviour = { noOAuth: true };
    await supervisor.sync({ keyed: serverConfig({ url: as.mcpUrl, headers: { 'X-Api-Key': 'wrong' } }) });
    const failed = await waitUntil(
      () => (supervisor.get('keyed')?.status === 'error' ? supervisor.get('keyed') : undefined),
      20_000,
      'the error',
    );
    expect(failed.reason).toBe(
      `${as.mcpUrl} answered HTTP 401 and offers no OAuth sign-in (no protected-resource or authorization-server metadata): check the credentials in its headers (an older OAuth server without metadata: press Sign in to try its default endpoints)`,
    );
    expect(as.clients.size).toBe(0);
  });
});
