import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { findBrowser } from '../../app/cli/browser-lookup.mjs';
import { INJECTED_TOKEN_GLOBAL, WS_PATH, WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../../shared/contract';

/**
 * The token stays out of sight: another local user can read every process's
 * command line (/proc/PID/cmdline is world-readable). Berth without --headless opens
 * a real Chromium window; nothing in that browser's command lines, nor in its
 * profile on disk, may open a bridge session. The page served here does what
 * the renderer does with the token (renderer/transport/token.ts), connects,
 * reloads itself and connects again, so the profile has seen a real session.
 */

const repoRoot = resolve(import.meta.dirname, '..', '..');
const READY_LINE = /^Berth is ready at (http:\/\/127\.0\.0\.1:\d+\/)#token=([A-Za-z0-9_-]+)$/m;
/** What a bridge token looks like (app/net/loopback-guard.ts): anything of this shape is tried. */
const TOKEN_SHAPED = /[A-Za-z0-9_-]{16,512}/g;

/** The renderer's token handling, in plain JS: the injected token, else `#token=` kept in sessionStorage. */
const PAGE_SCRIPT = `
const injected = window[${JSON.stringify(INJECTED_TOKEN_GLOBAL)}];
const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
if (fromHash) { sessionStorage.setItem('berth.bridgeToken', fromHash); history.replaceState(null, '', location.pathname); }
const token = typeof injected === 'string' ? injected : (fromHash ?? sessionStorage.getItem('berth.bridgeToken'));
const reloaded = performance.getEntriesByType('navigation')[0]?.type === 'reload';
const ws = new WebSocket('ws://' + location.host + ${JSON.stringify(WS_PATH)}, [${JSON.stringify(WS_PROTOCOL)}, ${JSON.stringify(WS_TOKEN_PROTOCOL_PREFIX)} + token]);
ws.onopen = () => ws.send(JSON.stringify({ kind: 'call', id: 1, method: 'servers.add',
  input: { name: reloaded ? 'after-reload' : 'first-load', config: { command: 'node', enabled: false } } }));
ws.onmessage = (event) => { if (JSON.parse(event.data).kind === 'reply' && !reloaded) location.reload(); };
`;

let dir: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-window-'));
  await mkdir(join(dir, 'static'));
  await writeFile(
    join(dir, 'static', 'index.html'),
    '<!doctype html><title>Berth test page</title><script src="/page.js"></script>',
  );
  await writeFile(join(dir, 'static', 'page.js'), PAGE_SCRIPT);
});

afterEach(async () => {
  for (const child of children.splice(0).reverse()) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  // Chromium may still be writing its profile for a moment after it exited (ENOTEMPTY): retry.
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

/** A display for a real windowed browser: Xvfb when there is none. */
async function display(): Promise<string> {
  if (process.env.DISPLAY) return process.env.DISPLAY;
  const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(xvfb);
  return new Promise((resolveDisplay, rejectDisplay) => {
    xvfb.once('error', (error) => rejectDisplay(new Error(`This test needs a display or Xvfb: ${error.message}`)));
    xvfb.stdout.once('data', (chunk: Buffer) => resolveDisplay(`:${chunk.toString('utf8').trim()}`));
  });
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 40_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
}

/** The command lines of every process descended from `pid` (the browser and its helpers). */
async function descendantCommandLines(pid: number): Promise<string[][]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The command name may contain spaces and parentheses: the fields start after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isInteger(ppid)) parents.set(Number(entry), ppid);
  }
  const isDescendant = (candidate: number): boolean => {
    for (let current = parents.get(candidate); current !== undefined && current > 1; current = parents.get(current)) {
      if (current === pid) return true;
    }
    return false;
  };
  const lines: string[][] = [];
  for (const child of parents.keys()) {
    if (!isDescendant(child)) continue;
    const raw = await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '');
    if (raw !== '') lines.push(raw.split('\0').filter((arg) => arg !== ''));
  }
  return lines;
}

/** Every file under `root` with its bytes. */
async function filesUnder(root: string): Promise<Array<{ path: string; bytes: Buffer }>> {
  const found: Array<{ path: string; bytes: Buffer }> = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const bytes = await readFile(path).catch(() => undefined);
    if (bytes !== undefined) found.push({ path, bytes });
  }
  return found;
}

/** Whether any of `tokens` opens a bridge session (the server accepts any matching token in the offered list). */
async function opensSession(pageUrl: string, tokens: string[]): Promise<boolean> {
  const url = new URL(pageUrl);
  return new Promise((resolveTry) => {
    const ws = new WebSocket(
      `ws://${url.host}${WS_PATH}`,
      [WS_PROTOCOL, ...tokens.map((token) => WS_TOKEN_PROTOCOL_PREFIX + token)],
      {
        origin: url.origin,
      },
    );
    ws.once('open', () => {
      ws.close();
      resolveTry(true);
    });
    ws.once('unexpected-response', () => resolveTry(false));
    ws.once('error', () => resolveTry(false));
  });
}

