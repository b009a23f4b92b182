import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerSupervisor } from '../../app/servers/supervisor';
import {
  LogCollector,
  RemoteEverything,
  StateRecorder,
  freePort,
  serverConfig,
  tempDir,
  waitUntil,
} from '../../app/servers/test-support';

function textOf(result: { content: unknown[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');
}

/** What the test client answers to the server's roots/list: a server→client request that must travel over SSE. */
function answerRoots(_server: string, client: Client): void {
  client.registerCapabilities({ roots: { listChanged: true } });
  client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///tmp/http-root', name: 'HTTP root' }] }));
}

/** The server's live SDK client, reached the way services reach it (nothing is sent): to read its HTTP session id. */
function liveClient(supervisor: ServerSupervisor, name: string): Promise<Client> {
  return supervisor.request(
    name,
    { method: 'none', what: '', action: 'read the HTTP session' },
    async (client) => client,
  );
}

describe('remote servers over HTTP (server-everything)', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let logs: LogCollector;
  let supervisor: ServerSupervisor;
  let remote: RemoteEverything | undefined;

  beforeEach(async () => {
    remote = undefined;
    dir = await tempDir();
    logs = new LogCollector();
    supervisor = new ServerSupervisor({
      logs,
      stateDir: dir.path,
      onState: new StateRecorder().onState,
      clientSetup: answerRoots,
    });
  });
  afterEach(async () => {
    await supervisor.shutdown();
    await remote?.kill();
    await dir.cleanup();
  });

  it('Streamable HTTP: tools, a server→client request over SSE, reconnect after the server restarts, and DELETE on shutdown', async () => {
    remote = new RemoteEverything('streamableHttp', await freePort());
    await remote.start();
    const url = remote.url;
    await supervisor.sync({
      remote: serverConfig({
        url,
        headers: { Authorization: 'Bearer sekret-token-42' },
        restart: { initialDelayMs: 200 },
      }),
    });
    expect(supervisor.get('remote')).toMatchObject({
      status: 'ready',
      transport: 'streamable-http',
      serverInfo: { name: 'mcp-servers/everything' },
    });
    expect(supervisor.get('remote')?.pid).toBeUndefined();
    expect(textOf(await supervisor.callTool('remote', 'echo', { message: 'over http' }))).toBe('Echo: over http');

    // server-everything asks Berth for roots (roots/list) on its SSE stream; the answer comes back in the tool's result.
    const roots = textOf(await supervisor.callTool('remote', 'get-roots-list', {}));
    expect(roots).toContain('file:///tmp/http-root');

    // The server process dies and comes back on the same port: Berth reconnects by itself.
    await remote.kill();
    await waitUntil(() => supervisor.get('remote')?.status !== 'ready', 20_000, 'the loss to be noticed');
    await remote.start();
    await waitUntil(() => supervisor.get('remote')?.status === 'ready', 30_000, 'the reconnect');
    expect(textOf(await supervisor.callTool('remote', 'echo', { message: 'again' }))).toBe('Echo: again');
    expect(logs.texts('remote', 'host').join('\n')).toMatch(
      /lost the connection to http:\/\/127\.0\.0\.1:\d+\/mcp|no longer knows this session/,
    );

    // The secret header never reaches the log.
    expect(JSON.stringify(logs.entries)).not.toContain('sekret-token-42');

    await supervisor.stop('remote');
    await waitUntil(
      () => remote?.output.some((line) => line.includes('session termination request')),
      10_000,
      'the DELETE of the session',
    );
  }, 90_000);

  it('a session the server forgot (HTTP 400/404) is re-established and the call sent again, transparently', async () => {
    remote = new RemoteEverything('streamableHttp', await freePort());
    await remote.start();
    const url = remote.url;
    await supervisor.sync({ remote: serverConfig({ url }) });
    expect(supervisor.get('remote')?.status).toBe('ready');
    const transport = ((await liveClient(supervisor, 'remote')) as unknown as { transport?: { sessionId?: string } })
      .transport;
    const session = transport?.sessionId;
    expect(session).toBeTruthy();

    // End the session behind Berth's back, as a server restart or expiry would.
    const ended = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session ?? '' } });
    expect(ended.status).toBe(200);

    expect(textOf(await supervisor.callTool('remote', 'echo', { message: 'still there' }))).toBe('Echo: still there');
    expect(logs.texts('remote', 'host').join('\n')).toContain('no longer knows this session');
    const newSession = ((await liveClient(supervisor, 'remote')) as unknown as { transport?: { sessionId?: string } })
      .transport?.sessionId;
    expect(newSession).toBeTruthy();
    expect(newSession).not.toBe(session);
  }, 60_000);

  it('a legacy HTTP+SSE server is detected when no type is given, and used', async () => {
    remote = new RemoteEverything('sse', await freePort());
    await remote.start();
    await supervisor.sync({ legacy: serverConfig({ url: remote.url }) });
    expect(supervisor.get('legacy')).toMatchObject({ status: 'ready', transport: 'sse', era: 'legacy' });
    expect(logs.texts('legacy', 'host').join('\n')).toMatch(
      /Streamable HTTP was refused \(HTTP 404[^)]*\); trying the legacy HTTP\+SSE transport/,
    );
    expect(textOf(await supervisor.callTool('legacy', 'echo', { message: 'old school' }))).toBe('Echo: old school');
    expect(textOf(await supervisor.callTool('legacy', 'get-roots-list', {}))).toContain('file:///tmp/http-root');
  }, 60_000);

  it('an address nobody answers is retried per the restart policy, with the reason in words', async () => {
    const port = await freePort();
    await supervisor.sync({
      nobody: serverConfig({
        url: `http://127.0.0.1:${port}/mcp`,
        restart: { initialDelayMs: 100, maxRestarts: 1, maxDelayMs: 1_000 },
      }),
    });
    await waitUntil(
      () => supervisor.get('nobody')?.status === 'crashed' && supervisor.get('nobody')?.reason?.startsWith('gave up'),
      20_000,
      'the policy to give up',
    );
    expect(supervisor.get('nobody')?.reason).toContain(
      `could not reach http://127.0.0.1:${port}/mcp: connection refused`,
    );
  }, 30_000);
});
