import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { hasOwnAuthorization, oauthGrant, personSignsIn, type ServerConfig } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import type { SecretStore } from '../secrets/secret-store';
import { BerthOAuthProvider, type BerthOAuthProviderOptions } from './berth-oauth-provider';
import { ClientCredentialsOAuthProvider } from './client-credentials-provider';
import { WorkloadIdentityOAuthProvider } from './workload-identity-provider';
import { OAuthRecords, moveOAuthRecords } from './oauth-records';
import type { AuthChallenge } from './auth-fetch';
import { signIn } from './sign-in';
import { ServerStartError } from '../../shared/domain/server-start-error';
import { errorMessage } from '../../shared/error-message';
import { credentialError } from '../../shared/domain/credential-errors';

/** Options for {@linkcode OAuthSessions}. */
export interface OAuthSessionsOptions {
  store: SecretStore;
  /**
   * Opens the authorization page in the system browser (Electron's
   * shell.openExternal). Absent in browser mode: the renderer opens the URL
   * that `startSignIn` returns, as it does for URL-mode elicitation.
   */
  openExternal?: (url: string) => Promise<void>;
  /** A line for the server's log; never given a credential. */
  log: (server: string, level: 'info' | 'warning' | 'error', text: string) => void;
  /** The sign-in finished: the server can be (re)started with its new tokens. */
  onSignedIn: (server: string) => void;
  /** How long the person has to finish in the browser. */
  timeoutMs?: number;
  /** Berth's published client ID metadata document, if any (read at each start: settings can change). */
  clientMetadataUrl?: () => string | undefined;
  /**
   * A confidential client's first success pinned its authorization server:
   * remember it in the server's config (oauth.issuer), so from then on the
   * credentials go to no other.
   */
  onIssuerPinned?: (server: string, issuer: string) => void;
}

/** Where the sign-in went: the page to open, and whether Berth already opened it. */
export interface SignInStart {
  authorizationUrl: string;
  opened: boolean;
}

/**
 * The OAuth side of the host: one {@linkcode BerthOAuthProvider} per remote
 * server start, and the sign-ins the person starts (one per server at a
 * time: a new one replaces the one still waiting for the browser).
 */
export class OAuthSessions {
  private readonly running = new Map<string, AbortController>();
  /** What each server's last 401/403 challenge named: the next sign-in uses it. Memory only: a hint, not a record. */
  private readonly challenged = new Map<string, AuthChallenge>();

  constructor(private readonly options: OAuthSessionsOptions) {}

  /** The provider for a start of this server (`config` with its secrets resolved); see {@linkcode oauthProviderFor}. */
  providerFor(server: string, config: ServerConfig): OAuthClientProvider | undefined {
    try {
      const clientMetadataUrl = this.options.clientMetadataUrl?.();
      return oauthProviderFor(server, config, this.options.store, {
        ...(clientMetadataUrl === undefined ? {} : { clientMetadataUrl }),
        ...(this.challenged.has(server) ? { challenge: this.challenged.get(server) } : {}),
        onChallenge: (challenge) => this.challenged.set(server, challenge),
        onIssuerPinned: (issuer) => {
          this.options.log(
            server,
            'info',
            `OAuth: pinned the authorization server ${issuer}; the client's credentials go to no other`,
          );
          this.options.onIssuerPinned?.(server, issuer);
        },
      });
    } catch (error) {
      // An unreadable private key: the settings must change before a start can work, so no automatic restarts.
      throw new ServerStartError(errorMessage(error), 'config', undefined, error);
    }
  }

  /**
   * Start signing in to a server. Resolves once the authorization page is
   * known (the rest happens in the browser and on the loopback listener);
   * rejects if a step before it failed (discovery, registration). The end of
   * the sign-in is reported through `log` and `onSignedIn`.
   */
  startSignIn(server: string, config: ServerConfig): Promise<SignInStart> {
    const provider = this.providerFor(server, config);
    const url = config.url;
    if (!(provider instanceof BerthOAuthProvider) || url === undefined) {
      throw HostError.coded(
        'NOT_READY',
        config.url === undefined
          ? credentialError('credential-errors.local-server', { server })
          : provider === undefined
            ? credentialError('credential-errors.own-authorization', { server })
            : credentialError('credential-errors.no-person-needed', { server, grant: oauthGrant(config) }),
      );
    }
    this.running.get(server)?.abort();
    const abort = new AbortController();
    this.running.set(server, abort);
    return new Promise<SignInStart>((resolve, reject) => {
      let started = false;
      const openUrl = async (authorizationUrl: string) => {
        started = true;
        const opened = this.options.openExternal !== undefined;
        resolve({ authorizationUrl, opened });
        if (opened) await this.options.openExternal?.(authorizationUrl);
      };
      this.options.log(server, 'info', 'signing in (OAuth): waiting for the browser');
      signIn({
        serverUrl: url,
        provider,
        openUrl,
        signal: abort.signal,
        ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      })
        .then(
          () => {
            this.options.log(server, 'info', 'signed in (OAuth)');
            this.options.onSignedIn(server);
          },
          (error: unknown) => {
            const message = errorMessage(error);
            if (!abort.signal.aborted) this.options.log(server, 'error', message);
            // signIn words each step's failure (SignInError, coded); anything else is a foreign error's own text.
            if (!started) reject(error instanceof HostError ? error : new HostError('SERVER_ERROR', message));
          },
        )
        .finally(() => {
          if (this.running.get(server) === abort) this.running.delete(server);
        });
    });
  }

