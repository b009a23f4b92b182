import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * scripts/start.mjs in a throwaway project whose `npm run build` writes tiny
 * stand-ins for the real outputs: a browser-mode entry that prints its
 * arguments and exits 0 on SIGTERM, and (optionally) a fake Electron binary.
 */
const repoRoot = resolve(import.meta.dirname, '..', '..');

const FAKE_BUILD = `
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
appendFileSync('builds.txt', 'b');
for (const dir of ['dist/app', 'dist/renderer', 'dist/sandbox-proxy', 'dist/main', 'dist/preload']) mkdirSync(dir, { recursive: true });
writeFileSync('dist/renderer/index.html', '<p>ui</p>');
writeFileSync('dist/sandbox-proxy/index.html', '<p>app sandbox</p>');
writeFileSync('dist/main/index.cjs', '');
writeFileSync('dist/preload/index.cjs', '');
writeFileSync('dist/app/browser-mode.mjs', \`
// The handler goes in before READY is announced: the test signals as soon as it reads READY.
const keepAlive = setInterval(() => {}, 1000);
process.on('SIGTERM', () => { process.stderr.write('GOT SIGTERM\\\\n'); clearInterval(keepAlive); process.exitCode = 0; });
process.stdout.write('READY ' + JSON.stringify(process.argv.slice(2)) + '\\\\n');
\`);
`;

let project: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'berth-start-'));
  await mkdir(join(project, 'scripts'));
  await mkdir(join(project, 'app'));
  await mkdir(join(project, 'node_modules'));
  for (const script of ['setup.mjs', 'start.mjs'])
    await copyFile(join(repoRoot, 'scripts', script), join(project, 'scripts', script));
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'fake-berth', private: true, type: 'module', scripts: { build: 'node build.mjs' } }),
  );
  const lock = JSON.stringify({
    name: 'fake-berth',
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: 'fake-berth' } },
  });
  await writeFile(join(project, 'package-lock.json'), lock);
  // Set-up is already done for this lockfile, so start.mjs goes straight on.
  await writeFile(join(project, 'node_modules', '.berth-setup-stamp'), createHash('sha256').update(lock).digest('hex'));
  await writeFile(join(project, 'build.mjs'), FAKE_BUILD);
  await writeFile(join(project, 'app', 'host.ts'), 'export {};\n');
});

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(project, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  out(): string;
  err(): string;
  exited: Promise<number | null>;
}

function start(args: string[], env: Record<string, string> = {}): Run {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!('DISPLAY' in env)) {
    delete childEnv.DISPLAY;
    delete childEnv.WAYLAND_DISPLAY;
  }
  const child = spawn(process.execPath, [join(project, 'scripts', 'start.mjs'), ...args], {
    cwd: project,
    env: childEnv,
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  return { child, out: () => out, err: () => err, exited };
}

async function until(condition: () => boolean, what: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what()}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
}

const builds = async (): Promise<string> => readFile(join(project, 'builds.txt'), 'utf8').catch(() => '');

describe('scripts/start.mjs', () => {
  it('builds when needed, runs browser mode with the arguments, and passes SIGTERM on', async () => {
    const run = start(['--headless', '--port', '4000']);
    await until(
      () => run.out().includes('READY'),
      () => run.err(),
    );
    expect(run.out()).toBe('READY ["--headless","--port","4000"]\n');
    expect(run.err()).toContain('Building Berth (dist/app/browser-mode.mjs is missing)');
    expect(run.err()).toContain('Berth is starting in browser mode (--headless asks for no window)');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.err()).toContain('GOT SIGTERM');
    expect(await builds()).toBe('b');

    // Up to date: no second build.
    const again = start([]);
    await until(
      () => again.out().includes('READY'),
      () => again.err(),
    );
    expect(again.err()).not.toContain('Building');
    expect(again.err()).toContain('the Electron binary is not installed');
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(await builds()).toBe('b');

    // A source newer than the outputs triggers a rebuild.
    const future = new Date(Date.now() + 60_000);
    await utimes(join(project, 'app', 'host.ts'), future, future);
    const rebuilt = start([]);
    await until(
      () => rebuilt.out().includes('READY'),
      () => rebuilt.err(),
    );
    expect(rebuilt.err()).toContain('sources changed since the last build');
    rebuilt.child.kill('SIGTERM');
    expect(await rebuilt.exited).toBe(0);
    expect(await builds()).toBe('bb');

    // A dist from before the MCP Apps sandbox existed (no dist/sandbox-proxy) is rebuilt.
    await rm(join(project, 'dist', 'sandbox-proxy'), { recursive: true });
    const withoutSandbox = start([]);
    await until(
      () => withoutSandbox.out().includes('READY'),
      () => withoutSandbox.err(),
    );
    expect(withoutSandbox.err()).toContain('dist/sandbox-proxy/index.html is missing');
    withoutSandbox.child.kill('SIGTERM');
    expect(await withoutSandbox.exited).toBe(0);
    expect(await builds()).toBe('bbb');
  });

  it('exits with the build failure instead of starting a stale Berth', async () => {
    await writeFile(join(project, 'build.mjs'), "console.error('BUILD-BROKE'); process.exit(4);\n");
    const run = start([]);
    expect(await run.exited).toBe(4);
    expect(run.err()).toContain('BUILD-BROKE');
    expect(run.out()).not.toContain('READY');
  });

  it.skipIf(process.platform === 'win32')(
    'launches Electron on the project root (package.json main: dist/main/index.cjs) when its binary is usable',
    async () => {
      const electronDir = join(project, 'node_modules', 'electron');
      await mkdir(join(electronDir, 'dist'), { recursive: true });
      await writeFile(join(electronDir, 'path.txt'), 'electron');
      await writeFile(join(electronDir, 'dist', 'electron'), '#!/bin/sh\necho "ELECTRON $*"\nexit 7\n');
      await chmod(join(electronDir, 'dist', 'electron'), 0o755);

      const run = start(['--some-flag'], { DISPLAY: ':99' });
      expect(await run.exited).toBe(7);
      expect(run.out()).toBe(`ELECTRON ${project} --some-flag\n`);

      // A path.txt naming a missing binary means no Electron.
      await rm(join(electronDir, 'dist', 'electron'));
      const browser = start([], { DISPLAY: ':99' });
      await until(
        () => browser.out().includes('READY'),
        () => browser.err(),
      );
      expect(browser.err()).toContain('the Electron binary is not installed');
      browser.child.kill('SIGTERM');
      expect(await browser.exited).toBe(0);
    },
  );
});
