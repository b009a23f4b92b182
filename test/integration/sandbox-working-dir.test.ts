import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireSandboxRuntime, baseConfig, dangerousNamesSearchDepth } from '../../app/sandbox/sandbox-runtime';
import type { SandboxRuntime } from '../../app/sandbox/sandbox-runtime';
import { tempDir } from '../../app/servers/test-support';
import { sandboxSkipReason } from './sandbox-harness';

const skipReason = await sandboxSkipReason();
if (skipReason !== undefined) console.warn(`[sandbox-working-dir] skipped: ${skipReason}`);

/**
 * On Linux the runtime scans Berth's own working directory, on every wrap,
 * for names to deny for writes (.git/hooks, .bashrc, …). Berth may run from
 * `/` (a desktop launcher); at the runtime's default depth that scan walked
 * /proc and /sys until ripgrep was killed at 10 s, for each server start.
 * The runtime reads its config when it starts, so each test starts it after
 * moving to the directory it is about.
 */
describe.skipIf(skipReason !== undefined)("the sandbox's scan of Berth's working directory", () => {
  let runtime: SandboxRuntime | undefined;
  let dir: { path: string; cleanup(): Promise<void> };
  const startedIn = process.cwd();

  beforeEach(async () => {
    dir = await tempDir('berth-sandbox-cwd-');
  });

  afterEach(async () => {
    process.chdir(startedIn);
    await runtime?.release();
    await dir.cleanup();
  });

  async function startRuntimeIn(workingDirectory: string): Promise<SandboxRuntime> {
    process.chdir(workingDirectory);
    runtime = await acquireSandboxRuntime();
    return runtime;
  }

  const policy = (writable: string) => ({
    allowWrite: [writable],
    denyWrite: [],
    denyRead: [],
    allowRead: [],
    allowedDomains: [],
  });

  it("is shallow from a filesystem root and the runtime's default elsewhere, in the config every server is wrapped under", () => {
    expect(dangerousNamesSearchDepth('/')).toBe(1);
    expect(baseConfig('/').mandatoryDenySearchDepth).toBe(1);
    for (const elsewhere of ['/home/ann', '/srv/project', dir.path]) {
      expect(dangerousNamesSearchDepth(elsewhere)).toBeUndefined();
      expect(baseConfig(elsewhere)).not.toHaveProperty('mandatoryDenySearchDepth');
    }
  });

  it('wraps a server in moments when Berth runs from /', async () => {
    const started = performance.now();
    const wrapped = await (await startRuntimeIn('/')).wrap('exec /bin/true', policy(dir.path), undefined);
    wrapped.release();
    // ripgrep's own limit is 10 s; the default depth reached it here every time (10.5 s).
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('still denies writes to the hooks of a repository one level below the working directory', async () => {
    const repo = join(dir.path, 'project');
    await mkdir(join(repo, '.git', 'hooks'), { recursive: true });
    await writeFile(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const runtime = await startRuntimeIn(dir.path);
    const hook = join(repo, '.git', 'hooks', 'pre-commit');
    const fine = join(repo, 'notes.txt');
    const wrapped = await runtime.wrap(
      `echo planted > '${hook}'; echo written > '${fine}'`,
      policy(dir.path),
      undefined,
    );
    try {
      const run = spawnSync(wrapped.command, wrapped.args, {
        env: { ...process.env, SHLVL: '1' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(run.error).toBeUndefined();
    } finally {
      wrapped.release();
    }
    expect(existsSync(fine)).toBe(true);
    expect(existsSync(hook)).toBe(false);
  });
});
