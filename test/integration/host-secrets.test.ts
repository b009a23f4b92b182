import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../shared/domain/log';
import { SECRET_MASK, ServerConfigSchema, type ServerState } from '../../shared/domain/server';
import { exportClaudeDesktop } from '../../app/config-import/export';
import { RemoteEverything, fixture, freePort } from '../../app/servers/test-support';
import { hostOutput, hostPerTest, waitFor, type HostHarness } from './host-harness';

/**
 * Secret env values live in the secret store only. A careless fixture server
 * repeats its token on stderr and in a log notification; the token must reach
 * the server (its SHA-256 says so) and nothing else: not config.json, the log
 * files, the log/trace buffers, any bridge event or answer, or an export.
 */
const SECRET = 'tok-S3CRET-4242-abcdef';
const NEWER = 'tok-N3WER-9191-zyxwvu';
const REF = '${secret:server/echo/env/SECRET_ECHO_TOKEN}';
const sha = (value: string): string => createHash('sha256').update(value).digest('hex');
const echoConfig = (token: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  command: process.execPath,
  args: [fixture('secret-echo.mjs')],
  env: { SECRET_ECHO_TOKEN: token, MODE: 'plain' },
  secretEnv: ['SECRET_ECHO_TOKEN'],
  ...extra,
});

const berth = hostPerTest('berth-host-secrets-');

const configText = (): Promise<string> => readFile(join(berth.dir, 'config.json'), 'utf8');
const storedSecrets = async (): Promise<Record<string, string>> =>
  JSON.parse(await readFile(join(berth.dir, 'secrets.json'), 'utf8')).secrets;

async function logEntries(h: HostHarness, server?: string): Promise<LogEntry[]> {
  return (
    await h.call<{ entries: LogEntry[] }>('logs.query', { ...(server !== undefined ? { server } : {}), limit: 250_000 })
  ).entries;
}

async function waitReady(h: HostHarness, name: string, notPid?: number): Promise<ServerState> {
  return h.waitForEvent(
    'servers.changed',
    (state) => state.name === name && state.status === 'ready' && state.pid !== notPid,
  );
}

/** The SHA-256 the server printed: which token it was actually started with. */
async function tokenHashes(h: HostHarness, server: string): Promise<string[]> {
  return (await logEntries(h, server))
    .filter((entry) => entry.source === 'stderr' && entry.text.startsWith('token sha256 '))
    .map((entry) => entry.text.slice('token sha256 '.length));
}

/** Every place a secret could leak to (hostOutput's, and the answers, config.json and an export), read after the host has flushed its files. */
async function everythingVisible(h: HostHarness): Promise<string> {
  const servers = new Map(
    Object.entries(JSON.parse(await configText()).mcpServers as Record<string, unknown>).map(([name, raw]) => [
      name,
      ServerConfigSchema.parse(raw),
    ]),
  );
  return hostOutput(h, berth.dir, [
    JSON.stringify(await h.call('servers.list', {})),
    JSON.stringify(await h.call('config.status', {})),
    exportClaudeDesktop(servers).text,
    await configText(),
  ]);
}

