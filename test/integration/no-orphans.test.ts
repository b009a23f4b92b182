import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket, type RawData } from 'ws';
import { WS_PATH, WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../../shared/contract';
import type { Result } from '../../shared/result';

/**
 * Proves that Berth leaves no server process behind — grandchildren
 * included — after SIGTERM or SIGINT to browser mode, and after a server is
 * removed over the bridge. Evidence comes from the process table itself
 * (/proc/<pid>/stat), not from Berth's own bookkeeping.
 */

const repoRoot = resolve(import.meta.dirname, '..', '..');
const fixtures = join(repoRoot, 'e2e', 'fixtures', 'servers');
const READY_LINE = /^Berth is ready at http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]{43})$/;

interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
}

/** Every process in /proc, from fields 3-5 of its stat line (the name may hold spaces and parens). */
function processTable(): ProcEntry[] {
  const entries: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // Exited between readdir and read.
    }
    const [state = '?', ppid, pgid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    entries.push({ pid: Number(name), ppid: Number(ppid), pgid: Number(pgid), state });
  }
  return entries;
}

/** Live processes: a zombie has exited and only waits to be reaped (a container's init may never do it). */
const live = (): ProcEntry[] => processTable().filter((entry) => entry.state !== 'Z');

/** `roots` and all their live descendants, by walking ppid links. */
function subtree(roots: readonly number[]): number[] {
  const table = live();
  const found = new Set(roots.filter((pid) => table.some((entry) => entry.pid === pid)));
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of table) {
      if (!found.has(entry.pid) && found.has(entry.ppid)) {
        found.add(entry.pid);
        grew = true;
      }
    }
  }
  return [...found];
}

/** What is still running: members of the given groups, and any of the given pids. */
function leftovers(groups: readonly number[], pids: readonly number[]): ProcEntry[] {
  return live().filter((entry) => groups.includes(entry.pgid) || pids.includes(entry.pid));
}

async function waitUntil(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
}

let dir: string;
let berth: ChildProcess | undefined;
let watchedGroups: number[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-orphans-'));
  await mkdir(join(dir, 'static'));
  await writeFile(join(dir, 'static', 'index.html'), '<!doctype html><title>orphans</title>');
  await mkdir(join(dir, 'config'));
  const server = (script: string, pidFile: string): Record<string, unknown> => ({
    command: process.execPath,
    args: [join(fixtures, script)],
    env: { BERTH_FIXTURE_PID_FILE: join(dir, pidFile) },
  });
  await writeFile(
    join(dir, 'config', 'config.json'),
    JSON.stringify({
      mcpServers: {
        forker: server('spawns-grandchild.mjs', 'forker.json'),
        wrapped: server('wrapper.mjs', 'wrapped.json'),
      },
    }),
  );
});

afterEach(async () => {
  // A failed test must not leak what it was checking for into the next one.
  if (berth && berth.exitCode === null && berth.signalCode === null) berth.kill('SIGKILL');
  for (const group of watchedGroups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Already gone: the good case.
    }
  }
  watchedGroups = [];
  berth = undefined;
  await rm(dir, { recursive: true, force: true });
});

interface Running {
  child: ChildProcess;
  port: number;
  token: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Process group of each server (each leads its own), and every pid recorded by the fixtures. */
  groups: { forker: number; wrapped: number };
  pids: { forker: number[]; wrapped: number[] };
}

