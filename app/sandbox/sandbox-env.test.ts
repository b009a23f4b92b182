import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { INNER_LINE, launchRecords, runtimeSetNames, unpassableReason, wrapperEnv, wrapperPath } from './sandbox-env';

/** Runs the inner line in a real bash (no sandbox) with `input` on its fd 3, as the sandbox's last shell does. */
function runInner(input: Buffer): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('/bin/bash', ['-c', INNER_LINE], {
    env: { PATH: '/usr/bin:/bin', SHLVL: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  (child.stdio[3] as Writable).end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const PRINT_ENV = [
  process.execPath,
  '-e',
  'process.stdout.write(JSON.stringify({ env: process.env, argv: process.argv.slice(1) }))',
];

describe('the inner line', () => {
  it('gives the command every value byte for byte, and its argv in order', async () => {
    const tricky = `a b  'single' "double" $(touch /tmp/berth-never) \`id\` \\back ; & | * ?\nsecond line\ttab é 日本 🚀 =after= `;
    // A locale switched to UTF-8 half-way (LC_ALL is exported before TRICKY) changes nothing of the bytes.
    const env = { PATH: '/usr/bin:/bin', LC_ALL: 'C.UTF-8', TRICKY: tricky, EMPTY: '', LD_PRELOAD: '' };
    const result = await runInner(launchRecords(env, [...PRINT_ENV, tricky, '', 'last']));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as { env: Record<string, string>; argv: string[] };
    expect(printed.env.TRICKY).toBe(tricky);
    expect(printed.env.EMPTY).toBe('');
    expect(printed.argv).toEqual([tricky, '', 'last']);
    // Its own loop variables do not reach the server.
    expect(Object.keys(printed.env).filter((name) => name.startsWith('_berth'))).toEqual([]);
  });

  it('closes fd 3 before the server runs', async () => {
    const result = await runInner(
      launchRecords({ PATH: '/usr/bin:/bin' }, [
        '/bin/sh',
        '-c',
        'if [ -e /proc/self/fd/3 ]; then echo open; else echo closed; fi',
      ]),
    );
    expect(result.stdout).toBe('closed\n');
  });

  it('names a variable bash refuses on stderr, never its value, and still starts', async () => {
    const result = await runInner(
      launchRecords({ PATH: '/usr/bin:/bin', UID: 'value-of-uid', 'NOT-A-NAME': 'value-of-bad' }, [
        '/bin/echo',
        'started',
      ]),
    );
    expect(result.stdout).toBe('started\n');
    expect(result.stderr).toContain('berth: the variable UID could not be set in the sandbox; left out');
    expect(result.stderr).toContain('berth: the variable NOT-A-NAME could not be set in the sandbox; left out');
    expect(result.stderr).not.toContain('value-of');
  });

  it('starts nothing when the records are cut short', async () => {
    const whole = launchRecords({ PATH: '/usr/bin:/bin' }, ['/bin/echo', 'started']);
    const result = await runInner(whole.subarray(0, whole.length - 2));
    expect(result.code).toBe(70);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('did not receive its environment and command from Berth; not starting it');
  });
});

describe('the environment outside the sandbox', () => {
  it("keeps only PATH (system folders), SHLVL, HOME and the locale of Berth's environment", () => {
    const env = wrapperEnv(
      {
        HOME: '/home/ann',
        LANG: 'C.UTF-8',
        LC_ALL: 'C.UTF-8',
        BASH_ENV: '/x',
        LD_PRELOAD: '/y.so',
        TERM: 'xterm',
        GITHUB_TOKEN: 'z',
        PATH: '/home/ann/bin',
      },
      '/usr/bin:/bin',
    );
    expect(env).toEqual({ PATH: '/usr/bin:/bin', SHLVL: '1', HOME: '/home/ann', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' });
  });

  it("never takes a relative or unneeded folder of Berth's PATH", async () => {
    const path = await wrapperPath('.:relative/bin:/tmp/some-folder');
    expect(path.split(':').slice(0, 6)).toEqual([
      '/usr/local/sbin',
      '/usr/local/bin',
      '/usr/sbin',
      '/usr/bin',
      '/sbin',
      '/bin',
    ]);
    expect(path.split(':')).not.toContain('.');
    expect(path).not.toContain('relative');
    expect(path).not.toContain('/tmp/some-folder');
  });
});

describe('runtimeSetNames', () => {
  it("reads the names the runtime sets with bwrap's --setenv", () => {
    const names = runtimeSetNames([
      '-c',
      "bwrap --new-session --setenv SANDBOX_RUNTIME 1 --setenv HTTP_PROXY 'http://u:p@localhost:3128' --ro-bind / / -- /usr/bin/bash -c x",
    ]);
    expect([...names]).toEqual(['SANDBOX_RUNTIME', 'HTTP_PROXY']);
  });

  it('reads the names the runtime sets on macOS with env before sandbox-exec, not those of the line it runs', () => {
    const names = runtimeSetNames([
      '-c',
      `env -u AWS_KEY HTTP_PROXY=http://u:p@localhost:3128 'NO_PROXY=localhost,127.0.0.1' /usr/bin/sandbox-exec -p '(version 1)' /bin/bash -c 'LATER=x; exec "$@"'`,
    ]);
    expect([...names]).toEqual(['HTTP_PROXY', 'NO_PROXY']);
  });
});

describe('unpassableReason', () => {
  it('refuses what the inner line could not set, and passes ordinary names', () => {
    expect(unpassableReason('PATH', '/usr/bin')).toBeUndefined();
    expect(unpassableReason('_private', 'x')).toBeUndefined();
    expect(unpassableReason('BASH_FUNC_ls%%', '() { :; }')).toMatch(/not a valid variable name/);
    expect(unpassableReason('1X', 'x')).toMatch(/not a valid variable name/);
    expect(unpassableReason('SHELLOPTS', 'x')).toMatch(/read-only/);
    expect(unpassableReason('_berth_ok', '1')).toMatch(/_berth_/);
  });
});
