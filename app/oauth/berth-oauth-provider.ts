import type {
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { randomBytes } from 'node:crypto';
import { validateClientMetadataUrl } from '@modelcontextprotocol/client';
import { HostError } from '../../shared/result';
import { NO_OAUTH_OFFERED } from '../../shared/domain/server-start-error';
import type { SecretStore } from '../secrets/secret-store';
import type { AuthChallenge } from './auth-fetch';
import { dpopSessionFor, supportsDpop } from './dpop-key';
import { IssuerPin } from './issuer-pin';
import { OAuthRecords } from './oauth-records';

/**
 * The server needs the person to sign in (no usable tokens, and refreshing
 * could not help). Raised instead of opening a browser whenever no sign-in
 * was asked for: a connection never starts an authorization on its own.
 */
export class SignInRequiredError extends HostError {
  constructor(readonly server: string) {
    super('NOT_READY', `server '${server}' needs you to sign in (OAuth): press Sign in in its details`);
    this.name = 'SignInRequiredError';
  }
}

/**
 * The server refused the connection (401) but publishes no OAuth metadata:
 * it wants some other credential, and signing in would not help.
 */
export class NoOAuthOfferedError extends HostError {
  constructor() {
    super('NOT_READY', NO_OAUTH_OFFERED);
    this.name = 'NoOAuthOfferedError';
  }
}

/** A client registered by hand with the authorization server. */
export interface PreRegisteredClient {
  clientId: string;
  /** A confidential client's secret; kept out of logs like every other credential. */
  clientSecret?: string;
  /**
   * The authorization server it was registered with: the client's credentials
   * go to no other. Unset for a confidential client: the first sign-in that
   * gets tokens pins it (see IssuerPin).
   */
  issuer?: string;
}

/** Options for {@linkcode BerthOAuthProvider}. */
export interface BerthOAuthProviderOptions {
  /** The server's name in Berth: the store ids are `oauth/<server>/…`. */
  server: string;
  /** The MCP endpoint; tokens saved for another URL are not used. */
  serverUrl: string;
  store: SecretStore;
  preRegistered?: PreRegisteredClient;
  /** An https URL serving Berth's client ID metadata document, for authorization servers that accept one instead of registration. */
  clientMetadataUrl?: string;
  /** Scopes to ask for when the server's metadata suggests none. */
  scope?: string;
  /** What the server's last 401/403 challenge named (remembered by whoever made the provider). */
  challenge?: AuthChallenge;
  /** Told what a challenge names, to hand to the next provider for this server. */
  onChallenge?: (challenge: AuthChallenge) => void;
  /** A pre-registered confidential client's first success pinned its authorization server (to be remembered in the config). */
  onIssuerPinned?: (issuer: string) => void;
  now?: () => number;
}

/** What an interactive sign-in gives the provider for its duration. */
export interface InteractiveSession {
  /** The loopback listener's address. */
  redirectUrl: string;
  /** The `state` the listener expects back. */
  state: string;
  /** Opens the authorization URL in the person's browser. */
  openUrl: (url: string) => Promise<void>;
  /** Told when the SDK moves on to registering (no client yet) or to authorizing (a client is known). */
  onStep?: (step: 'registration' | 'authorization') => void;
}

/** Where a redirect goes when no sign-in is under way; only ever sent to the authorization server inside a refresh, never opened. */
const IDLE_REDIRECT_URL = 'http://127.0.0.1/callback';

/**
 * Berth's OAuthClientProvider for one remote server. Tokens and client
 * registrations live in the SecretStore (see {@linkcode OAuthRecords}); the
 * PKCE verifier lives in memory only, for the one sign-in it belongs to.
 *
 * Two modes: outside a sign-in (the transport's 401 handling) it refreshes
 * tokens but never registers a client or opens a browser — it raises
 * {@linkcode SignInRequiredError} instead; during {@linkcode beginSignIn} …
 * {@linkcode endSignIn} it registers, and sends the person to the
 * authorization page through the injected `openUrl`.
 */
export class BerthOAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  private readonly records: OAuthRecords;
  private readonly now: () => number;
  private session: InteractiveSession | undefined;
  private verifier: string | undefined;
  /** The port of the redirect URI the stored registration names, to reuse it at the next sign-in. */
  private registeredRedirect: string | undefined;
  /** What the last discovery found, also when it was not stored (nobody signed in). */
  private lastDiscovery: OAuthDiscoveryState | undefined;
  private challenge: AuthChallenge;
  /** The DPoP session of the authorization server in use (one per issuer, as its key is). */
  private dpopSession: { issuer: string; session: Promise<DpopSession | undefined> } | undefined;
  /** Where a pre-registered client's credentials may go. */
  private readonly pin: IssuerPin;

  constructor(private readonly options: BerthOAuthProviderOptions) {
    this.pin = new IssuerPin(options.preRegistered?.issuer, options.onIssuerPinned);
    validateClientMetadataUrl(options.clientMetadataUrl);
    this.clientMetadataUrl = options.clientMetadataUrl;
    this.records = new OAuthRecords(options.store, options.server, options.serverUrl);
    this.now = options.now ?? Date.now;
    this.challenge = options.challenge ?? {};
  }

  get server(): string {
    return this.options.server;
  }

  get redirectUrl(): string {
    return this.session?.redirectUrl ?? this.registeredRedirect ?? IDLE_REDIRECT_URL;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Berth',
      client_uri: 'https://github.com/berth-mcp/berth',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A desktop app cannot keep a secret (RFC 8252 §8.4): a public client with PKCE.
      token_endpoint_auth_method:
        this.options.preRegistered?.clientSecret === undefined ? 'none' : 'client_secret_basic',
      ...(this.options.scope === undefined ? {} : { scope: this.options.scope }),
    };
  }

  /** Start an interactive sign-in: registration and the browser are allowed until {@linkcode endSignIn}. */
  beginSignIn(session: InteractiveSession): void {
    this.session = session;
    // "No key" was decided outside a sign-in; a sign-in makes one.
    this.dpopSession = undefined;
  }

  endSignIn(): void {
    this.session = undefined;
    this.verifier = undefined;
  }

  /** The redirect URI of the stored registration, if it is a loopback one (its port is worth listening on again). */
  async registeredRedirectUrl(): Promise<string | undefined> {
    const discovery = await this.records.discovery();
    const issuer = discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
    if (issuer === undefined) return undefined;
    const client = await this.records.client(issuer);
    const uri = firstRedirectUri(client);
    return uri !== undefined && /^http:\/\/127\.0\.0\.1:\d+\/callback$/.test(uri) ? uri : undefined;
  }

  state(): string {
    // Outside a sign-in no redirect is ever opened (see redirectToAuthorization); the SDK still wants a value to build the URL.
    return this.session?.state ?? randomBytes(16).toString('base64url');
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const pre = this.options.preRegistered;
    if (pre !== undefined) {
      // Before the SDK uses the client (and its secret) with the authorization server the MCP server named.
      this.pin.check(ctx?.issuer);
      this.session?.onStep?.('authorization');
      return {
        client_id: pre.clientId,
        ...(pre.clientSecret === undefined ? {} : { client_secret: pre.clientSecret }),
        issuer: this.pin.current ?? ctx?.issuer,
      };
    }
    const client = ctx === undefined ? undefined : await this.records.client(ctx.issuer);
    this.registeredRedirect = firstRedirectUri(client) ?? this.registeredRedirect;
    // Registering is for a sign-in the person started; the SDK would register right after this answer.
    if (client === undefined && this.session === undefined) {
      const found = this.lastDiscovery;
      if (
        found !== undefined &&
        found.resourceMetadata === undefined &&
        found.authorizationServerMetadata === undefined
      )
        throw new NoOAuthOfferedError();
      throw new SignInRequiredError(this.server);
    }
    this.session?.onStep?.(client === undefined ? 'registration' : 'authorization');
    return client;
  }

  async saveClientInformation(
    client: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    // A pre-registered client comes from the options every time; only the SDK's issuer stamp would be saved.
    if (this.options.preRegistered !== undefined) return;
    const issuer = ctx?.issuer ?? client.issuer;
    if (issuer === undefined) throw new Error('OAuth client information without an authorization server');
    await this.records.saveClient(issuer, client);
    this.session?.onStep?.('authorization');
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    return (await this.records.tokens(ctx?.issuer))?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? tokens.issuer;
    if (issuer === undefined) throw new Error('OAuth tokens without an authorization server');
    await this.records.saveTokens(issuer, tokens, this.now());
    // A public client has no secret to protect; a confidential one's first success pins where its secret may go.
    if (this.options.preRegistered?.clientSecret !== undefined) this.pin.succeeded(issuer);
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const session = this.session;
    if (session === undefined) {
      // A step-up (403 insufficient_scope) lands here with the wider scope: the next sign-in asks for it.
      const scope = authorizationUrl.searchParams.get('scope');
      if (scope !== null && scope !== '') await this.records.saveWantedScope(scope);
      throw new SignInRequiredError(this.server);
    }
    // Only a web page may be opened: a file: or custom-scheme URL from a hostile server would launch something else.
    if (
      authorizationUrl.protocol !== 'https:' &&
      !(authorizationUrl.protocol === 'http:' && isLoopback(authorizationUrl.hostname))
    ) {
      throw new Error(`refusing to open the authorization page ${authorizationUrl.origin}: it is not an https address`);
    }
    await session.openUrl(authorizationUrl.href);
  }

  /** The scope the server asked for beyond the current grant (a step-up), if any. */
  wantedScope(): Promise<string | undefined> {
    return this.records.wantedScope();
  }

  /** A 401/403 from the server named the scope it wants or where its metadata is (see noteChallenges). */
  noteChallenge(challenge: AuthChallenge): void {
    this.challenge = { ...this.challenge, ...challenge };
    this.options.onChallenge?.(this.challenge);
  }

  /** Where the server's last challenge said its protected-resource metadata is, for a sign-in's discovery. */
  challengedResourceMetadataUrl(): URL | undefined {
    const url = this.challenge.resourceMetadataUrl;
    return url === undefined || !URL.canParse(url) ? undefined : new URL(url);
  }

  /** What a sign-in asks for: a step-up's wider scope, else what the server's challenge named (else the SDK's choice from metadata). */
  async scopeToAsk(): Promise<string | undefined> {
    return (await this.records.wantedScope()) ?? this.challenge.scope;
  }

  /**
   * DPoP (RFC 9449, SEP-1932) when the authorization server supports it:
   * tokens bound to a key Berth holds, so a stolen token alone is useless.
   * The SDK then proves possession at the token endpoint and on every MCP
   * request; for any other server it stays Bearer as before.
   */
  async dpop(): Promise<DpopSession | undefined> {
    // Asked before every MCP request: the stored discovery is read once per provider, the key once per issuer.
    this.lastDiscovery ??= await this.records.discovery();
    const metadata = this.lastDiscovery?.authorizationServerMetadata;
    const issuer = metadata?.issuer;
    if (issuer === undefined || !supportsDpop(metadata)) return undefined;
    if (this.dpopSession?.issuer !== issuer) {
      const session = this.loadDpop(issuer);
      this.dpopSession = { issuer, session };
      // A failure is not cached: the next request tries again.
      session.catch(() => {
        if (this.dpopSession?.session === session) this.dpopSession = undefined;
      });
    }
    return this.dpopSession.session;
  }

  /** The issuer's stored DPoP key, or a new one during a sign-in; none for a server nobody signed in to (no token to bind, and no records kept). */
  private async loadDpop(issuer: string): Promise<DpopSession | undefined> {
    const stored = await this.records.dpopKey(issuer);
    if (stored === undefined && this.session === undefined) return undefined;
    const { session, created } = await dpopSessionFor(stored);
    if (created !== undefined) await this.records.saveDpopKey(issuer, created);
    return session;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined)
      throw new Error('no PKCE code verifier: the sign-in that started this authorization is over');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') this.verifier = undefined;
    else if (scope === 'client' || scope === 'tokens') await this.records.forget(scope);
    else if (scope === 'discovery') await this.records.forgetDiscovery();
    else await this.signOut();
  }

  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.lastDiscovery = state;
    // Outside a sign-in, a server nobody signed in to keeps no records: signing out leaves nothing behind.
    return this.records.saveDiscovery(state, this.session === undefined);
  }

  discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.records.discovery();
  }

  /** Signed in: tokens are stored; when the access token expires (undefined: not said), and whether it can be renewed. */
  async signInStatus(): Promise<{ signedIn: boolean; expiresAt?: number; renews?: boolean }> {
    const stored = await this.records.tokens();
    if (stored === undefined) return { signedIn: false };
    const renews = typeof stored.tokens.refresh_token === 'string' && stored.tokens.refresh_token !== '';
    const expiresIn = stored.tokens.expires_in;
    return expiresIn === undefined || stored.savedAt === undefined
      ? { signedIn: true, renews }
      : { signedIn: true, renews, expiresAt: stored.savedAt + expiresIn * 1000 };
  }

  /** Forget everything stored for this server: tokens, registrations, discovery. */
  async signOut(): Promise<void> {
    this.verifier = undefined;
    this.registeredRedirect = undefined;
    await this.records.forgetAll();
  }
}

function firstRedirectUri(client: StoredOAuthClientInformation | undefined): string | undefined {
  const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  return Array.isArray(uris) && typeof uris[0] === 'string' ? uris[0] : undefined;
}

function isLoopback(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}
