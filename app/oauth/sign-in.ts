import { randomBytes } from 'node:crypto';
import {
  AuthorizationServerMismatchError,
  IssuerMismatchError,
  OAuthError,
  RegistrationRejectedError,
  auth,
} from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';
import { HostError } from '../../shared/result';
import { credentialError, type SignInStep } from '../../shared/domain/credential-errors';
import type { BerthOAuthProvider } from './berth-oauth-provider';
import { RedirectError, listenForRedirect } from './loopback-redirect';
import { errorMessage } from '../../shared/error-message';

export type { SignInStep };

/** A sign-in failed at a named step; the message says which and why, never a credential. */
export class SignInError extends HostError {
  constructor(
    readonly step: SignInStep,
    /** Why, without the step. */
    readonly reason: string,
    /** The OAuth error code the authorization server answered with, if any. */
    readonly oauthCode?: string,
  ) {
    const words = credentialError('credential-errors.sign-in-failed', { step, reason });
    super('SERVER_ERROR', words.text, undefined, words.hostMessage);
    this.name = 'SignInError';
  }
}

/** Options for {@linkcode signIn}. */
export interface SignInOptions {
  serverUrl: string;
  provider: BerthOAuthProvider;
  /** Opens the authorization page in the person's browser (Electron's shell.openExternal, the browser-mode opener, or a test's fetch). */
  openUrl: (url: string) => Promise<void>;
  /** How long the person has to finish in the browser; 5 minutes unless told. */
  timeoutMs?: number;
  /** Scopes to ask for (else what a step-up asked for, else what the server's metadata suggests). */
  scope?: string;
  fetchFn?: FetchLike;
  /** Aborting stops waiting for the browser (a newer sign-in for the same server replaces this one). */
  signal?: AbortSignal;
  /** Rounds in the browser before giving up when the authorization server refuses the code; 2 unless told. */
  maxAuthorizations?: number;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

const STEP_ORDER: SignInStep[] = ['discovery', 'registration', 'authorization', 'token'];

/**
 * Which step the flow is in. The provider reports when the SDK looks for a
 * client (registration comes next if there is none) and when it has one
 * (authorization comes next); the flow marks the token exchange. Steps only
 * move forward, so a failure is named after the furthest step reached.
 */
class StepTracker {
  current: SignInStep = 'discovery';

  advance(step: SignInStep): void {
    if (STEP_ORDER.indexOf(step) > STEP_ORDER.indexOf(this.current)) this.current = step;
  }
}

/** Why an OAuth step failed, in words; OAuth error codes are kept (they say the most), response bodies are cut short. */
export function oauthFailureReason(error: unknown): string {
  if (error instanceof AuthorizationServerMismatchError) {
    return `the server sends Berth to the authorization server ${error.currentIssuer}, but its OAuth client settings belong to ${error.recordedIssuer}; Berth did not send the client's credentials there`;
  }
  // What it received is attacker-controlled in a mix-up attack and must not be shown (RFC 9207).
  if (error instanceof IssuerMismatchError) {
    return error.kind === 'metadata'
      ? 'the authorization server metadata names another issuer than the server it was fetched from; refused'
      : 'the answer claims to come from another authorization server than the one Berth asked (a possible mix-up attack); refused';
  }
  if (error instanceof RegistrationRejectedError) {
    let detail = `HTTP ${error.status}`;
    try {
      const body = JSON.parse(error.body) as { error?: unknown; error_description?: unknown };
      if (typeof body.error === 'string')
        detail += ` ${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}`;
    } catch {
      // Not the RFC 7591 JSON error: the status says enough.
    }
    return `the authorization server refused the registration (${detail.slice(0, 240)})`;
  }
  if (error instanceof OAuthError)
    return `${error.code}${error.message === '' ? '' : `: ${error.message.slice(0, 240)}`}`;
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error && current.cause instanceof Error; depth++)
    current = current.cause;
  const code = (current as { code?: unknown } | undefined)?.code;
  const message = errorMessage(error);
  return (typeof code === 'string' ? `${message} (${code})` : message).slice(0, 300);
}

