import { describe, expect, it } from 'vitest';
import { dedupeRefreshes, keepHeadersAtOrigin, noteChallenges, type AuthChallenge } from './auth-fetch';

const TOKEN_URL = 'https://login.example/token';

function refresh(token: string): RequestInit {
  return { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }) };
}

/** A token endpoint that counts requests and answers after a tick. */
function endpoint(status = 200) {
  const seen: string[] = [];
  const fetchFn = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    seen.push(
      init?.body instanceof URLSearchParams ? (init.body.get('grant_type') ?? '') : String(init?.method ?? 'GET'),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    return new Response(JSON.stringify({ access_token: `at-${seen.length}` }), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  return { seen, fetchFn };
}

describe('dedupeRefreshes', () => {
  it('sends one refresh for a refresh token refreshed twice at once, and answers both', async () => {
    const { seen, fetchFn } = endpoint();
    const fetch = dedupeRefreshes(fetchFn);
    const [a, b] = await Promise.all([fetch(TOKEN_URL, refresh('r1')), fetch(TOKEN_URL, refresh('r1'))]);
    expect(seen).toEqual(['refresh_token']);
    expect(await a.json()).toEqual({ access_token: 'at-1' });
    expect(await b.json()).toEqual({ access_token: 'at-1' });
    expect(a.headers.get('content-type')).toBe('application/json');
  });

  it('answers a late refresh with the same token from the first answer', async () => {
    const { seen, fetchFn } = endpoint();
    const fetch = dedupeRefreshes(fetchFn);
    await (await fetch(TOKEN_URL, refresh('r1'))).text();
    expect(await (await fetch(TOKEN_URL, refresh('r1'))).json()).toEqual({ access_token: 'at-1' });
    expect(seen).toEqual(['refresh_token']);
  });

  it('sends every other request, another refresh token, and a retry after a refusal', async () => {
    const ok = endpoint();
    const fetch = dedupeRefreshes(ok.fetchFn);
    await fetch(TOKEN_URL, refresh('r1'));
    await fetch(TOKEN_URL, refresh('r2'));
    await fetch(TOKEN_URL, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'c' }),
    });
    await fetch('https://mcp.example/mcp', { method: 'POST', body: '{}' });
    expect(ok.seen).toEqual(['refresh_token', 'refresh_token', 'authorization_code', 'POST']);

    const refused = endpoint(400);
    const fetchRefused = dedupeRefreshes(refused.fetchFn);
    expect((await fetchRefused(TOKEN_URL, refresh('r1'))).status).toBe(400);
    expect((await fetchRefused(TOKEN_URL, refresh('r1'))).status).toBe(400);
    expect(refused.seen).toEqual(['refresh_token', 'refresh_token']);
  });
});

describe('keepHeadersAtOrigin', () => {
  it("sends the server's own headers only to the server's origin", async () => {
    const seen: Array<{ url: string; headers: Record<string, string> }> = [];
    const fetchFn = (input: string | URL, init?: RequestInit): Promise<Response> => {
      seen.push({ url: String(input), headers: Object.fromEntries(new Headers(init?.headers).entries()) });
      return Promise.resolve(new Response('{}'));
    };
    const fetch = keepHeadersAtOrigin(fetchFn, 'https://mcp.example', ['X-Api-Key', 'X-Team']);
    await fetch('https://mcp.example/mcp', {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'x-team': 't', accept: 'application/json' },
    });
    await fetch(new URL('https://login.example/token'), {
      method: 'POST',
      headers: new Headers({ 'X-Api-Key': 'k', 'X-Team': 't', Accept: 'application/json' }),
    });
    await fetch('https://login.example/.well-known/oauth-authorization-server', { headers: { 'x-api-key': 'k' } });
    expect(seen).toEqual([
      { url: 'https://mcp.example/mcp', headers: { 'x-api-key': 'k', 'x-team': 't', accept: 'application/json' } },
      { url: 'https://login.example/token', headers: { accept: 'application/json' } },
      { url: 'https://login.example/.well-known/oauth-authorization-server', headers: {} },
    ]);
  });
});

describe('noteChallenges', () => {
  it("reports what the server's own 401 and 403 challenges name, not the authorization server's", async () => {
    const answers: Record<string, Response> = {
      'https://mcp.example/mcp': new Response('', {
        status: 401,
        headers: {
          'WWW-Authenticate':
            'Bearer scope="mcp:basic", resource_metadata="https://mcp.example/.well-known/oauth-protected-resource"',
        },
      }),
      'https://mcp.example/mcp?2': new Response('', {
        status: 403,
        headers: { 'WWW-Authenticate': 'Bearer error="insufficient_scope", scope="mcp:write"' },
      }),
      'https://auth.example/token': new Response('', {
        status: 401,
        headers: { 'WWW-Authenticate': 'Bearer scope="elsewhere"' },
      }),
      'https://mcp.example/ok': new Response('{}', { status: 200 }),
    };
    const seen: AuthChallenge[] = [];
    const fetchFn = noteChallenges(
      (input) => Promise.resolve(answers[String(input)] ?? new Response('', { status: 404 })),
      'https://mcp.example',
      (challenge) => seen.push(challenge),
    );
    for (const url of Object.keys(answers)) await fetchFn(url);
    expect(seen).toEqual([
      { scope: 'mcp:basic', resourceMetadataUrl: 'https://mcp.example/.well-known/oauth-protected-resource' },
      { scope: 'mcp:write' },
    ]);
  });
});
