import { randomBytes } from 'node:crypto';
import { OAuthError, RegistrationRejectedError, auth } from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';
import { HostError } from '../../shared/result';
import type { BerthOAuthProvider } from './berth-oauth-provider';
import { RedirectError, listenForRedirect } from './loopback-redirect';

/** The steps of a sign-in, as the person reads them in an error. */
export type SignInStep = 'discovery' | 'registration' | 'authorization' | 'token';

const STEP_WORDS: Record<SignInStep, string> = {
  discovery: 'finding the authorization server (discovery)',
  registration: 'registering Berth with the authorization server',
  authorization: 'authorization in the browser (consent)',
  token: 'exchanging the code for tokens',
};

/** A sign-in failed at a named step; the message says which and why, never a credential. */
export class SignInError extends HostError {
  constructor(
    readonly step: SignInStep,
    reason: string,
  ) {
    super('SERVER_ERROR', `sign-in failed while ${STEP_WORDS[step]}: ${reason}`);
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
  /** Scopes to ask for (else what the server's metadata suggests). */
  scope?: string;
  fetchFn?: FetchLike;
  /** Authorization rounds before giving up (an authorization server that keeps asking again); 2 unless told. */
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

/** Why a step failed, in words; OAuth error codes are kept (they say the most), response bodies are cut short. */
function reasonOf(error: unknown): string {
  if (error instanceof RegistrationRejectedError) {
    let detail = `HTTP ${error.status}`;
    try {
      const body = JSON.parse(error.body) as { error?: unknown; error_description?: unknown };
      if (typeof body.error === 'string') detail += ` ${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}`;
    } catch {
      // Not the RFC 7591 JSON error: the status says enough.
    }
    return `the authorization server refused the registration (${detail.slice(0, 240)})`;
  }
  if (error instanceof OAuthError) return `${error.code}${error.message === '' ? '' : `: ${error.message.slice(0, 240)}`}`;
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error && current.cause instanceof Error; depth++) current = current.cause;
  const code = (current as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
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
  const { provider, serverUrl } = options;
  const fetchFn = options.fetchFn;
  const maxAuthorizations = options.maxAuthorizations ?? 2;
  const preferred = await provider.registeredRedirectUrl();
  for (let round = 1; ; round++) {
    const state = randomBytes(32).toString('base64url');
    const listener = await listenForRedirect({ state, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, preferredPort: preferred === undefined ? undefined : Number(new URL(preferred).port) });
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
      const first = await runStep(tracker, () => auth(provider, { serverUrl, scope: options.scope, fetchFn, forceReauthorization: true }));
      if (first === 'AUTHORIZED') return;
      if (!opened) throw new SignInError('authorization', 'the authorization page was never opened');
      let answer;
      try {
        answer = await listener.response;
      } catch (error) {
        throw new SignInError('authorization', error instanceof RedirectError ? error.message : reasonOf(error));
      }
      tracker.advance('token');
      const second = await runStep(tracker, () => auth(provider, { serverUrl, authorizationCode: answer.code, iss: answer.iss, fetchFn }));
      if (second === 'AUTHORIZED') return;
      if (round >= maxAuthorizations) {
        throw new SignInError('authorization', `the authorization server asked to authorize again ${round} times in a row; giving up`);
      }
    } finally {
      listener.close();
      provider.endSignIn();
    }
  }
}

async function runStep<T>(tracker: StepTracker, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SignInError) throw error;
    throw new SignInError(error instanceof RegistrationRejectedError ? 'registration' : tracker.current, reasonOf(error));
  }
}