/**
 * Sign in to a remote server: discovery (RFC 9728, then RFC 8414 / OIDC),
 * a client ID (pre-registered, client ID metadata document, or dynamic
 * registration), the authorization request with PKCE S256 and `resource` in
 * the person's browser, the code back on a loopback listener, and the token
 * exchange; the tokens end up in the SecretStore through the provider. All
 * of the protocol is the SDK's `auth()`; Berth owns the browser, the
 * listener, the step names and the retry cap.
 */
export async function signIn(options: SignInOptions): Promise<void> {
  const maxAuthorizations = options.maxAuthorizations ?? 2;
  for (let round = 1; ; round++) {
    try {
      await authorizeOnce(options);
      return;
    } catch (error) {
      // A code refused at the token endpoint (expired while the person took their time, or redeemed twice by a
      // double-submitting browser) is worth one more round in the browser; anything else would fail the same way again.
      const codeRefused = error instanceof SignInError && error.step === 'token' && error.oauthCode === 'invalid_grant';
      if (!codeRefused) throw error;
      if (round >= maxAuthorizations)
        throw new SignInError(
          'token',
          `${error.reason} (the authorization server refused the code ${round} times; giving up)`,
          error.oauthCode,
        );
    }
  }
}

/** One round: the browser, the code, the exchange. */
async function authorizeOnce(options: SignInOptions): Promise<void> {
  const { provider, serverUrl, fetchFn } = options;
  const state = randomBytes(32).toString('base64url');
  // The registration names one redirect URI, port included, and many authorization servers compare it exactly.
  const registered = await provider.registeredRedirectUrl();
  const preferredPort = registered === undefined ? undefined : Number(new URL(registered).port);
  const listener = await listenForRedirect({
    state,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    preferredPort,
  });
  const stop = () => listener.close();
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted === true) stop();
  // That port is taken now: register again with the one we have rather than be refused at /authorize.
  if (registered !== undefined && registered !== listener.redirectUrl) await provider.invalidateCredentials('client');
  // A sign-in discovers afresh: the server may have moved to another authorization server since the last one (SEP-2352),
  // and a new one means a new registration there (records are per issuer), never the old server's client ID.
  await provider.invalidateCredentials('discovery');
  const tracker = new StepTracker();
  let opened = false;
  provider.beginSignIn({
    redirectUrl: listener.redirectUrl,
    state,
    onStep: (step) => tracker.advance(step),
    openUrl: async (url) => {
      opened = true;
      tracker.advance('authorization');
      await options.openUrl(url);
    },
  });
  try {
    // A sign-in the person asked for authorizes afresh (another account, more scopes) rather than refreshing.
    const scope = options.scope ?? (await provider.scopeToAsk());
    const resourceMetadataUrl = provider.challengedResourceMetadataUrl();
    const first = await runStep(tracker, () =>
      auth(provider, {
        serverUrl,
        scope,
        fetchFn,
        forceReauthorization: true,
        ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }),
      }),
    );
    if (first === 'AUTHORIZED') return;
    if (!opened) throw new SignInError('authorization', 'the authorization page was never opened');
    let answer;
    try {
      answer = await listener.response;
    } catch (error) {
      throw new SignInError(
        'authorization',
        error instanceof RedirectError ? error.message : oauthFailureReason(error),
      );
    }
    tracker.advance('token');
    const second = await runStep(tracker, () =>
      auth(provider, { serverUrl, authorizationCode: answer.code, iss: answer.iss, fetchFn }),
    );
    if (second !== 'AUTHORIZED')
      throw new SignInError('token', 'the authorization server did not issue tokens for the code');
  } finally {
    options.signal?.removeEventListener('abort', stop);
    listener.close();
    provider.endSignIn();
  }
}

async function runStep<T>(tracker: StepTracker, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SignInError) throw error;
    const step =
      error instanceof RegistrationRejectedError
        ? 'registration'
        : error instanceof IssuerMismatchError && error.kind === 'authorization_response'
          ? 'authorization'
          : tracker.current;
    throw new SignInError(step, oauthFailureReason(error), error instanceof OAuthError ? error.code : undefined);
  }
}
