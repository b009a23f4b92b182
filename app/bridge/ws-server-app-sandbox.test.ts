import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WS_PATH, WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../../shared/contract';
import { ok, type Result } from '../../shared/result';
import { startSandboxProxyServer, type SandboxProxyServer } from '../apps/sandbox-proxy-server';
import { createEventHub } from '../events/event-hub';
import type { Host } from '../host/host-types';
import { startBrowserServer, type BrowserServer } from './ws-server';

// Browser mode runs MCP Apps under a second loopback origin (the sandbox
// proxy) and, inside it, in frames with an opaque origin ("null"). Neither may
// ever open Berth's bridge, even holding the token.

const calls: unknown[] = [];
const host: Host = {
  dispatch: async (method: unknown): Promise<Result<unknown>> => {
    calls.push(method);
    return ok({});
  },
  subscribe: createEventHub().subscribe,
  shutdown: async () => undefined,
};

let dir: string;
let proxy: SandboxProxyServer;
let server: BrowserServer;

beforeEach(async () => {
  calls.length = 0;
  dir = await mkdtemp(join(tmpdir(), 'berth-ws-apps-'));
  await mkdir(join(dir, 'static'));
  await writeFile(join(dir, 'static', 'index.html'), '<!doctype html><title>Berth</title>');
  await mkdir(join(dir, 'proxy'));
  await writeFile(join(dir, 'proxy', 'index.html'), '<!doctype html><title>proxy</title>');
  proxy = await startSandboxProxyServer({
    proxyDir: join(dir, 'proxy'),
    embedderOrigins: () => [`http://127.0.0.1:${server.port}`],
  });
  server = await startBrowserServer({ host, staticDir: join(dir, 'static'), appSandboxOrigin: proxy.origin });
});

afterEach(async () => {
  await server.close();
  await proxy.close();
  await rm(dir, { recursive: true, force: true });
});

/** Tries the bridge with the right token from `origin`; resolves with 'open' or the refusal's status and body. */
function tryBridge(origin: string): Promise<'open' | { status: number; body: string }> {
  return new Promise((resolveTry, rejectTry) => {
    const ws = new WebSocket(
      `ws://127.0.0.1:${server.port}${WS_PATH}`,
      [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${server.token}`],
      { origin },
    );
    ws.once('open', () => {
      ws.terminate();
      resolveTry('open');
    });
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolveTry({ status: response.statusCode ?? 0, body }));
    });
    ws.once('error', rejectTry);
  });
}

describe("the bridge and the apps' sandbox origin", () => {
  it("still opens for Berth's own page (the control)", async () => {
    expect(await tryBridge(`http://127.0.0.1:${server.port}`)).toBe('open');
  });

  it("refuses the sandbox proxy's origin, token or not", async () => {
    expect(await tryBridge(proxy.origin)).toEqual({ status: 403, body: "Origin not allowed: the apps' sandbox\n" });
    expect(calls).toEqual([]);
  });

  it("refuses the opaque origin of an app's frame", async () => {
    expect(await tryBridge('null')).toEqual({
      status: 403,
      body: 'Origin not allowed: an opaque origin (a sandboxed frame, such as an app)\n',
    });
    expect(calls).toEqual([]);
  });

  it("lets Berth's pages frame the sandbox origin and nothing else", async () => {
    const csp = await new Promise<string>((resolveGet, rejectGet) => {
      httpRequest({ host: '127.0.0.1', port: server.port, path: '/' }, (res) => {
        res.resume();
        resolveGet(String(res.headers['content-security-policy']));
      })
        .on('error', rejectGet)
        .end();
    });
    expect(csp).toContain(`frame-src ${proxy.origin};`);
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
