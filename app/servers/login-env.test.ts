import { chmod, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoginShellEnvironment, mergePathLists, readLoginShellPath } from './login-env';
import { isProcessAlive } from './process-tree';
import { tempDir, waitUntil } from './test-support';

const posix = process.platform !== 'win32';

let dir: { path: string; cleanup: () => Promise<void> };

beforeEach(async () => {
  dir = await tempDir('berth-login-env-');
});
afterEach(async () => {
  await dir.cleanup();
});

/** A real executable standing in for the person's shell: Berth runs it as `<shell> -ilc <script>`. */
async function fakeShell(name: string, body: string): Promise<string> {
  const path = join(dir.path, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

/** Prints rc noise around what the script prints, as zsh/bash startup files do, and runs the script with a login PATH. */
const NOISY_LOGIN_SHELL = [
  '[ "$1" = "-ilc" ] || { echo "expected -ilc, got $1" >&2; exit 9; }',
  'echo "Welcome back! PATH=/not/this/one"',
  'printf "nvm: using node v22 "',
  'echo "a warning on stderr" >&2',
  'PATH="/login/bin:/opt/homebrew/bin:/usr/bin"; export PATH',
  '/bin/sh -c "$2"',
  'echo "goodbye from .zlogout"',
].join('\n');

describe.runIf(posix)('readLoginShellPath', () => {
  it('reads PATH between the markers and ignores whatever the rc files print', async () => {
    const shell = await fakeShell('noisy-sh', NOISY_LOGIN_SHELL);
    const result = await readLoginShellPath({ shell, env: { PATH: '/usr/bin:/bin' } });
    expect(result).toEqual({ ok: true, shell, path: '/login/bin:/opt/homebrew/bin:/usr/bin' });
  });

  it('does not wait for a daemon the rc files started that keeps the pipes open', async () => {
    const pidFile = join(dir.path, 'daemon.pid');
    const shell = await fakeShell('agent-sh', `sleep 30 &\necho $! > '${pidFile}'\n${NOISY_LOGIN_SHELL}`);
    try {
      const started = Date.now();
      const result = await readLoginShellPath({ shell, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 4_000 });
      expect(result).toEqual({ ok: true, shell, path: '/login/bin:/opt/homebrew/bin:/usr/bin' });
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      process.kill(Number((await readFile(pidFile, 'utf8')).trim()), 'SIGKILL');
    }
  });

  it('gives up on a shell that hangs, and kills it with what it started', async () => {
    const pidFile = join(dir.path, 'child.pid');
    const shell = await fakeShell('hanging-sh', `sleep 30 &\necho $! > '${pidFile}'\nwait`);
    const started = Date.now();
    const result = await readLoginShellPath({ shell, env: { PATH: process.env.PATH ?? '' }, timeoutMs: 400 });
    expect(result).toEqual({
      ok: false,
      shell,
      reason: `${shell} -ilc did not finish within 0.4 s; something in its startup files waits`,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    const child = Number((await readFile(pidFile, 'utf8')).trim());
    await waitUntil(() => !isProcessAlive(child), 5_000, 'the shell’s child to be killed');
  });

  it('reports a shell that exits with an error, with its last stderr line', async () => {
    const shell = await fakeShell('failing-sh', 'echo "zshrc:12: command not found: compinit" >&2\nexit 1');
    const result = await readLoginShellPath({ shell, env: {} });
    expect(result).toEqual({
      ok: false,
      shell,
      reason: `${shell} -ilc exited with code 1 (zshrc:12: command not found: compinit)`,
    });
  });

  it('reports a shell that prints no PATH, a missing shell, and no $SHELL at all', async () => {
    const silent = await fakeShell('silent-sh', 'echo "just noise"');
    expect(await readLoginShellPath({ shell: silent, env: {} })).toEqual({
      ok: false,
      shell: silent,
      reason: `${silent} -ilc printed no PATH`,
    });
    const missing = join(dir.path, 'no-such-shell');
    const result = await readLoginShellPath({ shell: missing, env: {} });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(new RegExp(`^could not run ${missing}: .*ENOENT`));
    expect(await readLoginShellPath({ shell: undefined, env: {} })).toEqual({ ok: false, reason: '$SHELL is not set' });
  });
});

describe('mergePathLists', () => {
  it('puts the login entries first, then the host entries it lacks, without duplicates or empty entries', () => {
    expect(mergePathLists('/login/bin:/usr/bin::/bin', '/usr/bin:/host/bin:/login/bin:', ':')).toBe(
      '/login/bin:/usr/bin:/bin:/host/bin',
    );
    expect(mergePathLists('/a:/a', undefined, ':')).toBe('/a');
    expect(mergePathLists(undefined, '/h', ':')).toBe('/h');
    expect(mergePathLists('C:\\Tools;C:\\Windows', 'C:\\Windows;D:\\bin', ';')).toBe('C:\\Tools;C:\\Windows;D:\\bin');
  });
});

describe.runIf(posix)('LoginShellEnvironment', () => {
  it('merges the login PATH in front of the host PATH and asks the shell only once', async () => {
    const countFile = join(dir.path, 'runs');
    const shell = await fakeShell('counting-sh', `echo run >> '${countFile}'\n${NOISY_LOGIN_SHELL}`);
    const warnings: string[] = [];
    const env = new LoginShellEnvironment({
      baseEnv: { SHELL: shell, PATH: ['/usr/bin', '/host/bin'].join(delimiter), KEEP: 'me' },
      warn: (text) => warnings.push(text),
    });
    const [first, second] = await Promise.all([env.get(), env.get()]);
    expect(second).toBe(first);
    expect(first.env).toEqual({
      SHELL: shell,
      KEEP: 'me',
      PATH: ['/login/bin', '/opt/homebrew/bin', '/usr/bin', '/host/bin'].join(delimiter),
    });
    expect(first.pathSource).toBe(`it includes the login shell's PATH (${shell} -il)`);
    await env.get();
    expect((await readFile(countFile, 'utf8')).trim().split('\n')).toEqual(['run']);
    expect(warnings).toEqual([]);
  });

  it('falls back to the host environment with one warning when the shell fails', async () => {
    const shell = await fakeShell('failing-sh', 'exit 1');
    const warnings: string[] = [];
    const baseEnv = { SHELL: shell, PATH: '/usr/bin' };
    const env = new LoginShellEnvironment({ baseEnv, warn: (text) => warnings.push(text) });
    const launch = await env.get();
    await env.get();
    expect(launch.env).toBe(baseEnv);
    expect(launch.pathSource).toBe(
      `the login shell's PATH could not be read (${shell} -ilc exited with code 1), so only Berth's own PATH was searched`,
    );
    expect(warnings).toEqual([
      `could not read the login shell's PATH (${shell} -ilc exited with code 1); servers are started with Berth's own PATH`,
    ]);
  });

  it('never runs a shell on Windows', async () => {
    const ranFile = join(dir.path, 'ran');
    const shell = await fakeShell('marking-sh', `touch '${ranFile}'\n${NOISY_LOGIN_SHELL}`);
    const baseEnv = { SHELL: shell, PATH: 'C:\\Windows' };
    const launch = await new LoginShellEnvironment({ baseEnv, platform: 'win32', warn: () => undefined }).get();
    expect(launch.env).toBe(baseEnv);
    await expect(readFile(ranFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('kills a shell still running when the host closes it, without a warning', async () => {
    const shell = await fakeShell('slow-sh', 'sleep 30');
    const warnings: string[] = [];
    const env = new LoginShellEnvironment({
      baseEnv: { SHELL: shell, PATH: '/usr/bin' },
      warn: (text) => warnings.push(text),
    });
    const pending = env.get();
    env.close();
    expect((await pending).pathSource).toMatch(/Berth is shutting down/);
    expect(warnings).toEqual([]);
  });
});
