import { chmod, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoginShellEnvironment } from './login-env';
import { createLaunchPreparer } from './server-launch';
import { ServerSupervisor } from './supervisor';
import { LogCollector, StateRecorder, serverConfig, tempDir } from './test-support';

let dir: { path: string; cleanup: () => Promise<void> };
let supervisor: ServerSupervisor | undefined;

beforeEach(async () => {
  dir = await tempDir('berth-launch-');
});
afterEach(async () => {
  await supervisor?.shutdown();
  supervisor = undefined;
  await dir.cleanup();
});

async function fakeShell(body: string): Promise<string> {
  const path = join(dir.path, 'login-sh');
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

function supervise(baseEnv: NodeJS.ProcessEnv): { supervisor: ServerSupervisor; warnings: string[] } {
  const warnings: string[] = [];
  const loginEnv = new LoginShellEnvironment({ baseEnv, warn: (text) => warnings.push(text) });
  supervisor = new ServerSupervisor({
    logs: new LogCollector(),
    stateDir: dir.path,
    onState: new StateRecorder().onState,
    env: baseEnv,
    prepareLaunch: createLaunchPreparer({ launchEnv: () => loginEnv.get() }),
  });
  return { supervisor, warnings };
}

describe.runIf(process.platform !== 'win32')('a server whose command is not on PATH', () => {
  it('names the PATH searched and says the login shell PATH was in it', async () => {
    const shell = await fakeShell('echo "rc noise"\nPATH="/login/bin:/usr/bin"; export PATH\n/bin/sh -c "$2"');
    const { supervisor: running } = supervise({ SHELL: shell, PATH: ['/usr/bin', '/host/bin'].join(delimiter) });
    await running.sync({ s: serverConfig({ command: 'berth-no-such-command' }) });
    expect(running.get('s')).toMatchObject({
      status: 'error',
      reason: `command 'berth-no-such-command' not found on PATH (${['/login/bin', '/usr/bin', '/host/bin'].join(delimiter)}) — install it or use its full path. About that PATH: it includes the login shell's PATH (${shell} -il)`,
    });
  });

  it('says why the login shell PATH is missing when it could not be read', async () => {
    const shell = await fakeShell('exit 1');
    const { supervisor: running, warnings } = supervise({ SHELL: shell, PATH: '/usr/bin' });
    await running.sync({
      a: serverConfig({ command: 'berth-no-such-command' }),
      b: serverConfig({ command: 'berth-no-such-command' }),
    });
    expect(running.get('a')?.reason).toBe(
      `command 'berth-no-such-command' not found on PATH (/usr/bin) — install it or use its full path. About that PATH: the login shell's PATH could not be read (${shell} -ilc exited with code 1), so only Berth's own PATH was searched`,
    );
    expect(running.get('b')?.reason).toBe(running.get('a')?.reason);
    expect(warnings).toHaveLength(1);
  });

  it('says so when the server config sets PATH itself', async () => {
    const shell = await fakeShell('PATH=/login/bin; export PATH\n/bin/sh -c "$2"');
    const { supervisor: running } = supervise({ SHELL: shell, PATH: '/usr/bin' });
    await running.sync({ s: serverConfig({ command: 'berth-no-such-command', env: { PATH: '/only/mine' } }) });
    expect(running.get('s')?.reason).toBe(
      "command 'berth-no-such-command' not found on PATH (/only/mine) — install it or use its full path. About that PATH: the server's config sets PATH itself",
    );
  });
});

describe('not waiting for a slow login shell', () => {
  const never = (): Promise<never> => new Promise<never>(() => undefined);
  const base = (pathSource: string) => ({ env: { PATH: process.env.PATH ?? '' }, pathSource });

  it("starts at once with Berth's own environment when the command is found there, or for a remote server", async () => {
    const prepare = createLaunchPreparer({ launchEnv: never, settledLaunchEnv: () => undefined, baseLaunchEnv: base });
    const local = await prepare('node', serverConfig({ command: 'node' }));
    expect(local.env.PATH).toBe(process.env.PATH);
    const absolute = await prepare('abs', serverConfig({ command: process.execPath }));
    expect(absolute.env).toEqual({ PATH: process.env.PATH });
    const remote = await prepare('remote', serverConfig({ url: 'https://a.example/mcp' }));
    expect(remote.env).toEqual({ PATH: process.env.PATH });
  });

  it('waits for the login shell when the command is not found yet, and uses its answer once it is in', async () => {
    let answer: (env: { env: NodeJS.ProcessEnv; pathSource: string }) => void = () => undefined;
    const shell = new Promise<{ env: NodeJS.ProcessEnv; pathSource: string }>((resolve) => (answer = resolve));
    const known: { settled?: { env: NodeJS.ProcessEnv; pathSource: string } } = {};
    const prepare = createLaunchPreparer({
      launchEnv: () => shell,
      settledLaunchEnv: () => known.settled,
      baseLaunchEnv: base,
    });
    let done = false;
    const waiting = prepare('x', serverConfig({ command: 'definitely-not-on-path-berth' })).then((launch) => {
      done = true;
      return launch;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(done).toBe(false);
    known.settled = {
      env: { PATH: `/login/bin${delimiter}${process.env.PATH ?? ''}` },
      pathSource: "it includes the login shell's PATH",
    };
    answer(known.settled);
    expect((await waiting).env.PATH).toMatch(/^\/login\/bin/);
    // Once the shell has answered, every start uses its environment, found or not.
    expect((await prepare('node', serverConfig({ command: 'node' }))).env.PATH).toMatch(/^\/login\/bin/);
  });

  it('finds commands the way spawn would', async () => {
    const { commandFound } = await import('./server-launch');
    const bin = join(dir.path, 'tool');
    await writeFile(bin, '#!/bin/sh\n');
    expect(await commandFound('tool', dir.path)).toBe(false);
    await chmod(bin, 0o755);
    expect(await commandFound('tool', `/nowhere${delimiter}${dir.path}`)).toBe(true);
    expect(await commandFound('./tool', undefined, dir.path)).toBe(true);
    expect(await commandFound('tool', undefined)).toBe(false);
  });
});
