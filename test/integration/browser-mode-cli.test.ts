import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WS_PATH, WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX, type ReplyMessage } from '../../shared/contract';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const READY_LINE = /^Berth is ready at (http:\/\/127\.0\.0\.1:(\d+)\/)#token=([A-Za-z0-9_-]{43})$/;

interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let dir: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-cli-'));
  await mkdir(join(dir, 'static'));
  await writeFile(join(dir, 'static', 'index.html'), '<!doctype html><title>Berth test page</title>');
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await rm(dir, { recursive: true, force: true });
});

/**
 * Runs the entry under tsx in ONE process (`node --import tsx`): `npx` would
 * put npm in between, and npm does not pass SIGTERM on to its child.
 */
function runCli(args: string[], env: Record<string, string> = {}): RunningCli {
  const child = spawn(process.execPath, ['--import', 'tsx', 'app/cli/browser-mode.ts', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BERTH_CONFIG_DIR: join(dir, 'default-config'), ...env },
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function waitForReady(cli: RunningCli): Promise<RegExpMatchArray> {
  const deadline = Date.now() + 45_000;
  while (!cli.stdout().includes('\n')) {
    if (cli.child.exitCode !== null) throw new Error(`exited early with ${cli.child.exitCode}: ${cli.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no ready line; stderr: ${cli.stderr()}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
  const match = READY_LINE.exec(cli.stdout().trimEnd());
  if (!match) throw new Error(`unexpected stdout: ${JSON.stringify(cli.stdout())}`);
  return match;
}

/** Two consecutive ports free on 127.0.0.1 now (as free as a port can be promised: nothing holds them after). */
async function freePortPair(): Promise<[number, number]> {
  const tryListen = (port: number) =>
    new Promise<ReturnType<typeof createServer> | undefined>((resolveListen) => {
      const server = createServer();
      server.once('error', () => resolveListen(undefined));
      server.listen(port, '127.0.0.1', () => resolveListen(server));
    });
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const first = await tryListen(0);
    const address = first?.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const second = port > 0 && port < 65_535 ? await tryListen(port + 1) : undefined;
    await new Promise<void>((done) => (first === undefined ? done() : first.close(() => done())));
    if (second !== undefined) {
      await new Promise<void>((done) => second.close(() => done()));
      return [port, port + 1];
    }
  }
  throw new Error('no two consecutive free ports found');
}

async function waitUntilSaid(cli: RunningCli, text: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!cli.stderr().includes(text)) {
    if (Date.now() > deadline) throw new Error(`Berth never said "${text}"; stderr: ${cli.stderr()}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
}

describe('browser-mode CLI', () => {
  it('prints exactly one ready line, serves the UI and the bridge, and exits 0 on SIGTERM', async () => {
    const cli = runCli([
      '--headless',
      '--port',
      '0',
      '--config-dir',
      join(dir, 'config'),
      '--static-dir',
      join(dir, 'static'),
    ]);
    const [, url = '', port = '', token = ''] = await waitForReady(cli);

    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Berth test page');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");

    const ws = new WebSocket(`ws://127.0.0.1:${port}${WS_PATH}`, [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${token}`], {
      origin: `http://127.0.0.1:${port}`,
    });
    await new Promise((resolveOpen, rejectOpen) => {
      ws.once('open', resolveOpen);
      ws.once('error', rejectOpen);
    });
    const reply = new Promise<ReplyMessage>((resolveReply) =>
      ws.once('message', (data: Buffer) => resolveReply(JSON.parse(data.toString('utf8')))),
    );
    ws.send(JSON.stringify({ kind: 'call', id: 1, method: 'app.info', input: {} }));
    expect((await reply).result).toMatchObject({
      ok: true,
      value: { shell: 'browser', configDir: join(dir, 'config') },
    });
    ws.close();

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(cli.stdout().split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('puts the app sandbox on the port after --port, or on --app-sandbox-port, so both can be planned', async () => {
    const [port, next] = await freePortPair();
    const cli = runCli([
      '--headless',
      '--port',
      String(port),
      '--config-dir',
      join(dir, 'config'),
      '--static-dir',
      join(dir, 'static'),
    ]);
    const [, , readyPort = ''] = await waitForReady(cli);
    expect(Number(readyPort)).toBe(port);
    await waitUntilSaid(cli, 'App sandbox: ');
    expect(cli.stderr()).toContain(`App sandbox: http://127.0.0.1:${next}/`);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });

    const [own] = await freePortPair();
    const chosen = runCli([
      '--headless',
      '--app-sandbox-port',
      String(own),
      '--config-dir',
      join(dir, 'config'),
      '--static-dir',
      join(dir, 'static'),
    ]);
    await waitForReady(chosen);
    await waitUntilSaid(chosen, 'App sandbox: ');
    expect(chosen.stderr()).toContain(`App sandbox: http://127.0.0.1:${own}/`);
    chosen.child.kill('SIGTERM');
    expect(await chosen.exited).toEqual({ code: 0, signal: null });
  });

  it('says a client that dropped its request half-way, on either port, in one line without a stack trace', async () => {
    const cli = runCli(['--headless', '--config-dir', join(dir, 'config'), '--static-dir', join(dir, 'static')]);
    const [, , port = ''] = await waitForReady(cli);
    await waitUntilSaid(cli, 'App sandbox: ');
    const sandboxPort = /App sandbox: http:\/\/127\.0\.0\.1:(\d+)\//.exec(cli.stderr())?.[1] ?? '';
    for (const target of [Number(port), Number(sandboxPort)]) {
      const socket = connect(target, '127.0.0.1');
      await new Promise<void>((resolveConnect) => socket.once('connect', () => resolveConnect()));
      socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${target}\r\n`);
      await new Promise((wait) => setTimeout(wait, 50));
      socket.resetAndDestroy();
    }
    await waitUntilSaid(
      cli,
      'Berth server: browser-mode server: a client disconnected in the middle of a request (ECONNRESET)\n',
    );
    await waitUntilSaid(
      cli,
      'Berth app sandbox server: app sandbox server: a client disconnected in the middle of a request (ECONNRESET)\n',
    );
    expect(cli.stderr()).not.toMatch(/^\s+at /m);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
  });

  it('exits 1 with a clear message when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolveListen) => blocker.listen(0, '127.0.0.1', resolveListen));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const cli = runCli([
        '--headless',
        '--port',
        String(port),
        '--config-dir',
        join(dir, 'config'),
        '--static-dir',
        join(dir, 'static'),
      ]);
      expect(await cli.exited).toEqual({ code: 1, signal: null });
      expect(cli.stdout()).toBe('');
      expect(cli.stderr()).toContain(`Port ${port}`);
      expect(cli.stderr()).toContain('already in use');
    } finally {
      blocker.close();
    }
  });

  it('refuses bad arguments with usage and exit code 2', async () => {
    const cli = runCli(['--port', 'eighty']);
    expect(await cli.exited).toEqual({ code: 2, signal: null });
    expect(cli.stderr()).toContain('--port must be a number');
    expect(cli.stderr()).toContain('Usage:');
    expect(cli.stdout()).toBe('');
  });

  it('without a browser, still prints the URL and says none was found', async () => {
    // BERTH_BROWSER points at nothing, so the test never opens a real window.
    const cli = runCli(['--port', '0', '--config-dir', join(dir, 'config'), '--static-dir', join(dir, 'static')], {
      BERTH_BROWSER: join(dir, 'no-such-browser'),
    });
    await waitForReady(cli);
    const deadline = Date.now() + 15_000;
    while (!cli.stderr().includes('BERTH_BROWSER')) {
      if (Date.now() > deadline) throw new Error(`no message about the browser; stderr: ${cli.stderr()}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    }
    cli.child.kill('SIGINT');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
  });
});
