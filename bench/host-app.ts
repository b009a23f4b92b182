import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { WS_PATH, WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX, type ReplyMessage } from '../shared/contract';
import type { Result } from '../shared/result';
import { startBrowserServer } from '../app/bridge/ws-server';
import { createHost } from '../app/host';
import type { Host } from '../app/host-types';
import type { BenchClient } from './clients';

/** One configured stdio server, as config.json lists it. */
export interface BenchServerConfig {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The whole host (createHost) on a fresh config dir holding `servers`. */
export async function openWholeHost(servers: Record<string, BenchServerConfig>): Promise<{ host: Host; configDir: string; dispose(): Promise<void> }> {
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

function unwrap(result: Result<unknown>): unknown {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

/** `prompts.get` through host.dispatch in the same process: the contract router, no transport. */
export function dispatchClient(host: Host, server: string): BenchClient {
  return {
    label: 'host.dispatch prompts.get (in process)',
    callEcho: () => Promise.reject(new Error('no contract method calls a tool')),
    getEchoPrompt: async (text) => unwrap(await host.dispatch('prompts.get', { server, name: 'echo', arguments: { text } })),
    close: async () => undefined,
  };
}

/**
 * `prompts.get` as the browser-mode renderer sends it: a WebSocket call
 * message to the loopback bridge (token subprotocol, Origin checked), the
 * router, the prompt catalog, the server over stdio, and the reply back.
 */
export async function bridgeClient(host: Host, server: string): Promise<BenchClient> {
  const staticDir = await mkdtemp(join(tmpdir(), 'berth-bench-static-'));
  await mkdir(staticDir, { recursive: true });
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>bench</title>');
  const browser = await startBrowserServer({ host, staticDir });
  const origin = `http://127.0.0.1:${browser.port}`;
  const ws = new WebSocket(`ws://127.0.0.1:${browser.port}${WS_PATH}`, [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${browser.token}`], { origin });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_request, response) => reject(new Error(`the bridge refused the socket: HTTP ${response.statusCode ?? '?'}`)));
  });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as ReplyMessage | { kind: 'event' };
    if (message.kind !== 'reply') return;
    const entry = waiting.get(message.id);
    if (entry === undefined) return;
    waiting.delete(message.id);
    if (message.result.ok) entry.resolve(message.result.value);
    else entry.reject(new Error(`${message.result.code}: ${message.result.message}`));
  });
  ws.on('close', () => {
    for (const entry of waiting.values()) entry.reject(new Error('the bridge socket closed'));
    waiting.clear();
  });
  let nextId = 0;
  return {
    label: 'WebSocket bridge prompts.get (browser mode)',
    callEcho: () => Promise.reject(new Error('no contract method calls a tool')),
    getEchoPrompt: (text) =>
      new Promise((resolve, reject) => {
        const id = ++nextId;
        waiting.set(id, { resolve, reject });
        ws.send(JSON.stringify({ kind: 'call', id, method: 'prompts.get', input: { server, name: 'echo', arguments: { text } } }));
      }),
    close: async () => {
      ws.close();
      await browser.close();
      await rm(staticDir, { recursive: true, force: true });
    },
  };
}
