/**
 * Test-only helpers shared by the supervisor's unit and integration tests
 * (never imported by host code): a real log collector, config building with
 * the schema's defaults, fixture paths and wait-for-condition.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServerConfigSchema } from '../../shared/domain/server';
import type { ServerConfig, ServerConfigInput, ServerState } from '../../shared/domain/server';
import type { LogEntry } from '../../shared/domain/log';
import type { LogSink, NewLogEntry } from '../logs/log-sink';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES_DIR = join(REPO_ROOT, 'e2e/fixtures/servers');

export function fixture(name: string): string {
  return join(FIXTURES_DIR, name);
}

/** The LogSink interface, implemented by keeping every entry. */
export class LogCollector implements LogSink {
  readonly entries: LogEntry[] = [];
  private seq = 0;

  append(entry: NewLogEntry): void {
    this.entries.push({ ...entry, seq: ++this.seq });
  }

  for(server: string, source?: LogEntry['source']): LogEntry[] {
    return this.entries.filter((entry) => entry.server === server && (source === undefined || entry.source === source));
  }

  texts(server: string, source?: LogEntry['source']): string[] {
    return this.for(server, source).map((entry) => entry.text);
  }
}

/** A full config from the fields a test cares about, with the schema's defaults. */
export function serverConfig(input: ServerConfigInput): ServerConfig {
  return ServerConfigSchema.parse(input);
}

/** A config that runs a fixture server with this Node. */
export function fixtureConfig(name: string, extra: Partial<ServerConfigInput> = {}): ServerConfig {
  return serverConfig({ command: process.execPath, args: [fixture(name)], ...extra });
}

/** Records every state the supervisor reports. */
export class StateRecorder {
  readonly states: ServerState[] = [];
  readonly onState = (state: ServerState): void => {
    this.states.push(state);
  };

  /** The statuses this server went through, repeats of the same status collapsed. */
  statuses(name: string): string[] {
    const result: string[] = [];
    for (const state of this.states) {
      if (state.name === name && result.at(-1) !== state.status) result.push(state.status);
    }
    return result;
  }
}

/** Poll until `check` returns a value that is not undefined/false, or fail after `timeoutMs`. */
export async function waitUntil<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A fresh temp directory, and a function that removes it. */
export async function tempDir(prefix = 'berth-servers-'): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  // Retries: a process that just ended may still be writing into it (ENOTEMPTY on a loaded machine).
  return { path, cleanup: () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }) };
}

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** server-everything in one of its HTTP modes (`PORT=`), as a real process a test can kill and start again. */
export class RemoteEverything {
  private child: ChildProcess | undefined;
  /** Everything it printed (stdout and stderr), in order. */
  readonly output: string[] = [];

  constructor(
    readonly mode: 'streamableHttp' | 'sse',
    readonly port: number,
  ) {}

  /** `http://127.0.0.1:<port>/mcp` (Streamable HTTP) or `…/sse` (legacy). */
  get url(): string {
    return `http://127.0.0.1:${this.port}/${this.mode === 'sse' ? 'sse' : 'mcp'}`;
  }

  /** Resolves once it says it listens. */
  async start(): Promise<void> {
    const entry = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    const child = spawn(process.execPath, [entry, this.mode], {
      env: { ...process.env, PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    await new Promise<void>((resolveStart, reject) => {
      child.once('exit', (code) => reject(new Error(`server-everything ${this.mode} exited early with ${code}`)));
      child.stderr?.on('data', (chunk: Buffer) => {
        this.output.push(chunk.toString());
        if (/port \d+/i.test(chunk.toString())) resolveStart();
      });
    });
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
    child.kill('SIGKILL');
    await exited;
  }
}
