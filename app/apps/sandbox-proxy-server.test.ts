import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect as connectSocket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAppCsp } from '../../shared/apps/app-csp';
import { ClientDisconnect } from '../net/client-disconnect';
import { startSandboxProxyServer, type SandboxProxyServer } from './sandbox-proxy-server';

const PROXY_HTML =
  '<!doctype html><title>proxy</title><script type="module" crossorigin src="./assets/index-abc.js"></script>';
let dir: string;
let server: SandboxProxyServer;
let embedders: string[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-proxy-'));
  await mkdir(join(dir, 'proxy', 'assets'), { recursive: true });
  await writeFile(join(dir, 'proxy', 'index.html'), PROXY_HTML);
  await writeFile(join(dir, 'proxy', 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(join(dir, 'proxy', 'assets', 'index-abc.js.map'), '{}');
  await writeFile(join(dir, 'proxy', 'assets', 'other.js'), 'console.log(2)');
  await writeFile(join(dir, 'secret.txt'), 'TOP-SECRET');
  embedders = ['http://127.0.0.1:4000'];
  server = await startSandboxProxyServer({ proxyDir: join(dir, 'proxy'), embedderOrigins: () => embedders });
});

afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function get(
  path: string,
  options: { host?: string; method?: string } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolveGet, rejectGet) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? `127.0.0.1:${server.port}` },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolveGet({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', rejectGet);
    req.end();
  });
}

describe('the app sandbox server', () => {
  it('listens on its own loopback port', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('serves the proxy document with the default (no network) app policy as a header, uncached', async () => {
    const answer = await get('/');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(PROXY_HTML);
    const csp = String(answer.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval';");
    expect(csp).toContain('frame-ancestors http://127.0.0.1:4000');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it("writes the declared domains from the query into the header, with the builder's checks", async () => {
    const declared = { connectDomains: ['https://api.example.com', "https://x.example.com; script-src 'unsafe-eval'"] };
    const answer = await get(`/index.html?csp=${encodeURIComponent(JSON.stringify(declared))}`);
    const csp = String(answer.headers['content-security-policy']);
    expect(csp).toContain('connect-src https://api.example.com;');
    expect(csp).not.toContain('x.example.com');
    expect(csp.replaceAll("'self' ", '').replace('; frame-ancestors http://127.0.0.1:4000', '')).toBe(
      buildAppCsp(declared).policy,
    );
  });

  it("refuses a declared source naming Berth's UI, its bridge or this proxy's own origin", async () => {
    const declared = {
      connectDomains: [
        'ws://localhost:4000',
        'http://127.0.0.1:4000/',
        `http://localhost:${server.port}`,
        'https://api.example.com',
      ],
      resourceDomains: [`http://127.0.0.1:${server.port}`],
    };
    const csp = String(
      (await get(`/?csp=${encodeURIComponent(JSON.stringify(declared))}`)).headers['content-security-policy'],
    );
    expect(csp).toContain('connect-src https://api.example.com;');
    expect(csp).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval';");
    expect(csp).not.toMatch(/:4000 |:4000;|localhost/);
  });

  it('reads the embedders on each request (Berth learns its own port later)', async () => {
    embedders = ['http://127.0.0.1:5555', 'http://localhost:5555'];
    expect((await get('/')).headers['content-security-policy']).toContain(
      'frame-ancestors http://127.0.0.1:5555 http://localhost:5555',
    );
  });

  it('answers 400 to a csp query that is not an app CSP', async () => {
    for (const bad of ['not json', '"https://a.example.com"', '{"connectDomains":"https://a.example.com"}']) {
      const answer = await get(`/?csp=${encodeURIComponent(bad)}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toContain('app CSP');
    }
  });

  it('serves the scripts the document names, and nothing else', async () => {
    const script = await get('/assets/index-abc.js');
    expect(script.status).toBe(200);
    expect(script.body).toBe('console.log(1)');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    for (const path of [
      '/assets/other.js',
      '/assets/index-abc.js.map',
      '/secret.txt',
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/ws',
      '/favicon.ico',
      '/index.html/',
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toContain('TOP-SECRET');
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
    }
  });

  it('refuses other Host headers (DNS rebinding) and other methods', async () => {
    expect((await get('/', { host: 'evil.example:80' })).status).toBe(403);
    expect((await get('/', { method: 'POST' })).status).toBe(405);
    expect((await get('/', { host: `localhost:${server.port}` })).status).toBe(200);
  });

  it('says the sandbox is not built when it is not', async () => {
    await rm(join(dir, 'proxy', 'index.html'));
    const answer = await get('/');
    expect(answer.status).toBe(503);
    expect(answer.body).toContain('npm run build');
  });

  it('closes idempotently', async () => {
    await Promise.all([server.close(), server.close()]);
    await expect(get('/')).rejects.toThrow();
  });
});

describe('a client of the app sandbox server that goes away abruptly', () => {
  it('is one line, not a stack trace', async () => {
    const reported: unknown[] = [];
    const own = await startSandboxProxyServer({
      proxyDir: join(dir, 'proxy'),
      embedderOrigins: () => embedders,
      onError: (error) => reported.push(error),
    });
    try {
      const socket = connectSocket(own.port, '127.0.0.1');
      await new Promise<void>((resolveConnect) => socket.once('connect', () => resolveConnect()));
      socket.write(`GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:${own.port}\r\n`);
      await new Promise((wait) => setTimeout(wait, 50));
      socket.resetAndDestroy();
      const deadline = Date.now() + 5_000;
      while (reported.length === 0 && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 20));
      await new Promise((wait) => setTimeout(wait, 200));
      expect(reported).toHaveLength(1);
      expect(reported[0]).toBeInstanceOf(ClientDisconnect);
      expect((reported[0] as Error).message).toBe(
        'app sandbox server: a client disconnected in the middle of a request (ECONNRESET)',
      );
    } finally {
      await own.close();
    }
  });
});
