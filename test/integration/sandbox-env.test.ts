import { randomBytes } from 'node:crypto';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxedBaseEnv } from '../../app/sandbox/sandbox-launch';
import { serverFolders } from '../../app/sandbox/sandbox-folders';
import { fixtureConfig } from '../../app/servers/test-support';
import { pidsWithMarker, sandboxSkipReason, startSandboxRig, type SandboxRig } from './sandbox-harness';
import { markerTraces, plantEnvMarkers, treeByNamespace } from './sandbox-markers';

const skipReason = await sandboxSkipReason();
if (skipReason !== undefined) console.warn(`[sandbox-env] skipped: ${skipReason}`);

/** Credentials in Berth's own environment (the shell that started it). */
const HOSTILE_ENV = {
  GITHUB_TOKEN: 'ghp_berth_hostile_1',
  SOME_PASSWORD: 'berth-hostile-2',
  ANTHROPIC_API_KEY: 'sk-ant-berth-hostile-3',
  AWS_SECRET_ACCESS_KEY: 'berth-hostile-4',
};

/** A configured value no quoting may change: spaces, both quotes, `$()`, backticks, a newline, a tab, non-ASCII. */
const TRICKY = `a b  'single' "double" $(touch /tmp/berth-never) \`id\` \\back ;|&\nsecond line\ttab é 日本 🚀 =x=`;

/** Variables the runtime sets inside (its proxies), and those bash sets for what it execs. */
const RUNTIME_OR_BASH =
  /PROXY|^SANDBOX_RUNTIME$|^GIT_CONFIG_PARAMETERS$|^GIT_SSH_COMMAND$|^CLOUDSDK_PROXY_|^JAVA_TOOL_OPTIONS$|^CLAUDE_CODE_HOST_|^PWD$|^OLDPWD$|^_$/i;

/** A configured value to look for on command lines. */
const CONFIG_MARK = `berth-config-value-${randomBytes(6).toString('hex')}`;

async function findAsync<T>(items: readonly T[], test: (item: T) => Promise<boolean>): Promise<T | undefined> {
  for (const item of items) if (await test(item).catch(() => false)) return item;
  return undefined;
}

interface Report {
  env: Record<string, string>;
  pid: number;
}

