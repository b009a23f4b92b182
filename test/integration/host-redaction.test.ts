import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfigStatus } from '../../shared/domain/config';
import type { LogEntry } from '../../shared/domain/log';
import { SECRET_MASK, type ServerState } from '../../shared/domain/server';
import { fixture } from '../../app/servers/test-support';
import { hostOutput, hostPerTest, unwrap, waitFor, type HostHarness } from './host-harness';
import { oauthServerPerTest } from './oauth-support';

/**
 * Secrets in the forms servers and authorization servers repeat them in
 * (base64, base64url, URL-encoded, a Basic credential of `id:secret`) reach
 * neither the renderer (events, answers, errors) nor the logs (memory and
 * files) nor Berth's console, where the MCP SDK prints OAuth error texts.
 */
const TOKEN = 'tok/S3CRET+4242=abc def';
const ID = 'client-7';
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const b64url = (text: string): string => Buffer.from(text).toString('base64url');

let printed: string[];

beforeEach(() => {
  printed = [];
  // Installed before the host, so the host's console hook prints through these.
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation(
      (...args: unknown[]) =>
        void printed.push(
          args.map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg))).join(' '),
        ),
    );
  }
});
afterEach(() => {
  vi.restoreAllMocks();
});
// Registered after the console spies: its hosts are shut down before the spies are restored.
const berth = hostPerTest('berth-host-redaction-');

async function logEntries(h: HostHarness, server?: string): Promise<LogEntry[]> {
  return (
    await h.call<{ entries: LogEntry[] }>('logs.query', { ...(server !== undefined ? { server } : {}), limit: 250_000 })
  ).entries;
}

/** Events, log entries, answers, the log files after shutdown, and the console. */
async function everythingVisible(h: HostHarness, answers: unknown[] = []): Promise<string> {
  const output = await hostOutput(h, berth.dir, [
    JSON.stringify(await h.call('servers.list', {})),
    JSON.stringify(answers),
  ]);
  return `${output}\n${printed.join('\n')}`;
}

describe('derived forms of a server secret', () => {
  it('are masked in stderr, notifications, traces, error answers and the crash reason', async () => {
    const config = {
      command: process.execPath,
      args: [fixture('secret-echo.mjs')],
      env: { SECRET_ECHO_TOKEN: TOKEN, SECRET_ECHO_ID: ID, MODE: 'derived', EXIT_AFTER_MS: '1500' },
      secretEnv: ['SECRET_ECHO_TOKEN'],
      restart: { enabled: false },
    };
    await writeFile(join(berth.dir, 'config.json'), JSON.stringify({ mcpServers: { echo: config } }));
    const h = await berth.start();
    await h.waitForEvent('servers.changed', (state) => state.name === 'echo' && state.status === 'ready');
    const failure = await h.host.dispatch('prompts.get', { server: 'echo', name: 'leak', arguments: {} });
    expect(failure.ok).toBe(false);
    const crashed = await h.waitForEvent(
      'servers.changed',
      (state: ServerState) => state.name === 'echo' && state.status === 'crashed',
    );

    // Each leak happened, and was masked where it landed.
    expect(crashed.reason).toContain(`fatal: credential ${SECRET_MASK} rejected`);
    expect(!failure.ok && failure.message).toMatch(new RegExp(`upstream refused Basic \\S*${SECRET_MASK}`));
    const stderr = (await logEntries(h, 'echo'))
      .filter((entry) => entry.source === 'stderr')
      .map((entry) => entry.text);
    expect(stderr).toContain(`base64 ${SECRET_MASK}`);
    expect(stderr).toContain(`url ?token=${SECRET_MASK}&x=1`);
    expect(stderr.some((line) => line.startsWith('sending Authorization: Basic ') && line.includes(SECRET_MASK))).toBe(
      true,
    );
    await waitFor(async () =>
      (await logEntries(h, 'echo')).some(
        (entry) => entry.source === 'notification' && entry.text.includes('"authorization"'),
      ),
    );

    const visible = await everythingVisible(h, [failure]);
    for (const form of [
      TOKEN,
      b64(TOKEN),
      b64url(TOKEN),
      encodeURIComponent(TOKEN),
      b64(`${ID}:${TOKEN}`),
      b64url(`${ID}:${TOKEN}`).slice(4, -4),
    ]) {
      expect(visible, form).not.toContain(form);
    }
  }, 30_000);
});