/** Starts browser mode (one process: node + tsx) and waits until both servers are ready. */
async function startBerth(): Promise<Running> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'app/cli/browser-mode.ts',
      '--headless',
      '--port',
      '0',
      '--config-dir',
      join(dir, 'config'),
      '--static-dir',
      join(dir, 'static'),
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ANTHROPIC_API_KEY: '' },
    },
  );
  berth = child;
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  await waitUntil(
    `Berth's ready line (stderr: ${err})`,
    () => {
      if (child.exitCode !== null) throw new Error(`Berth exited early with ${child.exitCode}: ${err}`);
      return out.includes('\n');
    },
    45_000,
  );
  const match = READY_LINE.exec(out.trim());
  if (!match) throw new Error(`unexpected stdout: ${JSON.stringify(out)}`);
  const port = Number(match[1]);
  const token = match[2] ?? '';

  const readPids = async (file: string): Promise<Record<string, number> | undefined> => {
    try {
      return JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, number>;
    } catch {
      return undefined; // Not written yet (or half written).
    }
  };
  await waitUntil(
    'both servers ready',
    async () => {
      const states = (await call(port, token, 'servers.list', {})) as Result<Array<{ name: string; status: string }>>;
      return states.ok && states.value.length === 2 && states.value.every((state) => state.status === 'ready');
    },
    30_000,
  );
  let forker: Record<string, number> | undefined;
  let wrapped: Record<string, number> | undefined;
  await waitUntil('fixture pid files', async () => {
    forker = await readPids('forker.json');
    wrapped = await readPids('wrapped.json');
    return forker !== undefined && wrapped !== undefined;
  });
  const groups = { forker: forker?.server ?? 0, wrapped: wrapped?.wrapper ?? 0 };
  watchedGroups = [groups.forker, groups.wrapped];
  const pids = { forker: [groups.forker, forker?.grandchild ?? 0], wrapped: [groups.wrapped, wrapped?.child ?? 0] };

  // The premise: each server leads its own group, and its helper is in it and alive.
  const table = live();
  for (const pid of [...pids.forker, ...pids.wrapped])
    expect(
      table.some((entry) => entry.pid === pid),
      `pid ${pid} alive before the test`,
    ).toBe(true);
  expect(table.find((entry) => entry.pid === pids.forker[1])?.pgid).toBe(groups.forker);
  expect(table.find((entry) => entry.pid === pids.wrapped[1])?.pgid).toBe(groups.wrapped);
  expect(table.find((entry) => entry.pid === groups.forker)?.ppid).toBe(child.pid);
  return { child, port, token, exited, groups, pids };
}

/** One bridge call over a fresh, properly authorised WebSocket. */
async function call(port: number, token: string, method: string, input: unknown): Promise<Result<unknown>> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${WS_PATH}`, [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${token}`], {
    origin: `http://127.0.0.1:${port}`,
  });
  try {
    await new Promise<void>((resolveOpen, rejectOpen) => {
      ws.once('open', () => resolveOpen());
      ws.once('error', rejectOpen);
    });
    const reply = new Promise<Result<unknown>>((resolveReply, rejectReply) => {
      ws.on('message', (data: RawData) => {
        const message = JSON.parse(data.toString()) as { kind: string; id: number; result: Result<unknown> };
        if (message.kind === 'reply' && message.id === 1) resolveReply(message.result);
      });
      ws.once('close', () => rejectReply(new Error(`the bridge closed before answering ${method}`)));
    });
    ws.send(JSON.stringify({ kind: 'call', id: 1, method, input }));
    return await reply;
  } finally {
    ws.close();
  }
}

describe.skipIf(process.platform !== 'linux')('no orphans (Linux only: walks /proc)', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`leaves no server process, child or grandchild, after ${signal} to Berth`, async () => {
      const running = await startBerth();
      const groups = [running.groups.forker, running.groups.wrapped];
      const recorded = [...running.pids.forker, ...running.pids.wrapped];
      // Everything the servers started, whether or not it stayed in their group.
      const tree = subtree(groups);
      expect(tree.length).toBeGreaterThanOrEqual(4);

      running.child.kill(signal);
      expect(await running.exited).toEqual({ code: 0, signal: null });
      await waitUntil(
        `server processes gone after ${signal}`,
        () => leftovers(groups, [...recorded, ...tree]).length === 0,
      );
      expect(leftovers(groups, [...recorded, ...tree])).toEqual([]);
    }, 60_000);
  }

  it('stops every process of a removed server and keeps Berth and the other server running', async () => {
    const running = await startBerth();
    const removedTree = subtree([running.groups.forker]);
    expect(await call(running.port, running.token, 'servers.remove', { name: 'forker' })).toEqual({
      ok: true,
      value: { removed: 'forker' },
    });
    await waitUntil(
      'removed server processes gone',
      () => leftovers([running.groups.forker], [...running.pids.forker, ...removedTree]).length === 0,
    );

    expect(running.child.exitCode).toBeNull();
    expect(await call(running.port, running.token, 'app.info', {})).toMatchObject({
      ok: true,
      value: { shell: 'browser' },
    });
    const others = live()
      .filter((entry) => entry.pgid === running.groups.wrapped)
      .map((entry) => entry.pid);
    expect(others).toEqual(expect.arrayContaining(running.pids.wrapped));
    const states = await call(running.port, running.token, 'servers.list', {});
    expect(states).toMatchObject({ ok: true, value: [{ name: 'wrapped', status: 'ready' }] });

    running.child.kill('SIGTERM');
    expect(await running.exited).toEqual({ code: 0, signal: null });
    await waitUntil(
      'the other server gone after SIGTERM',
      () => leftovers([running.groups.wrapped], running.pids.wrapped).length === 0,
    );
  }, 60_000);
});