describe.skipIf(skipReason !== undefined)("a sandboxed server's environment", () => {
  let rig: SandboxRig;
  const saved: Record<string, string | undefined> = {};

  beforeEach(async () => {
    // Set in the test process itself: what the runtime's wrap returned as `env` was exactly this process's environment.
    for (const [name, value] of Object.entries(HOSTILE_ENV)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    saved.BERTH_TEST_INHERITED = process.env.BERTH_TEST_INHERITED;
    process.env.BERTH_TEST_INHERITED = 'inherited and harmless';
    rig = await startSandboxRig();
    await rig.setSandbox('probe', { enabled: true });
  });

  afterEach(async () => {
    await rig.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  const hostLinesOf = (server: string): string[] => rig.logs.texts(server, 'host');
  const report = async (): Promise<Report> => JSON.parse((await rig.callText('probe', 'report', {})).text) as Report;

  it("holds no credential of Berth's, the configured env byte for byte, and the sandbox's proxy settings", async () => {
    await rig.sync({
      probe: fixtureConfig('env-probe.mjs', {
        env: { CONFIGURED: TRICKY, GITHUB_TOKEN_OF_ITS_OWN: CONFIG_MARK, UID: 'config-uid' },
      }),
    });
    const { env } = await report();

    // Its configured values are on no command line (argv is readable by every local user), the wrapper's included.
    expect(await pidsWithMarker(CONFIG_MARK)).toEqual([]);
    // The pipe they came through (a socket on the wrapper's fd 3) is not open in the server: no socket beyond its stdio.
    const spawned = rig.supervisor.get('probe')?.pid as number;
    const { inside } = await treeByNamespace(spawned);
    const server = await findAsync(inside, async (pid) =>
      (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('env-probe.mjs'),
    );
    expect(server).toBeDefined();
    const fds = await readdir(`/proc/${server as number}/fd`);
    const sockets = (
      await Promise.all(
        fds.map(async (fd) => ({ fd, link: await readlink(`/proc/${server as number}/fd/${fd}`).catch(() => '') })),
      )
    ).filter(({ link }) => link.startsWith('socket:'));
    expect(sockets.map(({ fd }) => fd).filter((fd) => !['0', '1', '2'].includes(fd))).toEqual([]);

    for (const [name, value] of Object.entries(HOSTILE_ENV)) {
      expect(env[name], name).toBeUndefined();
      expect(Object.values(env).join('\n')).not.toContain(value);
    }
    expect(env.CONFIGURED).toBe(TRICKY);
    expect(env.GITHUB_TOKEN_OF_ITS_OWN).toBe(CONFIG_MARK);
    expect(env.BERTH_TEST_INHERITED).toBe('inherited and harmless');
    expect(env.HTTP_PROXY).toMatch(/^http:\/\/.+@localhost:\d+$/);
    expect(env.HTTPS_PROXY).toBe(env.HTTP_PROXY);
    expect(env.SANDBOX_RUNTIME).toBe('1');
    expect(env.TMPDIR).toBe(serverFolders(rig.configDir, 'probe').temp);
    expect(env.NODE_USE_ENV_PROXY).toBe('1');

    // Exactly: Berth's filtered env, the config's, Berth's fixed ones, the runtime's proxies; nothing else.
    const inherited = sandboxedBaseEnv({ ...process.env, HOME: rig.home });
    const fixed = [
      'TMPDIR',
      'SHLVL',
      'XDG_CACHE_HOME',
      'npm_config_cache',
      'UV_CACHE_DIR',
      'PIP_CACHE_DIR',
      'NODE_USE_ENV_PROXY',
    ];
    const unexplained = Object.keys(env).filter(
      (name) =>
        !(name in inherited) &&
        !['CONFIGURED', 'GITHUB_TOKEN_OF_ITS_OWN', ...fixed].includes(name) &&
        !RUNTIME_OR_BASH.test(name),
    );
    expect(unexplained).toEqual([]);

    // A variable bash keeps read-only is left out, named in its log (not its value), and does not stop the start.
    expect(env.UID).toBeUndefined();
    expect(hostLinesOf('probe')).toContain(
      'its config sets the variable UID, which is left out of its environment in the sandbox: bash keeps it read-only',
    );
    expect(rig.logs.texts('probe').join('\n')).not.toContain('config-uid');

    // The log shows the server's own command, never the wrapper (the proxy's credentials are in it).
    const hostLines = rig.logs.texts('probe', 'host');
    expect(hostLines.some((text) => /^spawned pid \d+: .*env-probe\.mjs \(in the sandbox\)$/.test(text))).toBe(true);
    expect(hostLines.join('\n')).not.toMatch(/bwrap|srt\.|localhost:3128/);
  }, 60_000);

  it('runs nothing of its configured env outside the sandbox: BASH_ENV, ENV, LD_PRELOAD, LD_LIBRARY_PATH, NODE_OPTIONS, PYTHONSTARTUP', async () => {
    // Markers in a folder the sandbox cannot write: a file appearing there was made outside it.
    const markers = await plantEnvMarkers(rig.dir);
    const config = fixtureConfig('env-probe.mjs', { env: markers.env });
    await rig.sync({ probe: config });
    const { env } = await report();

    const spawned = rig.supervisor.get('probe')?.pid;
    expect(spawned).toBeGreaterThan(0);
    const traces = await markerTraces(markers, spawned as number);
    // Nothing fired outside the sandbox (the wrapper's processes were looked at)…
    expect(traces.fired).toEqual([]);
    expect(traces.outsideLoaded).toEqual([]);
    expect(traces.outsideCount).toBeGreaterThan(0);
    // …and all of it reached the server, inside.
    expect(env).toMatchObject(markers.env);
    expect(traces.insideLoaded).toBe(true);
    expect(rig.logs.texts('probe', 'stderr')).toContain('node-options marker ran');
  }, 60_000);
});