/** Tries every candidate, a few dozen per upgrade so the request headers stay small. */
async function anyOpensSession(pageUrl: string, candidates: Iterable<string>): Promise<string[] | undefined> {
  let batch: string[] = [];
  let batchChars = 0;
  const flush = async (): Promise<string[] | undefined> => {
    const tried = batch;
    batch = [];
    batchChars = 0;
    return tried.length > 0 && (await opensSession(pageUrl, tried)) ? tried : undefined;
  };
  for (const candidate of candidates) {
    batch.push(candidate);
    batchChars += candidate.length + 16;
    if (batchChars > 6_000) {
      const opened = await flush();
      if (opened) return opened;
    }
  }
  return flush();
}

// Reads other processes' command lines through /proc: Linux only (where the attack was reproduced).
describe.skipIf(process.platform !== 'linux')('the window Berth opens itself (browser mode without --headless)', () => {
  it('connects and reconnects after a reload, while nothing in its command lines or profile opens a bridge session', async () => {
    // The browser `npm test` provisioned (scripts/provision-browser.mjs), found the way npm start finds it.
    const lookup = findBrowser();
    if (lookup.kind !== 'found')
      throw new Error(
        `This test launches a real Chromium: ${lookup.reason} (npm test installs one: scripts/provision-browser.mjs)`,
      );
    const CHROMIUM = lookup.path;
    const configDir = join(dir, 'config');
    const profileDir = join(configDir, 'browser-profile');
    const berth = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'app/cli/browser-mode.ts',
        '--port',
        '0',
        '--config-dir',
        configDir,
        '--static-dir',
        join(dir, 'static'),
      ],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          BERTH_BROWSER: CHROMIUM,
          DISPLAY: await display(),
          HOME: dir,
          XDG_CONFIG_HOME: join(dir, 'xdg'),
        },
      },
    );
    children.push(berth);
    let stdout = '';
    let stderr = '';
    berth.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    berth.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const ready = await until(`the ready line (stderr: ${stderr})`, () => READY_LINE.exec(stdout) ?? undefined);
    const [, pageUrl = '', token = ''] = ready;

    // The page got the token, connected, reloaded and connected again.
    await until(`both page loads to call the bridge (stderr: ${stderr})`, async () => {
      const config = await readFile(join(configDir, 'config.json'), 'utf8').catch(() => '');
      return config.includes('"first-load"') && config.includes('"after-reload"') ? true : undefined;
    });
    expect(stderr).toContain('Opened Berth in');

    // The printed address is the person's own (stdout) and does open a session: the check below can tell.
    expect(await opensSession(pageUrl, [token])).toBe(true);

    const commandLines = await descendantCommandLines(berth.pid ?? -1);
    const browser = commandLines.find((args) => args.some((arg) => arg === `--user-data-dir=${profileDir}`));
    expect(browser, `the browser among ${JSON.stringify(commandLines)}`).toBeDefined();
    for (const args of commandLines) expect(args.join(' ')).not.toContain(token);
    const fromArgv = new Set(commandLines.flat().flatMap((arg) => arg.match(TOKEN_SHAPED) ?? []));
    expect(await anyOpensSession(pageUrl, fromArgv)).toBeUndefined();

    // History is written in batches: wait until it holds the visit, so the profile read is the one a thief would get.
    const origin = new URL(pageUrl).host;
    await until('the profile History to record the page', async () => {
      const history = await readFile(join(profileDir, 'Default', 'History')).catch(() => undefined);
      return history?.includes(origin) === true ? true : undefined;
    });
    const profile = await filesUnder(profileDir);
    const holding = profile
      .filter(({ bytes }) => bytes.includes(token) || bytes.includes(Buffer.from(token, 'utf16le')))
      .map(({ path }) => path);
    expect(holding).toEqual([]);
    const fromProfile = new Set<string>();
    for (const { bytes } of profile) {
      for (const text of [bytes.toString('latin1'), bytes.toString('utf16le')])
        for (const match of text.match(TOKEN_SHAPED) ?? []) fromProfile.add(match);
    }
    expect(await anyOpensSession(pageUrl, fromProfile)).toBeUndefined();

    berth.kill('SIGTERM');
    expect(await new Promise((resolveExit) => berth.once('exit', resolveExit))).toBe(0);
  }, 120_000);
});
