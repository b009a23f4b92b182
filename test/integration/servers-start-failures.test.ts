import { describe, expect, it } from 'vitest';
import type { ServerState } from '../../shared/domain/server';
import { fixture } from '../../app/servers/test-support';
import { cleanEnv } from './host-chat-support';
import { hostPerTest } from './host-harness';
import type { HostHarness } from './host-harness';

// Issue 33, item 6: a start that fails says at which stage, and what the server itself said was wrong.
const berth = hostPerTest('berth-start-failures-');

/** Adds a fixture server through the host's contract and waits for the state its start ends in. */
async function startFixture(
  name: string,
  file: string,
  env: Record<string, string> = {},
  startupMs = 2_000,
): Promise<{ h: HostHarness; state: ServerState }> {
  const h = await berth.start({ env: cleanEnv({}) });
  await h.call('servers.add', {
    name,
    config: {
      command: process.execPath,
      args: [fixture(file)],
      env,
      timeouts: { startupMs, requestMs: 5_000 },
      restart: { enabled: false },
    },
  });
  const state = await h.waitForEvent(
    'servers.changed',
    (s) => s.name === name && (s.status === 'ready' || s.status === 'error' || s.status === 'crashed'),
  );
  return { h, state };
}

describe('start failures name their stage and the server’s own error', () => {
  it('a server that cannot reach its API: the handshake timeout says so, with no network as the likely cause', async () => {
    const { state } = await startFixture('stripe', 'unreachable-api.mjs');
    expect(state).toMatchObject({
      status: 'error',
      reason:
        'did not finish the MCP handshake within 2 s; cannot reach api.example.invalid — no network? (stderr: [cause]: Error: getaddrinfo ENOTFOUND api.example.invalid)',
    });
    expect(state.status === 'error' && state.reasonMessage).toEqual({
      code: 'server-start.handshake-timeout',
      params: {
        stage: 'handshake',
        seconds: 2,
        tail: 'networkStderr',
        serverLine: '[cause]: Error: getaddrinfo ENOTFOUND api.example.invalid',
        host: 'api.example.invalid',
      },
    });
  });

  it('a server refused by its API: says it probably needs a key', async () => {
    const { state } = await startFixture('keyed', 'unreachable-api.mjs', {
      BERTH_FIXTURE_ERROR_LINE: 'Error: 401 Unauthorized (invalid API key)',
    });
    expect(state).toMatchObject({
      status: 'error',
      reason:
        "did not finish the MCP handshake within 2 s; it probably needs an API key or token — set it in the server's environment variables (stderr: Error: 401 Unauthorized (invalid API key))",
    });
  });

  it('a tool listing that fails after a good handshake: says the handshake worked', async () => {
    const { h, state } = await startFixture('supabase', 'tools-list-fails.mjs', {
      BERTH_FIXTURE_ERROR_LINE: 'TypeError: fetch failed (getaddrinfo ENOTFOUND api.supabase.example)',
    });
    expect(state).toMatchObject({
      status: 'error',
      reason:
        'finished the MCP handshake, but listing its tools failed: fetch failed; cannot reach api.supabase.example — no network? (stderr: TypeError: fetch failed (getaddrinfo ENOTFOUND api.supabase.example))',
    });
    // The same words reach a window that asks for the list later.
    const listed = await h.call<ServerState[]>('servers.list', {});
    expect(listed.find((s) => s.name === 'supabase')).toMatchObject({ status: 'error', reason: state.reason });
  });

  it('a tool listing that never answers: the timeout is the listing’s, not the handshake’s', async () => {
    const { state } = await startFixture('slowlist', 'tools-list-fails.mjs', { BERTH_FIXTURE_TOOLS: 'hang' });
    expect(state).toMatchObject({
      status: 'error',
      reason: 'finished the MCP handshake, but listing its tools did not finish within 2 s',
    });
  });
});
