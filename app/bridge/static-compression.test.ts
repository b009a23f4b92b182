import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isCompressibleType, negotiateEncoding } from './compression';
import { createStaticHandler } from './static-files';

// A script big and repetitive enough that compression pays, like the renderer's chunks.
const SCRIPT = Array.from(
  { length: 400 },
  (_, i) => `export function handler${i}(value) { return value + ${i}; }`,
).join('\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(4096, 7)]);

let dir: string;
let server: Server;
let port: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-static-'));
  const staticDir = join(dir, 'static');
  await mkdir(join(staticDir, 'assets'), { recursive: true });
  await writeFile(
    join(staticDir, 'index.html'),
    `<!doctype html><title>Berth</title>${'<!-- padding -->'.repeat(200)}`,
  );
  await writeFile(join(staticDir, 'assets', 'app.js'), SCRIPT);
  await writeFile(join(staticDir, 'assets', 'tiny.js'), 'console.log(1)');
  await writeFile(join(staticDir, 'assets', 'logo.png'), PNG);
  await writeFile(join(dir, 'secret.js'), `// TOP-SECRET\n${SCRIPT}`);
  server = createServer((req, res) => {
    void createStaticHandler({ staticDir, port: 1, onError: () => {} })(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});

afterEach(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  await rm(dir, { recursive: true, force: true });
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request without the automatic decompression fetch would do, so the wire bytes are seen. */
function get(path: string, acceptEncoding?: string, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolveResponse, rejectResponse) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolveResponse({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', rejectResponse);
    req.end();
  });
}

describe('browser-mode static server compression', () => {
  it('answers Brotli when accepted, with the same bytes after decompression', async () => {
    const response = await get('/assets/app.js', 'gzip, deflate, br');
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(response.body.length).toBeLessThan(SCRIPT.length / 3);
    expect(brotliDecompressSync(response.body).toString()).toBe(SCRIPT);
  });

  it('answers gzip when only gzip is accepted, and again from its cache', async () => {
    for (let round = 0; round < 2; round++) {
      const response = await get('/assets/app.js', 'gzip');
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(response.body).toString()).toBe(SCRIPT);
    }
  });

  it('sends the file as is when no encoding is accepted, still saying it varies', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const response = await get('/assets/app.js', accept);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(response.body.toString()).toBe(SCRIPT);
    }
  });

  it('compresses the page too and keeps its strict CSP', async () => {
    const page = await get('/', 'br');
    expect(page.headers['content-encoding']).toBe('br');
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(brotliDecompressSync(page.body).toString()).toContain('<title>Berth</title>');
  });

  it('answers HEAD with the compressed length and no body', async () => {
    const full = await get('/assets/app.js', 'gzip');
    const head = await get('/assets/app.js', 'gzip', 'HEAD');
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.body.length).toBe(0);
  });

  it('does not compress images or tiny files', async () => {
    const image = await get('/assets/logo.png', 'br, gzip');
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.headers.vary).toBeUndefined();
    expect(image.body.equals(PNG)).toBe(true);
    const tiny = await get('/assets/tiny.js', 'br, gzip');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('console.log(1)');
  });

  it('still refuses paths and symlinks outside the static dir when compression is asked for', async () => {
    expect((await get('/../secret.js', 'br')).status).not.toBe(200);
    expect((await get('/%2e%2e/secret.js', 'gzip')).status).not.toBe(200);
    await symlink(join(dir, 'secret.js'), join(dir, 'static', 'leak.js'));
    const leak = await get('/leak.js', 'br');
    expect(leak.status).toBe(403);
    expect(leak.body.toString()).not.toContain('TOP-SECRET');
  });
});

describe('negotiateEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['BR ; Q=0.8', 'br'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['deflate', undefined],
  ])('%s → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('isCompressibleType', () => {
  it('compresses text, JSON and SVG but not already-compressed formats', () => {
    for (const type of [
      'text/javascript; charset=utf-8',
      'text/css; charset=utf-8',
      'text/html; charset=utf-8',
      'application/json; charset=utf-8',
      'image/svg+xml',
    ]) {
      expect(isCompressibleType(type)).toBe(true);
    }
    for (const type of [
      'image/png',
      'image/webp',
      'font/woff2',
      'application/wasm',
      'video/mp4',
      'application/octet-stream',
    ]) {
      expect(isCompressibleType(type)).toBe(false);
    }
  });
});
