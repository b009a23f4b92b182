import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BerthOAuthProvider, SignInRequiredError } from '../../app/oauth/berth-oauth-provider';
import { dedupeRefreshes } from '../../app/oauth/auth-fetch';
import { SignInError, signIn } from '../../app/oauth/sign-in';
import { FileSecretStore } from '../../app/secrets/secret-store';
import { tempDir } from '../../app/servers/test-support';
import { TestOAuthServer, browserOpener } from './oauth-support';

describe('OAuth sign-in against a test authorization server and protected MCP server', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let as: TestOAuthServer;
  let store: FileSecretStore;
  let provider: BerthOAuthProvider;
  let consoleOutput: string[];
  const clients: Client[] = [];

  beforeEach(async () => {
    dir = await tempDir('berth-oauth-');
    as = new TestOAuthServer();
    await as.start();
    store = new FileSecretStore({ filePath: join(dir.path, 'secrets.json'), warn: () => undefined });
    provider = new BerthOAuthProvider({ server: 'notes', serverUrl: as.mcpUrl, store });
    consoleOutput = [];
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation(
        (...args: unknown[]) => void consoleOutput.push(args.map(String).join(' ')),
      );
    }
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    vi.restoreAllMocks();
    await as.stop();
    await dir.cleanup();
  });

  /** Nothing secret the authorization server handed out, or was sent, appears in anything printed. */
  function expectNoSecretPrinted(): void {
    const printed = consoleOutput.join('\n');
    const secrets = [
      ...as.accessTokens.keys(),
      ...as.refreshTokens.keys(),
      ...as.tokenRequests.flatMap((form) => [form.get('code'), form.get('code_verifier'), form.get('refresh_token')]),
    ];
    for (const secret of secrets) if (secret !== null && secret !== '') expect(printed).not.toContain(secret);
  }

  async function connect(): Promise<Client> {
    const client = new Client({ name: 'berth-test', version: '1.0.0' });
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(as.mcpUrl), { authProvider: provider, fetch: dedupeRefreshes(fetch) }),
    );
    return client;
  }

  async function whoami(client: Client): Promise<string> {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    return (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');
  }

  async function signInNow(options: { timeoutMs?: number } = {}): Promise<Array<{ status: number; text: string }>> {
    const browser = browserOpener();
    await signIn({ serverUrl: as.mcpUrl, provider, openUrl: browser.openUrl, timeoutMs: options.timeoutMs ?? 10_000 });
    return browser.pages;
  }

  it('discovers, registers, authorizes with PKCE S256 and resource, exchanges the code, stores the tokens, and the server then answers', async () => {
    await expect(connect()).rejects.toThrow(SignInRequiredError);
    const registrationsBefore = as.clients.size;
    expect(registrationsBefore).toBe(0);

    const pages = await signInNow();

    expect(as.requests).toContain('GET /.well-known/oauth-protected-resource/mcp');
    expect(as.requests).toContain('GET /.well-known/oauth-authorization-server');
    expect(as.clients.size).toBe(1);
    const [clientId] = [...as.clients.keys()];
    const authorize = as.authorizeRequests.at(-1);
    expect(authorize?.get('code_challenge_method')).toBe('S256');
    expect(authorize?.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize?.get('resource')).toBe(as.mcpUrl);
    expect(authorize?.get('client_id')).toBe(clientId);
    expect(authorize?.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(authorize?.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect(as.tokenRequests.map((form) => form.get('grant_type'))).toEqual(['authorization_code']);
    expect(pages).toEqual([expect.objectContaining({ status: 200, text: expect.stringContaining('return to Berth') })]);

    const status = await provider.signInStatus();
    expect(status.signedIn).toBe(true);
    expect(status.expiresAt).toBeGreaterThan(Date.now());
    const file = await readFile(join(dir.path, 'secrets.json'), 'utf8');
    expect(Object.keys((JSON.parse(file) as { secrets: Record<string, string> }).secrets).sort()).toEqual([
      'oauth/notes/as/' + encodeURIComponent(as.base),
      'oauth/notes/index',
    ]);

    expect(await whoami(await connect())).toBe(`signed in as ${clientId}`);
    expectNoSecretPrinted();
  });

  it('refreshes an expired access token without the browser, and keeps the same registration', async () => {
    await signInNow();
    const client = await connect();
    const before = await provider.tokens();
    as.expireAccessTokens();

    expect(await whoami(client)).toMatch(/^signed in as client-/);

    expect(as.tokenRequests.map((form) => form.get('grant_type'))).toEqual(['authorization_code', 'refresh_token']);
    const after = await provider.tokens();
    expect(after?.access_token).not.toBe(before?.access_token);
    expect(as.accessTokens.has(after?.access_token ?? '')).toBe(true);
    expect(as.clients.size).toBe(1);
    expectNoSecretPrinted();
  });

  it('a revoked token means signing in again: the connection says so and never opens a browser by itself', async () => {
    await signInNow();
    const client = await connect();
    as.revokeAll();
    const authorizeBefore = as.authorizeRequests.length;

    await expect(whoami(client)).rejects.toThrow(/needs you to sign in/);
    expect(as.authorizeRequests.length).toBe(authorizeBefore);
    expect((await provider.signInStatus()).signedIn).toBe(false);

    await signInNow();
    expect(await whoami(await connect())).toMatch(/^signed in as client-/);
    // The registration survived: only the tokens were forgotten.
    expect(as.clients.size).toBe(1);
    expectNoSecretPrinted();
  });

  it('step-up: a tool that needs more scope asks for a sign-in, and that sign-in asks for the wider scope', async () => {
    await signInNow();
    const client = await connect();
    expect(as.authorizeRequests.at(-1)?.get('scope')?.split(' ')).not.toContain('mcp:admin');
    const authorizeBefore = as.authorizeRequests.length;

    await expect(client.callTool({ name: 'admin', arguments: {} })).rejects.toThrow(/needs you to sign in/);
    expect(as.authorizeRequests.length).toBe(authorizeBefore);

    await signInNow();
    expect(as.authorizeRequests.at(-1)?.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['mcp:tools', 'mcp:admin']),
    );
    const again = await connect();
    const result = await again.callTool({ name: 'admin', arguments: {} });
    expect((result.content as Array<{ text?: string }>)[0]?.text).toMatch(/^admin for client-/);
    expectNoSecretPrinted();
  });

  it('reuses the registered loopback port at the next sign-in, and sign-out forgets everything for the server', async () => {
    await signInNow();
    const first = as.authorizeRequests.at(-1)?.get('redirect_uri');
    await signInNow();
    expect(as.authorizeRequests.at(-1)?.get('redirect_uri')).toBe(first);
    expect(as.clients.size).toBe(1);

    await provider.signOut();
    expect((await provider.signInStatus()).signedIn).toBe(false);
    const file = JSON.parse(await readFile(join(dir.path, 'secrets.json'), 'utf8')) as {
      secrets: Record<string, string>;
    };
    expect(Object.keys(file.secrets)).toEqual([]);
    await expect(connect()).rejects.toThrow(SignInRequiredError);
  });

  it.each([
    ['discovery', { wrongResource: true }, /finding the authorization server \(discovery\): .*does not match/],
    [
      'registration',
      { rejectRegistration: true },
      /registering Berth .*invalid_redirect_uri: loopback redirects are not allowed/,
    ],
    [
      'authorization',
      { authorizeError: 'access_denied' },
      /authorization in the browser \(consent\): the authorization server refused the sign-in: access_denied \(The person declined\.\)/,
    ],
    [
      'authorization',
      { wrongIss: 'https://evil.example' },
      /authorization in the browser \(consent\): the answer claims to come from another authorization server .*mix-up/,
    ],
    [
      'token',
      { rejectCodes: Infinity },
      /exchanging the code for tokens: invalid_grant: code expired \(the authorization server refused the code 2 times; giving up\)/,
    ],
  ] as const)('names the failing step: %s (%o)', async (step, behaviour, message) => {
    as.behaviour = behaviour;
    const error = await signInNow().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SignInError);
    expect((error as SignInError).step).toBe(step);
    expect((error as SignInError).message).toMatch(message);
    // An issuer that answered in another's name is not repeated to the person (RFC 9207).
    expect((error as SignInError).message).not.toContain('evil.example');
    expect((await provider.signInStatus()).signedIn).toBe(false);
    expectNoSecretPrinted();
  });

  it('a refused code gets one more round in the browser', async () => {
    as.behaviour = { rejectCodes: 1 };
    await signInNow();
    expect(as.authorizeRequests).toHaveLength(2);
    // The SDK's auth() itself sends a refused code once more before giving up on it; then Berth's second round.
    expect(as.tokenRequests.map((form) => form.get('grant_type'))).toEqual([
      'authorization_code',
      'authorization_code',
      'authorization_code',
    ]);
    expect(await whoami(await connect())).toMatch(/^signed in as client-/);
  });

  it('ignores an answer with the wrong state and gives up at the timeout, saying why', async () => {
    as.behaviour = { wrongState: true };
    await expect(signInNow({ timeoutMs: 1_000 })).rejects.toThrow(
      /authorization in the browser \(consent\): the sign-in was not finished in the browser within 1 s \(one answer with the wrong state came back and was refused/,
    );
    expectNoSecretPrinted();
  });

  it('gives up with a clear message when the browser never comes back', async () => {
    as.behaviour = { authorizeHangs: true };
    await expect(signInNow({ timeoutMs: 300 })).rejects.toThrow(
      /authorization in the browser \(consent\): the sign-in was not finished in the browser within 0\.3 s/,
    );
  });
});
