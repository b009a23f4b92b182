import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * scripts/setup.mjs in a throwaway project, offline. Two stand-ins for
 * Electron's download: a root `postinstall` (older Electrons downloaded in
 * postinstall) and a local `electron` package whose install.js fails (current
 * Electrons download lazily through install.js).
 */
const repoRoot = resolve(import.meta.dirname, '..', '..');
const NOTICE =
  "Electron's binary could not be downloaded; continuing with ELECTRON_SKIP_BINARY_DOWNLOAD=1 — Berth will run in browser mode.";

let project: string;

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'berth-setup-'));
  await mkdir(join(project, 'scripts'));
  await copyFile(join(repoRoot, 'scripts', 'setup.mjs'), join(project, 'scripts', 'setup.mjs'));
});

afterEach(async () => {
  await rm(project, { recursive: true, force: true });
});

async function writeProject(postinstall?: string, options: { electronInstallExit?: number } = {}): Promise<void> {
  const dependencies: Record<string, string> = {};
  if (options.electronInstallExit !== undefined) {
    const fake = join(project, 'fake-electron');
    await mkdir(fake);
    await writeFile(join(fake, 'package.json'), JSON.stringify({ name: 'electron', version: '0.0.0-fake' }));
    // Succeeds by writing path.txt and the binary it names, or fails like an unreachable download host.
    await writeFile(
      join(fake, 'install.js'),
      options.electronInstallExit === 0
        ? `const fs = require('fs'); fs.mkdirSync(__dirname + '/dist', { recursive: true }); fs.writeFileSync(__dirname + '/dist/electron', ''); fs.writeFileSync(__dirname + '/path.txt', 'electron');`
        : `console.error('getaddrinfo ENOTFOUND'); process.exit(${options.electronInstallExit});`,
    );
    dependencies.electron = 'file:./fake-electron';
  }
  const manifest = {
    name: 'fake-berth',
    version: '1.0.0',
    private: true,
    dependencies,
    ...(postinstall ? { scripts: { postinstall } } : {}),
  };
  await writeFile(join(project, 'package.json'), JSON.stringify(manifest, null, 2));
}

function runSetup(
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  // The test runner itself may run under ELECTRON_SKIP_BINARY_DOWNLOAD; start from a clean slate unless asked.
  if (!('ELECTRON_SKIP_BINARY_DOWNLOAD' in env)) delete childEnv.ELECTRON_SKIP_BINARY_DOWNLOAD;
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(process.execPath, [join(project, 'scripts', 'setup.mjs')], {
      cwd: project,
      env: childEnv as NodeJS.ProcessEnv,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', rejectRun);
    child.once('exit', (code) => resolveRun({ code, stdout, stderr }));
  });
}

const sha256 = async (path: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
const stampPath = (): string => join(project, 'node_modules', '.berth-setup-stamp');
const stampText = async (): Promise<string | undefined> => readFile(stampPath(), 'utf8').catch(() => undefined);
/** The stamp's first line: the lockfile hash. */
const stamp = async (): Promise<string | undefined> => (await stampText())?.split('\n')[0]?.trim();

describe('scripts/setup.mjs', () => {
  it('installs, stamps the lockfile hash, and does nothing the second time', async () => {
    await writeProject(`node -e "require('fs').appendFileSync('installs.txt', 'x')"`);
    const first = await runSetup();
    expect(first.code).toBe(0);
    expect(await stamp()).toBe(await sha256(join(project, 'package-lock.json')));
    expect(first.stdout).toBe('');

    const second = await runSetup();
    expect(second.code).toBe(0);
    expect(second.stderr).toBe('');
    expect(await readFile(join(project, 'installs.txt'), 'utf8')).toBe('x');

    // A changed lockfile means a fresh install (npm ci this time).
    const lock = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(project, 'package-lock.json'), JSON.stringify({ ...lock, version: '1.0.0' }, null, 2));
    const third = await runSetup();
    expect(third.code).toBe(0);
    expect(third.stderr).toContain('npm ci');
    expect(await readFile(join(project, 'installs.txt'), 'utf8')).toBe('xx');
    expect(await stamp()).toBe(await sha256(join(project, 'package-lock.json')));
  });

  it('falls back to ELECTRON_SKIP_BINARY_DOWNLOAD with one line when the first install fails', async () => {
    await writeProject(`node -e "process.exit(process.env.ELECTRON_SKIP_BINARY_DOWNLOAD ? 0 : 1)"`);
    const result = await runSetup();
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line === NOTICE)).toHaveLength(1);
    expect(await stamp()).toBe(await sha256(join(project, 'package-lock.json')));
  });

  it('exits non-zero with npm output and no stamp when the retry fails too', async () => {
    await writeProject(`node -e "console.error('POSTINSTALL-BROKE'); process.exit(3)"`);
    const result = await runSetup();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(NOTICE);
    expect(result.stderr).toContain('POSTINSTALL-BROKE');
    expect(await stamp()).toBeUndefined();
  });

  it('does not retry when ELECTRON_SKIP_BINARY_DOWNLOAD is already set', async () => {
    await writeProject(`node -e "console.error('POSTINSTALL-BROKE'); process.exit(3)"`);
    const result = await runSetup({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).not.toContain(NOTICE);
    expect(result.stderr).toContain('POSTINSTALL-BROKE');
    expect(await stamp()).toBeUndefined();
  });

  it("fetches Electron's lazily downloaded binary once, and falls back with one line when it cannot", async () => {
    await writeProject(undefined, { electronInstallExit: 1 });
    const result = await runSetup();
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line === NOTICE)).toHaveLength(1);
    expect(await stampText()).toContain('electron=unavailable');
    // Stamped: the next run neither installs nor retries the download.
    const again = await runSetup();
    expect(again.stderr).toBe('');
  });

  it('records an Electron binary that downloads, and skips the download when told to', async () => {
    await writeProject(undefined, { electronInstallExit: 0 });
    const ok = await runSetup();
    expect(ok.code).toBe(0);
    expect(ok.stderr).not.toContain(NOTICE);
    expect(await stampText()).toContain('electron=available');

    await rm(join(project, 'node_modules'), { recursive: true, force: true });
    await writeProject(undefined, { electronInstallExit: 1 }).catch(() => undefined);
    const skipped = await runSetup({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).not.toContain(NOTICE);
    expect(await stampText()).toContain('electron=skipped');
  });
});
