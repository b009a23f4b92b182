import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';

// Browser mode starts the MCP Apps sandbox proxy on a second loopback port
// beside Berth's own, ties the two together (Berth may frame it, only Berth
// may embed it) and stops it on exit.

const repoRoot = resolve(import.meta.dirname, '..', '..');
let dir: string;
let child: ChildProcess | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-cli-sandbox-'));
  await mkdir(join(dir, 'dist', 'renderer'), { recursive: true });
  await writeFile(join(dir, 'dist', 'renderer', 'index.html'), '<!doctype html><title>Berth test page</title>');
  await mkdir(join(dir, 'dist', 'sandbox-proxy'));
  await writeFile(join(dir, 'dist', 'sandbox-proxy', 'index.html'), '<!doctype html><title>sandbox test page</title>');
});

afterEach(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

it('serves the app sandbox on its own port while browser mode runs, and stops it on exit', async () => {
  child = spawn(
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
      join(dir, 'dist', 'renderer'),
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BERTH_CONFIG_DIR: join(dir, 'config') },
    },
  );
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolveExit) => child?.once('exit', (code) => resolveExit(code)));
  await expect.poll(() => /App sandbox: (\S+)/.exec(err)?.[1], { timeout: 45_000, interval: 50 }).toBeDefined();
  const berthUrl = /Berth is ready at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1] ?? '';
  const sandboxUrl = /App sandbox: (\S+)/.exec(err)?.[1] ?? '';
  const berthOrigin = new URL(berthUrl).origin;
  const sandboxOrigin = new URL(sandboxUrl).origin;
  expect(sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  expect(sandboxOrigin).not.toBe(berthOrigin);

  const sandboxPage = await fetch(sandboxUrl);
  expect(await sandboxPage.text()).toContain('sandbox test page');
  expect(sandboxPage.headers.get('content-security-policy')).toContain(
    `frame-ancestors ${berthOrigin} http://localhost:${new URL(berthUrl).port}`,
  );
  // The sandbox's origin serves nothing of Berth's.
  expect((await fetch(`${sandboxOrigin}/renderer/index.html`)).status).toBe(404);
  // Berth's own server does not serve the sandbox, and its page may frame only the sandbox's origin.
  expect((await fetch(new URL('/sandbox-proxy/index.html', berthUrl))).status).toBe(404);
  expect((await fetch(berthUrl)).headers.get('content-security-policy')).toContain(`frame-src ${sandboxOrigin};`);

  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  await expect(fetch(sandboxUrl)).rejects.toThrow();
});
