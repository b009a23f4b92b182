import { createHash, randomBytes, verify, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { afterEach, beforeEach } from 'vitest';
import { z } from 'zod';

/** How the test authorization server misbehaves, when a test asks it to. */
export interface OAuthServerBehaviour {
  /** No OAuth at all: both metadata documents are 404 (the server wants some other credential). */
  noOAuth?: boolean;
  /** The protected-resource metadata names another resource than this server (the client must refuse it). */
  wrongResource?: boolean;
  /** The registration endpoint answers 400 invalid_redirect_uri. */
  rejectRegistration?: boolean;
  /** /authorize redirects back with this `error=` (the person said no). */
  authorizeError?: string;
  /** /authorize redirects back with another state than it was given. */
  wrongState?: boolean;
  /** /authorize redirects back with this `iss` (RFC 9207), as a mixed-up authorization server would. */
  wrongIss?: string;
  /** /authorize never redirects (the person never finishes). */
  authorizeHangs?: boolean;
  /** The token endpoint refuses this many authorization codes with invalid_grant (Infinity: all). */
  rejectCodes?: number;
  /** Seconds an access token lives. */
  accessTokenTtl?: number;
  /** The 401 challenge names this scope (`WWW-Authenticate: Bearer scope="…"`). */
  challengeScope?: string;
  /** The token endpoint fails refreshes with a 500 whose plain-text body repeats the refresh token (raw, base64) and the request's Authorization. */
  refreshEchoes?: boolean;
  /** Accepts this URL as a client ID (a client ID metadata document it trusts without fetching), and says so in its metadata. */
  clientMetadataUrl?: string;
  /** The protected-resource metadata names this authorization server instead of this one (a hostile MCP server naming its own). */
  authorizationServer?: string;
}

interface Client {
  redirectUris: string[];
  /** A confidential client's secret (client_secret_basic or _post). */
  secret?: string;
  /** A private_key_jwt client's public key (ES256 assertions). */
  publicKey?: KeyObject;
  /** Registered by hand: any loopback port is accepted for its redirect (RFC 8252 §7.3). */
  anyLoopbackPort?: boolean;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string | null;
  scope: string | null;
}

interface AccessToken {
  expiresAt: number;
  clientId: string;
  scope: string;
}

interface RefreshToken {
  clientId: string;
  scope: string;
}

/**
 * An OAuth 2.1 authorization server and a protected MCP server in one
 * node:http server on 127.0.0.1: RFC 9728 protected-resource metadata, RFC
 * 8414 metadata, RFC 7591 registration, /authorize (no UI: redirects straight
 * back with a code), /token (authorization_code with a PKCE S256 check,
 * refresh_token with rotation), and `/mcp`, which answers 401 with
 * `WWW-Authenticate: Bearer resource_metadata=…` unless the bearer token is
 * valid, else serves a real MCP server (a `whoami` tool).
 */
export class TestOAuthServer {
  behaviour: OAuthServerBehaviour = {};
  readonly clients = new Map<string, Client>();
  readonly codes = new Map<string, PendingCode>();
  readonly accessTokens = new Map<string, AccessToken>();
  readonly refreshTokens = new Map<string, RefreshToken>();
  /** Every request's method and path, in order (no query strings: they carry codes). */
  readonly requests: string[] = [];
  /** The query of each /authorize request. */
  readonly authorizeRequests: URLSearchParams[] = [];
  /** The form of each /token request. */
  readonly tokenRequests: URLSearchParams[] = [];
  /** The Authorization header of each /token request (client_secret_basic), in the same order. */
  readonly tokenAuthorizations: Array<string | undefined> = [];
  private server: Server | undefined;
  private port = 0;

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get mcpUrl(): string {
    return `${this.base}/mcp`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (typeof address === 'object' && address !== null) this.port = address.port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The access tokens now in force die (as if their lifetime had run out). */
  expireAccessTokens(): void {
    for (const token of this.accessTokens.values()) token.expiresAt = 0;
  }

  /** A client registered by hand (as a person would in the authorization server's console). */
  preRegister(clientId: string, options: { secret?: string; publicKey?: KeyObject } = {}): void {
    this.clients.set(clientId, { redirectUris: ['http://127.0.0.1/callback'], anyLoopbackPort: true, ...options });
  }

  /** Every token, access and refresh, is revoked. */
  revokeAll(): void {
    this.accessTokens.clear();
    this.refreshTokens.clear();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    this.requests.push(`${req.method ?? 'GET'} ${url.pathname}`);
    const body = await readBody(req);
    if (url.pathname === '/mcp') return this.mcp(req, res, url, body);
    if (url.pathname.startsWith('/.well-known/') && this.behaviour.noOAuth === true)
      return json(res, 404, { error: 'not_found' });
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      const resource = this.behaviour.wrongResource === true ? 'https://elsewhere.example/mcp' : this.mcpUrl;
      return json(res, 200, {
        resource,
        authorization_servers: [this.behaviour.authorizationServer ?? this.base],
        scopes_supported: ['mcp:tools'],
        bearer_methods_supported: ['header'],
      });
    }
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: this.base,
        authorization_endpoint: `${this.base}/authorize`,
        token_endpoint: `${this.base}/token`,
        registration_endpoint: `${this.base}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['ES256'],
        scopes_supported: ['mcp:tools', 'offline_access'],
        ...(this.behaviour.clientMetadataUrl === undefined ? {} : { client_id_metadata_document_supported: true }),
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') return this.register(res, body);
    if (url.pathname === '/authorize') return this.authorize(res, url.searchParams);
    if (url.pathname === '/token' && req.method === 'POST')
      return this.token(res, new URLSearchParams(body), req.headers.authorization);
    json(res, 404, { error: 'not_found' });
  }

  private register(res: ServerResponse, body: string): void {
    const metadata = JSON.parse(body) as { redirect_uris?: string[] };
    if (this.behaviour.rejectRegistration === true)
      return json(res, 400, {
        error: 'invalid_redirect_uri',
        error_description: 'loopback redirects are not allowed here',
      });
    const clientId = `client-${randomBytes(6).toString('hex')}`;
    this.clients.set(clientId, { redirectUris: metadata.redirect_uris ?? [] });
    json(res, 201, { ...metadata, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) });
  }

  private authorize(res: ServerResponse, query: URLSearchParams): void {
    this.authorizeRequests.push(query);
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    const client =
      this.clients.get(clientId) ??
      (clientId === this.behaviour.clientMetadataUrl ? { redirectUris: [], anyLoopbackPort: true } : undefined);
    if (client === undefined || !redirectAllowed(client, redirectUri))
      return json(res, 400, { error: 'invalid_request', error_description: 'unknown client or redirect_uri' });
    if (this.behaviour.authorizeHangs === true) return;
    const back = new URL(redirectUri);
    if (this.behaviour.wrongIss !== undefined) back.searchParams.set('iss', this.behaviour.wrongIss);
    back.searchParams.set('state', this.behaviour.wrongState === true ? 'not-the-state' : (query.get('state') ?? ''));
    if (this.behaviour.authorizeError !== undefined) {
      back.searchParams.set('error', this.behaviour.authorizeError);
      back.searchParams.set('error_description', 'The person declined.');
    } else if (query.get('code_challenge_method') !== 'S256' || query.get('code_challenge') === null) {
      back.searchParams.set('error', 'invalid_request');
    } else {
      const code = randomBytes(16).toString('hex');
      this.codes.set(code, {
        clientId,
        redirectUri,
        challenge: query.get('code_challenge') ?? '',
        resource: query.get('resource'),
        scope: query.get('scope'),
      });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { Location: back.href }).end();
  }

  private token(res: ServerResponse, form: URLSearchParams, authorization: string | undefined): void {
    this.tokenRequests.push(form);
    this.tokenAuthorizations.push(authorization);
    const caller = this.authenticate(form, authorization);
    if (caller === 'refused')
      return json(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
    const grant = form.get('grant_type');
    if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      // Workload identity: the assertion is the grant; it names the workload as its subject.
      const subject = this.verifyAssertion(form.get('assertion') ?? '');
      if (subject === undefined)
        return json(res, 400, { error: 'invalid_grant', error_description: 'assertion not accepted' });
      const issued = this.issue(subject, form.get('scope') ?? '');
      delete issued.refresh_token;
      return json(res, 200, issued);
    }
    if (grant === 'client_credentials') {
      if (caller === undefined)
        return json(res, 401, {
          error: 'invalid_client',
          error_description: 'client_credentials needs an authenticated client',
        });
      const issued = this.issue(caller, form.get('scope') ?? '');
      delete issued.refresh_token;
      return json(res, 200, issued);
    }
    if (grant === 'authorization_code') {
      const code = form.get('code') ?? '';
      const pending = this.codes.get(code);
      this.codes.delete(code);
      if ((this.behaviour.rejectCodes ?? 0) > 0) {
        this.behaviour.rejectCodes = (this.behaviour.rejectCodes ?? 0) - 1;
        return json(res, 400, { error: 'invalid_grant', error_description: 'code expired' });
      }
      if (pending === undefined)
        return json(res, 400, { error: 'invalid_grant', error_description: 'unknown or used code' });
      if (this.clients.get(pending.clientId)?.secret !== undefined && caller !== pending.clientId)
        return json(res, 401, { error: 'invalid_client', error_description: 'this client must authenticate' });
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (challenge !== pending.challenge)
        return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      if ((caller ?? form.get('client_id')) !== pending.clientId || form.get('redirect_uri') !== pending.redirectUri)
        return json(res, 400, { error: 'invalid_grant', error_description: 'client or redirect_uri mismatch' });
      if (form.get('resource') !== this.mcpUrl)
        return json(res, 400, { error: 'invalid_target', error_description: 'wrong resource' });
      return json(res, 200, this.issue(pending.clientId, pending.scope ?? ''));
    }
    if (grant === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? '';
      if (this.behaviour.refreshEchoes === true) {
        res
          .writeHead(500, { 'Content-Type': 'text/plain' })
          .end(
            `backend down; request was refresh_token=${refresh} (${Buffer.from(refresh).toString('base64')}) authorization=${authorization ?? 'none'}`,
          );
        return;
      }
      const grant = this.refreshTokens.get(refresh);
      if (grant === undefined)
        return json(res, 400, { error: 'invalid_grant', error_description: 'refresh token revoked' });
      this.refreshTokens.delete(refresh);
      return json(res, 200, this.issue(grant.clientId, grant.scope));
    }
    json(res, 400, { error: 'unsupported_grant_type' });
  }

  /**
   * The client a token request authenticates as: client_secret_basic,
   * client_secret_post or an ES256 private_key_jwt assertion; undefined for a
   * public client (none); 'refused' when a credential is wrong.
   */
  private authenticate(form: URLSearchParams, authorization: string | undefined): string | undefined | 'refused' {
    if (authorization?.startsWith('Basic ') === true) {
      const [id = '', secret = ''] = Buffer.from(authorization.slice(6), 'base64')
        .toString('utf8')
        .split(':')
        .map(decodeURIComponent);
      return this.clients.get(id)?.secret === secret && secret !== '' ? id : 'refused';
    }
    const postedSecret = form.get('client_secret');
    if (postedSecret !== null) {
      const id = form.get('client_id') ?? '';
      return this.clients.get(id)?.secret === postedSecret ? id : 'refused';
    }
    const assertion = form.get('client_assertion');
    if (assertion !== null) return this.verifyAssertion(assertion, true) ?? 'refused';
    return undefined;
  }

  /** The subject of an ES256 JWT signed by a registered client's key, for this server, unexpired; `selfIssued`: iss must equal sub (a client assertion). */
  private verifyAssertion(assertion: string, selfIssued = false): string | undefined {
    const [header = '', payload = '', signature = ''] = assertion.split('.');
    let claims: { iss?: string; sub?: string; aud?: string | string[]; exp?: number };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      return undefined;
    }
    const key = this.clients.get(claims.sub ?? '')?.publicKey;
    const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const signed =
      key !== undefined &&
      verify(
        'sha256',
        Buffer.from(`${header}.${payload}`),
        { key, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      );
    const fresh = (claims.exp ?? 0) * 1000 > Date.now();
    const issuerOk = !selfIssued || claims.iss === claims.sub;
    return signed && fresh && issuerOk && (audience.includes(this.base) || audience.includes(`${this.base}/token`))
      ? claims.sub
      : undefined;
  }

  private issue(clientId: string, scope: string): Record<string, unknown> {
    const ttl = this.behaviour.accessTokenTtl ?? 3600;
    const access = `at-${randomBytes(16).toString('hex')}`;
    const refresh = `rt-${randomBytes(16).toString('hex')}`;
    this.accessTokens.set(access, { expiresAt: Date.now() + ttl * 1000, clientId, scope });
    this.refreshTokens.set(refresh, { clientId, scope });
    return { access_token: access, token_type: 'Bearer', expires_in: ttl, refresh_token: refresh, scope };
  }

  private async mcp(req: IncomingMessage, res: ServerResponse, url: URL, body: string): Promise<void> {
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? this.accessTokens.get(header.slice(7)) : undefined;
    if (token === undefined || token.expiresAt <= Date.now()) {
      const error = header === '' ? '' : ', error="invalid_token"';
      const scope = this.behaviour.challengeScope === undefined ? '' : `scope="${this.behaviour.challengeScope}", `;
      res
        .writeHead(401, {
          'WWW-Authenticate': `Bearer ${scope}resource_metadata="${this.base}/.well-known/oauth-protected-resource/mcp"${error}`,
        })
        .end();
      return;
    }
    // Step-up: the `admin` tool needs a scope the first sign-in does not ask for.
    if (req.method === 'POST' && wantsTool(body, 'admin') && !token.scope.split(' ').includes('mcp:admin')) {
      res
        .writeHead(403, {
          'WWW-Authenticate': `Bearer error="insufficient_scope", scope="mcp:admin", resource_metadata="${this.base}/.well-known/oauth-protected-resource/mcp"`,
        })
        .end();
      return;
    }
    const server = new McpServer({ name: 'oauth-protected', version: '1.0.0' });
    server.registerTool('admin', { description: 'Needs the mcp:admin scope', inputSchema: z.object({}) }, () => ({
      content: [{ type: 'text', text: `admin for ${token.clientId}` }],
    }));
    server.registerTool(
      'whoami',
      { description: 'Which client the token was issued to', inputSchema: z.object({}) },
      () => ({ content: [{ type: 'text', text: `signed in as ${token.clientId}` }] }),
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const request = new Request(url, { method: req.method, headers, body: req.method === 'POST' ? body : undefined });
    const response = await transport.handleRequest(request);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(Buffer.from(await response.arrayBuffer()));
    await server.close();
  }
}

function redirectAllowed(client: Client, redirectUri: string): boolean {
  if (client.redirectUris.includes(redirectUri)) return true;
  return client.anyLoopbackPort === true && /^http:\/\/127\.0\.0\.1:\d+\/callback$/.test(redirectUri);
}

function wantsTool(body: string, tool: string): boolean {
  try {
    const message = JSON.parse(body) as { method?: unknown; params?: { name?: unknown } };
    return message.method === 'tools/call' && message.params?.name === tool;
  } catch {
    return false;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}

/**
 * What a browser does with the authorization URL here: follows the redirect
 * to the loopback listener. Like shell.openExternal it returns at once; the
 * pages it reached are kept for the test to read.
 */
/** Registers, in the current suite, a fresh TestOAuthServer started before each test and stopped after it. */
export function oauthServerPerTest(): { readonly server: TestOAuthServer } {
  let server: TestOAuthServer | undefined;
  beforeEach(async () => {
    server = new TestOAuthServer();
    await server.start();
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });
  return {
    get server(): TestOAuthServer {
      if (server === undefined) throw new Error('oauthServerPerTest: the server runs only while a test runs');
      return server;
    },
  };
}

export function browserOpener(): {
  openUrl: (url: string) => Promise<void>;
  pages: Array<{ status: number; text: string }>;
} {
  const pages: Array<{ status: number; text: string }> = [];
  return {
    pages,
    openUrl: (url) => {
      void fetch(url)
        .then(async (response) => pages.push({ status: response.status, text: await response.text() }))
        .catch(() => undefined);
      return Promise.resolve();
    },
  };
}
