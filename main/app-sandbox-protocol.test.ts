import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_SANDBOX_URL, createAppSandboxRequestHandler, isAppSandboxUrl } from './app-sandbox-protocol';
import type { MainLog } from './log';

describe('isAppSandboxUrl', () => {
  it('matches the sandbox origin only', () => {
    expect(APP_SANDBOX_URL).toBe('berth-app://sandbox/');
    expect(isAppSandboxUrl('berth-app://sandbox/?csp=%7B%7D')).toBe(true);
    for (const url of [
      'berth://sandbox/',
      'berth-app://sandbox.evil/',
      'berth-app://evil@sandbox/',
      'berth-app://sandbox:1/',
      'about:srcdoc',
      'not a url',
    ]) {
      expect(isAppSandboxUrl(url), url).toBe(false);
    }
  });
});

describe('berth-app:// protocol', () => {
  let dir: string;
  const log: MainLog = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  let handle: (request: Request) => Promise<Response>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-app-protocol-'));
    await mkdir(join(dir, 'proxy', 'assets'), { recursive: true });
    await writeFile(
      join(dir, 'proxy', 'index.html'),
      '<!doctype html><script type="module" src="./assets/p.js"></script>',
    );
    await writeFile(join(dir, 'proxy', 'assets', 'p.js'), 'console.log(1)');
    await writeFile(join(dir, 'secret.txt'), 'do not serve');
    handle = createAppSandboxRequestHandler({ proxyDir: join(dir, 'proxy'), embedderOrigin: 'berth://app', log });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("serves the proxy document with the app's CSP from the query, framed only by Berth", async () => {
    const csp = encodeURIComponent(JSON.stringify({ connectDomains: ['https://api.example.com'] }));
    const response = await handle(new Request(`berth-app://sandbox/?csp=${csp}`));
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain('connect-src https://api.example.com;');
    expect(policy).toContain('frame-ancestors berth://app');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('./assets/p.js');
  });

  it('serves its script and nothing else', async () => {
    expect((await handle(new Request('berth-app://sandbox/assets/p.js'))).status).toBe(200);
    for (const url of [
      'berth-app://sandbox/secret.txt',
      'berth-app://sandbox/../secret.txt',
      'berth-app://sandbox/assets/../../secret.txt',
      'berth-app://other/index.html',
    ]) {
      const response = await handle(new Request(url));
      expect(response.status, url).toBe(404);
      expect(await response.text()).not.toContain('do not serve');
    }
  });

  it('answers 400 to a csp query that is not an app CSP', async () => {
    expect((await handle(new Request('berth-app://sandbox/?csp=nope'))).status).toBe(400);
  });
});