describe('secret env values', () => {
  it('moves a plain value out of an old config.json, hands it to the server, and shows it nowhere', async () => {
    await writeFile(
      join(berth.dir, 'config.json'),
      `${JSON.stringify({ mcpServers: { echo: echoConfig(SECRET) } }, null, 2)}\n`,
    );
    const h = await berth.start();
    await waitReady(h, 'echo');
    await waitFor(async () =>
      (await logEntries(h, 'echo')).some(
        (entry) => entry.source === 'notification' && entry.text.includes('authenticated with'),
      ),
    );

    expect(await tokenHashes(h, 'echo')).toEqual([sha(SECRET)]);
    expect(await configText()).toContain(REF);
    expect(await storedSecrets()).toEqual({ 'server/echo/env/SECRET_ECHO_TOKEN': SECRET });
    const entries = await logEntries(h, 'echo');
    // The value was there to leak, and was masked: stderr, the notification, and the trace of that notification.
    expect(
      entries.find((entry) => entry.source === 'stderr' && entry.text.startsWith('secret-echo starting'))?.text,
    ).toBe(`secret-echo starting with token ${SECRET_MASK}`);
    expect(entries.find((entry) => entry.source === 'notification')?.text).toBe(`authenticated with ${SECRET_MASK}`);
    expect(entries.some((entry) => entry.source === 'trace' && JSON.stringify(entry).includes(SECRET_MASK))).toBe(true);
    const moved = (await logEntries(h)).filter(
      (entry) => entry.server === '' && entry.text.startsWith('secrets: moved'),
    );
    expect(moved.map((entry) => entry.level)).toEqual(['info']);

    expect(await everythingVisible(h)).not.toContain(SECRET);
  });

  it('saves from the form into the store; a mask keeps it, a new value restarts the server, rename moves, remove deletes', async () => {
    const h = await berth.start();
    await h.call('servers.add', { name: 'echo', config: echoConfig(SECRET) });
    const first = await waitReady(h, 'echo');
    expect(await tokenHashes(h, 'echo')).toEqual([sha(SECRET)]);
    expect(JSON.parse(await configText()).mcpServers.echo.env).toEqual({ SECRET_ECHO_TOKEN: REF, MODE: 'plain' });

    // The form posts the mask back for an unchanged secret: nothing changes, nothing restarts.
    const kept = await h.call<ServerState>('servers.update', { name: 'echo', config: echoConfig(SECRET_MASK) });
    expect(kept).toMatchObject({ status: 'ready', pid: first.pid });
    expect(await storedSecrets()).toEqual({ 'server/echo/env/SECRET_ECHO_TOKEN': SECRET });

    // Only the secret changed: config.json reads the same, yet the server must restart to get it.
    await h.call('servers.update', { name: 'echo', config: echoConfig(NEWER) });
    await waitReady(h, 'echo', first.pid);
    await waitFor(async () => (await tokenHashes(h, 'echo')).length === 2);
    expect(await tokenHashes(h, 'echo')).toEqual([sha(SECRET), sha(NEWER)]);

    await h.call('servers.update', { name: 'echo', newName: 'renamed', config: echoConfig(SECRET_MASK) });
    await waitReady(h, 'renamed');
    expect(await storedSecrets()).toEqual({ 'server/renamed/env/SECRET_ECHO_TOKEN': NEWER });
    expect(await tokenHashes(h, 'renamed')).toEqual([sha(NEWER)]);

    await h.call('servers.remove', { name: 'renamed' });
    expect(await storedSecrets()).toEqual({});

    const visible = await everythingVisible(h);
    for (const secret of [SECRET, NEWER]) expect(visible).not.toContain(secret);
  });

  it('moves a new value typed into config.json by hand into the store and restarts the running server with it', async () => {
    const h = await berth.start();
    await h.call('servers.add', { name: 'echo', config: echoConfig(SECRET) });
    const first = await waitReady(h, 'echo');
    const text = await configText();
    expect(text).toContain(REF);
    await writeFile(join(berth.dir, 'config.json'), text.replace(REF, NEWER));
    await waitReady(h, 'echo', first.pid);
    await waitFor(async () => (await tokenHashes(h, 'echo')).length === 2);
    expect(await tokenHashes(h, 'echo')).toEqual([sha(SECRET), sha(NEWER)]);
    expect(await configText()).toBe(text);
    expect(await storedSecrets()).toEqual({ 'server/echo/env/SECRET_ECHO_TOKEN': NEWER });
    const visible = await everythingVisible(h);
    for (const secret of [SECRET, NEWER]) expect(visible).not.toContain(secret);
  });

  it('does not spawn a server whose secret is missing, and says which key and how to fix it', async () => {
    await writeFile(join(berth.dir, 'config.json'), JSON.stringify({ mcpServers: { echo: echoConfig(REF) } }));
    const harness = await berth.start();
    const state = await harness.waitForEvent(
      'servers.changed',
      (payload) => payload.name === 'echo' && payload.status === 'error',
    );
    expect(state.reason).toBe(
      "the secret value of SECRET_ECHO_TOKEN is not in Berth's secret store (config.json refers to ${secret:server/echo/env/SECRET_ECHO_TOKEN}) — open the settings of 'echo', enter SECRET_ECHO_TOKEN again and save",
    );
    expect(
      harness.events.some(
        (event) => event.topic === 'servers.changed' && (event.payload as ServerState).pid !== undefined,
      ),
    ).toBe(false);
    expect(await tokenHashes(harness, 'echo')).toEqual([]);
  });
});

describe('secret headers of a remote server', () => {
  /** server-everything over Streamable HTTP behind a proxy that only lets the right bearer token through. */
  async function guardedRemote(token: string): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
    const upstream = new RemoteEverything('streamableHttp', await freePort());
    await upstream.start();
    const seen: string[] = [];
    const proxy = createHttpServer((req, res) => {
      const authorization = req.headers.authorization ?? '';
      seen.push(authorization === `Bearer ${token}` ? 'ok' : `wrong: ${authorization}`);
      if (authorization !== `Bearer ${token}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
        return;
      }
      const forward = httpRequest(
        { host: '127.0.0.1', port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
    const port = await new Promise<number>((resolve) =>
      proxy.listen(0, '127.0.0.1', () => resolve((proxy.address() as { port: number }).port)),
    );
    return {
      url: `http://127.0.0.1:${port}/mcp`,
      seen,
      close: async () => {
        proxy.closeAllConnections();
        await new Promise((resolve) => proxy.close(resolve));
        await upstream.kill();
      },
    };
  }

  it('sends the stored Authorization header, keeps only a reference in config.json, and shows the token nowhere', async () => {
    const remote = await guardedRemote(SECRET);
    try {
      const h = await berth.start();
      await h.call('servers.add', {
        name: 'remote',
        config: { url: remote.url, headers: { Authorization: `Bearer ${SECRET}`, 'X-Team': 'core' } },
      });
      const ready = await h.waitForEvent(
        'servers.changed',
        (state) => state.name === 'remote' && state.status === 'ready',
      );
      expect(ready).toMatchObject({
        transport: 'streamable-http',
        config: { headers: { Authorization: SECRET_MASK, 'X-Team': 'core' } },
      });
      expect(remote.seen.length).toBeGreaterThan(0);
      expect(remote.seen.every((entry) => entry === 'ok')).toBe(true);
      expect(JSON.parse(await configText()).mcpServers.remote.headers).toEqual({
        Authorization: '${secret:server/remote/header/Authorization}',
        'X-Team': 'core',
      });
      expect(await storedSecrets()).toEqual({ 'server/remote/header/Authorization': `Bearer ${SECRET}` });
      expect(await everythingVisible(h)).not.toContain(SECRET);
    } finally {
      await remote.close();
    }
  }, 60_000);
});