describe('OAuth tokens Berth holds', () => {
  const oauth = oauthServerPerTest();

  it('are masked when the authorization server repeats the refresh token, also in the SDK’s console.warn, which reaches Berth’s log', async () => {
    const h = await berth.start();
    await h.call('servers.add', { name: 'notes', config: { url: oauth.server.mcpUrl } });
    await h.waitForEvent('servers.changed', (state) => state.name === 'notes' && state.auth?.state === 'needs-sign-in');
    const start = await h.call<{ authorizationUrl: string }>('servers.signIn', { name: 'notes' });
    await (await fetch(start.authorizationUrl)).text();
    await h.waitForEvent('servers.changed', (state) => state.name === 'notes' && state.status === 'ready');
    const refreshTokens = [...oauth.server.refreshTokens.keys()];
    expect(refreshTokens).toHaveLength(1);

    oauth.server.behaviour = { refreshEchoes: true };
    oauth.server.expireAccessTokens();
    const before = h.events.length;
    await h.host.dispatch('servers.restart', { name: 'notes' });
    await waitFor(() => printed.some((line) => line.includes('[mcp-sdk] Could not refresh OAuth tokens')));
    await waitFor(() =>
      h.events
        .slice(before)
        .some(
          (event) =>
            event.topic === 'servers.changed' &&
            (event.payload as ServerState).name === 'notes' &&
            (event.payload as ServerState).status !== 'starting' &&
            (event.payload as ServerState).status !== 'ready',
        ),
    );

    // The SDK's warning is printed masked, and is in Berth's own log too.
    const warning = printed.find((line) => line.includes('[mcp-sdk] Could not refresh OAuth tokens'));
    expect(warning).toContain(`refresh_token=${SECRET_MASK}`);
    await waitFor(async () =>
      (await logEntries(h)).some(
        (entry) => entry.server === '' && entry.text.startsWith('[mcp-sdk] Could not refresh OAuth tokens'),
      ),
    );
    const berthLog = (await logEntries(h)).find((entry) => entry.server === '' && entry.text.startsWith('[mcp-sdk]'));
    expect(berthLog).toMatchObject({ source: 'host', level: 'warning' });
    expect(berthLog?.text).toContain(SECRET_MASK);

    const visible = await everythingVisible(h);
    expect(await readFile(join(berth.dir, 'logs', 'berth.log'), 'utf8')).toContain(
      '[mcp-sdk] Could not refresh OAuth tokens',
    );
    const secrets = [...refreshTokens, ...oauth.server.accessTokens.keys()];
    for (const secret of secrets) {
      expect(visible).not.toContain(secret);
      expect(visible).not.toContain(b64(secret));
    }
  }, 30_000);
});

describe('an invalid config.json with plain secret values', () => {
  it('reaches the renderer masked with a warning, and saving it from the editor keeps the real value', async () => {
    const entry = {
      command: process.execPath,
      args: [fixture('secret-echo.mjs')],
      env: { SECRET_ECHO_TOKEN: TOKEN },
      secretEnv: ['SECRET_ECHO_TOKEN'],
    };
    // A trailing comma: nothing in the file is valid, so nothing has moved to the secret store yet.
    const broken = JSON.stringify({ mcpServers: { echo: entry } }, null, 2).replace(/\n {2}\}\n\}$/, ',\n  }\n}');
    await writeFile(join(berth.dir, 'config.json'), broken);
    const h = await berth.start();
    const status = unwrap<ConfigStatus>(await h.host.dispatch('config.status', {}));
    expect(status).toMatchObject({ state: 'invalid', hiddenSecrets: 1 });
    expect(status.text).toContain(`"SECRET_ECHO_TOKEN": "${SECRET_MASK}"`);
    const warning = (await logEntries(h)).find(
      (e) => e.server === '' && e.level === 'warning' && e.text.includes('secret value in plain text'),
    );
    expect(warning?.text).toContain('(SECRET_ECHO_TOKEN of "echo")');

    // The person fixes the comma and saves, leaving the mask where it was.
    const saved = unwrap<ConfigStatus>(
      await h.host.dispatch('config.saveText', { text: (status.text ?? '').replace(/,(\s*\})/, '$1') }),
    );
    expect(saved).toEqual({ path: join(berth.dir, 'config.json'), state: 'ok', problems: [] });
    await h.waitForEvent('servers.changed', (state) => state.name === 'echo' && state.status === 'ready');
    const sha = await import('node:crypto').then(({ createHash }) => createHash('sha256').update(TOKEN).digest('hex'));
    await waitFor(async () =>
      (await logEntries(h, 'echo')).some((e) => e.source === 'stderr' && e.text.startsWith('token sha256 ')),
    );
    expect((await logEntries(h, 'echo')).find((e) => e.text.startsWith('token sha256 '))?.text).toBe(
      `token sha256 ${sha}`,
    );
    const file = await readFile(join(berth.dir, 'config.json'), 'utf8');
    expect(file).toContain('${secret:server/echo/env/SECRET_ECHO_TOKEN}');
    expect(file).not.toContain(SECRET_MASK);
    expect(await everythingVisible(h)).not.toContain(TOKEN);
  }, 30_000);
});

describe('a config nested 50,000 levels deep', () => {
  it('does not crash start-up: the host opens and reports the file as invalid', async () => {
    await writeFile(join(berth.dir, 'config.json'), '['.repeat(50_000));
    const h = await berth.start();
    const status = unwrap<ConfigStatus>(await h.host.dispatch('config.status', {}));
    expect(status.state).toBe('invalid');
    expect(status.problems[0]?.message).toMatch(/more than 256 levels deep/);
  });
});
