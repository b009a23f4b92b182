/** The fetch the HTTP transports use for a server with OAuth: what Berth changes about the SDK's requests. */
import { extractWWWAuthenticateParams, type FetchLike } from '@modelcontextprotocol/client';

interface SavedResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

/** How long a successful refresh answers for the same refresh token again. */
const REUSE_MS = 60_000;

function refreshTokenOf(init: RequestInit | undefined): string | undefined {
  if (init?.method !== 'POST' || !(init.body instanceof URLSearchParams)) return undefined;
  return init.body.get('grant_type') === 'refresh_token' ? (init.body.get('refresh_token') ?? undefined) : undefined;
}

/**
 * One refresh per refresh token. A Streamable HTTP connection has a POST and
 * a GET stream in flight; when the access token expires both get a 401 and
 * the SDK refreshes twice with the same refresh token. An authorization
 * server that rotates refresh tokens (OAuth 2.1 §4.3.1 asks public clients'
 * to be rotated) then refuses the second with invalid_grant, and the SDK
 * forgets the tokens the first one just saved: the person would have to sign
 * in again for nothing. So a refresh request for a token already being (or
 * just) refreshed gets the same answer instead of going out again.
 */
export function dedupeRefreshes(fetchFn: FetchLike): FetchLike {
  const answers = new Map<string, Promise<SavedResponse>>();
  return async (input, init) => {
    const refreshToken = refreshTokenOf(init);
    if (refreshToken === undefined) return fetchFn(input, init);
    const key = `${String(input)}\n${refreshToken}`;
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = (async () => {
        const response = await fetchFn(input, init);
        return {
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers.entries()],
          body: await response.text(),
        };
      })();
      answers.set(key, answer);
      answer.then(
        (saved) => {
          if (saved.status >= 400) answers.delete(key);
          else setTimeout(() => answers.delete(key), REUSE_MS).unref();
        },
        () => answers.delete(key),
      );
    }
    const saved = await answer;
    return new Response(saved.body, { status: saved.status, statusText: saved.statusText, headers: saved.headers });
  };
}

/**
 * The SDK's HTTP transports send their static headers (the server's
 * `headers` from the config, API keys among them) on every request they
 * make, the authorization server's included: discovery, registration and
 * the token endpoint live elsewhere and must not see them. Requests to
 * another origin than the MCP server's go out without those headers.
 */
export function keepHeadersAtOrigin(fetchFn: FetchLike, origin: string, names: string[]): FetchLike {
  if (names.length === 0) return fetchFn;
  return async (input, init) => {
    if (new URL(input).origin === origin || init?.headers === undefined) return fetchFn(input, init);
    const headers = new Headers(init.headers);
    for (const name of names) headers.delete(name);
    return fetchFn(input, { ...init, headers });
  };
}

/** What a server's 401 or 403 `WWW-Authenticate: Bearer …` challenge names. */
export interface AuthChallenge {
  scope?: string;
  /** Where its protected-resource metadata is, when not at a well-known location. */
  resourceMetadataUrl?: string;
}

/**
 * What a server's 401 or 403 challenge names (the scope it wants, where its
 * protected-resource metadata is), reported to `onChallenge`. The SDK hands
 * both to `auth()` itself, but Berth's provider stops a connection's
 * `auth()` before it authorizes (a person starts sign-ins), so the sign-in
 * that follows would not know them: the spec's scope selection puts the
 * challenge's scope first, and metadata at a custom location is only found
 * through the challenge.
 */
export function noteChallenges(
  fetchFn: FetchLike,
  origin: string,
  onChallenge: (challenge: AuthChallenge) => void,
): FetchLike {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if ((response.status === 401 || response.status === 403) && new URL(input).origin === origin) {
      const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
      const challenge: AuthChallenge = {
        ...(scope !== undefined && scope.trim() !== '' ? { scope: scope.trim() } : {}),
        ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: resourceMetadataUrl.href }),
      };
      if (Object.keys(challenge).length > 0) onChallenge(challenge);
    }
    return response;
  };
}
