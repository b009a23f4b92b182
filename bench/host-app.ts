import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { WS_PATH, WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../shared/contract';
import type { Result } from '../shared/result';
import { startBrowserServer } from '../app/bridge/ws-server';
import { createHost } from '../app/host';
import type { Host } from '../app/host/host-types';
import type { BenchClient } from './clients';
import { seriesResult } from './tool-calls';

/** One configured stdio server, as config.json lists it. */
export interface BenchServerConfig {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The whole host (createHost) on a fresh config dir holding `servers`. */
export async function openWholeHost(
  servers: Record<string, BenchServerConfig>,
): Promise<{ host: Host; configDir: string; dispose(): Promise<void> }> {
  const configDir = await mkdtemp(join(tmpdir(), 'berth-bench-host-'));
  await writeFile(join(configDir, 'config.json'), JSON.stringify({ mcpServers: servers }, null, 2));
  const host = await createHost({ configDir, shell: 'browser', env: process.env });
  return {
    host,
    configDir,
    dispose: async () => {
      await host.shutdown();
      await rm(configDir, { recursive: true, force: true });
    },
  };
}

/** Resolves once every named server is ready; rejects on the first that ends in error or crashes. */
export function allReady(host: Host, names: readonly string[]): Promise<void> {
  const waiting = new Set(names);
  return new Promise((resolve, reject) => {
    const check = (state: { name: string; status: string; reason?: string }): void => {
      if (!waiting.has(state.name)) return;
      if (state.status === 'ready') waiting.delete(state.name);
      if (state.status === 'error' || state.status === 'crashed') {
        unsubscribe();
        reject(new Error(`server '${state.name}' is ${state.status}: ${state.reason ?? 'no reason given'}`));
      }
      if (waiting.size === 0) {
        unsubscribe();
        resolve();
      }
    };
    const unsubscribe = host.subscribe((topic, payload) => {
      if (topic === 'servers.changed') check(payload as { name: string; status: string });
    });
    // Servers that became ready before we subscribed.
    void host.dispatch('servers.list', {}).then((result) => {
      if (result.ok) for (const state of result.value as Array<{ name: string; status: string }>) check(state);
    });
  });
}

/** A contract call's value, or its failure thrown in words. */
export function unwrap<T = unknown>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value as T;
}

/** Resolves when the conversation's turn ends; answers every tool-call consent question with allow-once. */
export function turnDone(host: Host, conversationId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const unsubscribe = host.subscribe((topic, payload) => {
      const event = payload as {
        type?: string;
        conversationId?: string;
        message?: string;
        change?: { type: string; request: { id: string; kind: string } };
      };
      if (topic === 'pending.changed' && event.change?.type === 'opened' && event.change.request.kind === 'tool-call') {
        void host.dispatch('pending.answer', { id: event.change.request.id, response: { decision: 'allow-once' } });
      }
      if (
        topic === 'chat.event' &&
        event.conversationId === conversationId &&
        (event.type === 'turn-finished' || event.type === 'turn-failed')
      ) {
        unsubscribe();
        if (event.type === 'turn-failed') reject(new Error(`the turn failed: ${event.message ?? ''}`));
        else resolve();
      }
    });
  });
}

/** `prompts.get` through host.dispatch in the same process: the contract router, no transport. */
export function dispatchClient(host: Host, server: string): BenchClient {
  return {
    label: 'host.dispatch prompts.get (in process)',
    callEcho: () => Promise.reject(new Error('no contract method calls a tool')),
    getEchoPrompt: async (text) =>
      unwrap(await host.dispatch('prompts.get', { server, name: 'echo', arguments: { text } })),
    close: async () => undefined,
  };
}

/** The bridge row's client (bench/fixtures/bridge-client.mjs), run in a process of its own. */
const BRIDGE_CLIENT = fileURLToPath(new URL('./fixtures/bridge-client.mjs', import.meta.url));

/** One line the bridge client writes. */
type ClientLine = { open: true } | { measuring: true } | { elapsedMs: number; latencies: number[] } | { error: string };

/**
 * `prompts.get` as the browser-mode renderer sends it: a WebSocket call
 * message to the loopback bridge (token subprotocol, Origin checked), the
 * router, the prompt catalog, the server over stdio, and the reply back. The
 * WebSocket client runs in a child process, as the browser does in the app,
 * so this process's CPU time over a series is the host's alone.
 */
export async function bridgeClient(host: Host, server: string): Promise<BenchClient> {
  const staticDir = await mkdtemp(join(tmpdir(), 'berth-bench-static-'));
  await mkdir(staticDir, { recursive: true });
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>bench</title>');
  const browser = await startBrowserServer({ host, staticDir });
  const origin = `http://127.0.0.1:${browser.port}`;
  const child = spawn(
    process.execPath,
    [
      BRIDGE_CLIENT,
      `ws://127.0.0.1:${browser.port}${WS_PATH}`,
      origin,
      `${WS_PROTOCOL},${WS_TOKEN_PROTOCOL_PREFIX}${browser.token}`,
      server,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  let listener: ((line: ClientLine) => void) | undefined;
  let ended: string | undefined;
  lines.on('line', (text) => listener?.(JSON.parse(text) as ClientLine));
  child.once('exit', (code, signal) => {
    ended = `the bridge client exited (${signal ?? `code ${code ?? '?'}`})`;
    listener?.({ error: ended });
  });
  /** The client's next line that is not `measuring` (that one is handed to `onMeasuring`). */
  const nextLine = (onMeasuring: () => void = () => undefined): Promise<ClientLine> =>
    new Promise((resolve) => {
      if (ended !== undefined) resolve({ error: ended });
      listener = (line) => {
        if ('measuring' in line) return onMeasuring();
        listener = undefined;
        resolve(line);
      };
    });
  const opened = await nextLine();
  if ('error' in opened) {
    child.kill();
    await browser.close();
    throw new Error(opened.error);
  }
  return {
    label: 'WebSocket bridge prompts.get (browser mode, client in its own process)',
    callEcho: () => Promise.reject(new Error('no contract method calls a tool')),
    getEchoPrompt: () => Promise.reject(new Error('the bridge client runs its series in its own process')),
    series: async (plan) => {
      let cpu: NodeJS.CpuUsage | undefined;
      const done = nextLine(() => {
        cpu = process.cpuUsage();
      });
      child.stdin.write(`${JSON.stringify(plan)}\n`);
      const line = await done;
      if ('error' in line) throw new Error(line.error);
      if (!('latencies' in line) || cpu === undefined)
        throw new Error(`the bridge client answered ${JSON.stringify(line).slice(0, 200)}`);
      return seriesResult(
        'WebSocket bridge prompts.get (browser mode, client in its own process)',
        plan,
        line.elapsedMs,
        line.latencies,
        process.cpuUsage(cpu),
      );
    },
    close: async () => {
      child.stdin.end();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once('exit', () => resolve());
      });
      await browser.close();
      await rm(staticDir, { recursive: true, force: true });
    },
  };
}
