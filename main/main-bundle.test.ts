import { execFile, fork, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPC_CALL_CHANNEL } from '../shared/contract';
import type { Result } from '../shared/result';
import { APP_CSP } from './app-protocol';

// The real bundle (scripts/build-node.mjs) run under plain Node with a fake
// `electron` module: proves the host and its dependencies bundle into one CJS
// file that starts, serves the bridge only to the main frame, and quits by
// shutting every server down.

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

interface ChildMessage {
  type: string;
  id?: number;
  result?: unknown;
  error?: string;
  [key: string]: unknown;
}

let workDir: string;
let appDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'berth-main-bundle-'));
  appDir = join(workDir, 'app');
  await run(
    process.execPath,
    [join(repoRoot, 'scripts/build-node.mjs'), '--only', 'main', '--out-dir', join(appDir, 'dist')],
    {
      cwd: repoRoot,
    },
  );
  await mkdir(join(appDir, 'node_modules', 'electron'), { recursive: true });
  await copyFile(
    join(repoRoot, 'main/test-fixtures/fake-electron.cjs'),
    join(appDir, 'node_modules', 'electron', 'index.js'),
  );
  await mkdir(join(appDir, 'dist', 'renderer'), { recursive: true });
  await writeFile(join(appDir, 'dist', 'renderer', 'index.html'), '<!doctype html><title>Berth test</title>');
  await mkdir(join(appDir, 'dist', 'sandbox-proxy'), { recursive: true });
  await writeFile(join(appDir, 'dist', 'sandbox-proxy', 'index.html'), '<!doctype html><title>sandbox test</title>');
}, 120_000);

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** Launch the bundled main process with its own config dir. */
async function launch(env: Record<string, string> = {}) {
  const configDir = await mkdtemp(join(workDir, 'config-'));
  const messages: ChildMessage[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  const child: ChildProcess = fork(join(appDir, 'dist', 'main', 'index.cjs'), [], {
    env: { ...process.env, BERTH_CONFIG_DIR: configDir, FAKE_ELECTRON_APP_PATH: appDir, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.on('message', (message: ChildMessage) => {
    messages.push(message);
    for (const wake of waiters) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stderr:\n${stderr}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
        setTimeout(wake, 200);
      });
    }
  }

  let nextId = 1;
  async function request(message: Record<string, unknown>): Promise<unknown> {
    const id = nextId++;
    child.send({ ...message, id });
    const reply = await waitFor(() => messages.find((m) => m.type === 'reply' && m.id === id), `reply ${id}`);
    if (reply.error !== undefined) throw new Error(reply.error);
    return reply.result;
  }
  const call = (method: string, input: unknown, frame: 'main' | 'sub' = 'main') =>
    request({ type: 'call', channel: IPC_CALL_CHANNEL, method, input, frame }) as Promise<Result<unknown>>;

  return { child, configDir, messages, waitFor, call, request, exited, stderr: () => stderr };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('bundled main process (fake electron)', () => {
  it('starts the host, serves the bridge to the main frame only, serves berth://, and quits cleanly', async () => {
    const app = await launch();
    const window = await app.waitFor(() => app.messages.find((m) => m.type === 'window'), 'the main window');
    expect(window.url).toBe('berth://app/index.html');
    expect(app.messages.find((m) => m.type === 'schemes')).toBeDefined();

    const info = await app.call('app.info', {});
    expect(info).toMatchObject({ ok: true, value: { shell: 'electron', configDir: app.configDir } });
    expect(await app.call('app.info', {}, 'sub')).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(await app.call('no.such.method', {})).toMatchObject({ ok: false, code: 'UNKNOWN_METHOD' });

    const page = (await app.request({ type: 'fetch', url: 'berth://app/index.html' })) as {
      status: number;
      csp: string;
      text: string;
    };
    expect(page).toEqual({ status: 200, csp: APP_CSP, text: '<!doctype html><title>Berth test</title>' });
    // MCP Apps' sandbox proxy: its own origin, framed only by berth://app, which serves nothing of Berth's.
    const sandbox = (await app.request({ type: 'fetch', url: 'berth-app://sandbox/' })) as {
      status: number;
      csp: string;
      text: string;
    };
    expect(sandbox).toMatchObject({ status: 200, text: '<!doctype html><title>sandbox test</title>' });
    expect(sandbox.csp).toContain("connect-src 'none'");
    expect(sandbox.csp).toContain('frame-ancestors berth://app');
    expect(await app.request({ type: 'fetch', url: 'berth-app://sandbox/../renderer/index.html' })).toMatchObject({
      status: 404,
    });
    expect(await app.request({ type: 'fetch', url: 'berth-app://other/' })).toMatchObject({ status: 404 });

    app.child.send({ type: 'quit' });
    expect(await app.exited).toBe(0);
    expect(app.messages.find((m) => m.type === 'error-box')).toBeUndefined();
  }, 60_000);

  it.each(['Quit', 'SIGTERM'] as const)(
    '%s stops every server process before exiting',
    async (how) => {
      const app = await launch();
      const serverScript = join(repoRoot, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
      await writeFile(
        join(app.configDir, 'config.json'),
        JSON.stringify({
          mcpServers: {
            memory: {
              command: process.execPath,
              args: [serverScript],
              env: { MEMORY_FILE_PATH: join(app.configDir, 'memory.jsonl') },
            },
          },
        }),
      );
      await app.waitFor(() => app.messages.find((m) => m.type === 'window'), 'the main window');

      let pid: number | undefined;
      const deadline = Date.now() + 45_000;
      while (pid === undefined) {
        const list = await app.call('servers.list', {});
        if (list.ok) {
          const servers = list.value as Array<{ name: string; status: string; pid?: number; reason?: string }>;
          const memory = servers.find((s) => s.name === 'memory');
          if (memory?.status === 'ready' && memory.pid !== undefined) pid = memory.pid;
          if (memory?.status === 'error' || memory?.status === 'crashed')
            throw new Error(`server failed: ${memory.reason}`);
        }
        if (Date.now() > deadline) throw new Error(`the memory server never became ready; stderr:\n${app.stderr()}`);
        if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(isAlive(pid)).toBe(true);

      if (how === 'Quit') app.child.send({ type: 'quit' });
      else app.child.kill('SIGTERM');
      expect(await app.exited).toBe(0);
      expect(isAlive(pid)).toBe(false);
    },
    90_000,
  );

  it('a second instance quits at once without starting a host', async () => {
    const app = await launch({ FAKE_ELECTRON_LOCK: 'taken' });
    expect(await app.exited).toBe(0);
    expect(app.messages.find((m) => m.type === 'window')).toBeUndefined();
    expect(await readdir(app.configDir)).toEqual([]);
  }, 30_000);
});