  /** Forget the server's tokens, registrations and discovery; a sign-in waiting for the browser is stopped. */
  async signOut(server: string, config: ServerConfig): Promise<void> {
    this.running.get(server)?.abort();
    this.challenged.delete(server);
    const url = config.url;
    if (url === undefined) return;
    await new BerthOAuthProvider({ server, serverUrl: url, store: this.options.store }).signOut();
    this.options.log(server, 'info', 'signed out (OAuth): tokens and registration forgotten');
  }

  /** The server was removed from Berth: forget its OAuth records, whatever URL they were for. */
  async forgetServer(server: string): Promise<void> {
    this.running.get(server)?.abort();
    this.challenged.delete(server);
    await new OAuthRecords(this.options.store, server, '').forgetAll();
  }

  /** The server was renamed: its tokens and registration go with it. */
  async renameServer(from: string, to: string): Promise<void> {
    this.running.get(from)?.abort();
    const challenge = this.challenged.get(from);
    this.challenged.delete(from);
    if (challenge !== undefined) this.challenged.set(to, challenge);
    await moveOAuthRecords(this.options.store, from, to);
  }

  /** Signed in to this server right now (tokens stored for its URL)? */
  async signedIn(server: string, config: ServerConfig): Promise<boolean> {
    if (!personSignsIn(config)) return false;
    const provider = this.providerFor(server, config);
    return provider instanceof BerthOAuthProvider ? (await provider.signInStatus()).signedIn : false;
  }

  /** Stop every sign-in still waiting (host shutdown). */
  close(): void {
    for (const abort of this.running.values()) abort.abort();
    this.running.clear();
  }
}

/**
 * The OAuth client for one start of a remote server (`config` with its
 * secrets resolved). None for a local server, or when the person set an
 * Authorization header themselves (their header is the credential then, and
 * a 401 means it was refused). `client_credentials`: Berth authenticates as
 * the configured client, no person involved; `jwt_bearer`: the platform's
 * workload identity token is the grant. Otherwise a person signs in in
 * the browser, with the pre-registered client when one is configured, else
 * a client Berth registers itself.
 */
export function oauthProviderFor(
  server: string,
  config: ServerConfig,
  store: SecretStore,
  extra: Pick<BerthOAuthProviderOptions, 'clientMetadataUrl' | 'challenge' | 'onChallenge' | 'onIssuerPinned'> = {},
): OAuthClientProvider | undefined {
  if (config.url === undefined) return undefined;
  if (hasOwnAuthorization(config)) return undefined;
  const oauth = config.oauth ?? {};
  const { clientId, clientSecret, privateKey, signingAlgorithm, scope, issuer, assertionFile } = oauth;
  const grant = oauthGrant(config);
  if (grant !== 'authorization_code' && clientId === undefined)
    throw HostError.coded('INVALID_INPUT', credentialError('credential-errors.no-client-id', { server, grant }));
  const { onIssuerPinned } = extra;
  if (grant === 'client_credentials' && clientId !== undefined)
    return new ClientCredentialsOAuthProvider({
      clientId,
      clientSecret,
      privateKey,
      signingAlgorithm,
      scope,
      issuer,
      onIssuerPinned,
    });
  if (grant === 'jwt_bearer' && clientId !== undefined) {
    if (assertionFile === undefined)
      throw HostError.coded('INVALID_INPUT', credentialError('credential-errors.no-token-file', { server }));
    return new WorkloadIdentityOAuthProvider({ clientId, assertionFile, scope, issuer, onIssuerPinned });
  }
  return new BerthOAuthProvider({
    server,
    serverUrl: config.url,
    store,
    ...(clientId === undefined
      ? {}
      : {
          preRegistered: {
            clientId,
            ...(clientSecret === undefined ? {} : { clientSecret }),
            ...(issuer === undefined ? {} : { issuer }),
          },
        }),
    ...(scope === undefined ? {} : { scope }),
    ...extra,
  });
}
