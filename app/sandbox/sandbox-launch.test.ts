import { describe, expect, it } from 'vitest';
import { plainLaunch } from '../servers/server-launch';
import { serverConfig } from '../servers/test-support';
import { INNER_LINE } from './sandbox-env';
import { sandboxedBaseEnv, sandboxedLaunch } from './sandbox-launch';
import type { SandboxRuntime } from './sandbox-runtime';

/** The records a launch writes to fd 3, read back: its environment and its argv. */
function readRecords(input: Buffer): { env: Record<string, string>; argv: string[]; ended: boolean } {
  const records = input.toString('utf8').split('\0');
  expect(records.pop()).toBe('');
  const env: Record<string, string> = {};
  const argv: string[] = [];
  for (const record of records) {
    if (record.startsWith('E')) env[record.slice(1, record.indexOf('='))] = record.slice(record.indexOf('=') + 1);
    else if (record.startsWith('A')) argv.push(record.slice(1));
  }
  return { env, argv, ended: records.at(-1) === '.' };
}

const folders = { data: '/c/sandbox/fs/data', temp: '/c/sandbox/fs/tmp', cache: '/c/sandbox/fs/cache' };
const noPolicy = { allowWrite: [], denyWrite: [], denyRead: [], allowRead: [], allowedDomains: [] };

describe('sandboxedLaunch', () => {
  it('spawns the wrapper with a fixed clean environment and passes the server’s environment and command on fd 3, never on a command line', async () => {
    let wrappedLine = '';
    const runtime: SandboxRuntime = {
      wrap: async (line) => {
        wrappedLine = line;
        const args = [
          '-c',
          `bwrap --setenv SANDBOX_RUNTIME 1 --setenv TMPDIR /tmp/claude --setenv HTTP_PROXY 'http://srt.x:secret-proxy-token@localhost:3128' -- /usr/bin/bash -c ${line}`,
        ];
        return { command: '/bin/bash', args, commandId: 'id', release: () => undefined };
      },
      onViolation: () => () => undefined,
      release: async () => undefined,
    };
    const config = serverConfig({
      command: 'npx',
      args: ['-y', 'some pkg'],
      env: {
        TOKEN: 'config-secret-value',
        BASH_ENV: '$(touch /tmp/x)',
        LD_PRELOAD: '/evil.so',
        HTTP_PROXY: 'http://mine',
        UID: '0',
      },
    });
    const inherited = {
      PATH: '/login/bin:.',
      HOME: '/home/ann',
      LANG: 'C.UTF-8',
      TERM: 'xterm',
      GITHUB_TOKEN: 'gh-secret',
      NODE_OPTIONS: '--inspect',
      'BASH_FUNC_ls%%': '() {  ls --color; }',
    };
    const sandboxed = await sandboxedLaunch(runtime, plainLaunch(config, inherited), noPolicy, folders, '/login/bin:.');
    const { launch } = sandboxed;

    // The line given to the runtime is the same for every server: no config data in it, hence none in any argv.
    expect(wrappedLine).toBe(INNER_LINE);
    expect(launch.config).toMatchObject({ command: '/bin/bash' });
    const argv = [launch.config.command, ...launch.config.args].join(' ');
    for (const value of ['config-secret-value', '$(touch', '/evil.so', 'some pkg', 'npx', 'gh-secret'])
      expect(argv).not.toContain(value);

    // Outside the sandbox: only the fixed variables, PATH from system folders (not the login PATH with its '.').
    const outside = {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      SHLVL: '1',
      HOME: '/home/ann',
      LANG: 'C.UTF-8',
    };
    expect(launch.wrapper?.env).toEqual(outside);
    expect(launch.env).toEqual(outside);

    // Inside: inherited (without credentials) + config + Berth's fixed ones; the runtime's proxy variables are its own.
    const records = readRecords(launch.wrapper?.input ?? Buffer.alloc(0));
    expect(records.ended).toBe(true);
    expect(records.argv).toEqual(['npx', '-y', 'some pkg']);
    expect(records.env).toEqual({
      PATH: '/login/bin:.',
      HOME: '/home/ann',
      LANG: 'C.UTF-8',
      TERM: 'xterm',
      NODE_OPTIONS: '--inspect',
      TOKEN: 'config-secret-value',
      BASH_ENV: '$(touch /tmp/x)',
      LD_PRELOAD: '/evil.so',
      TMPDIR: '/c/sandbox/fs/tmp',
      SHLVL: '1',
      XDG_CACHE_HOME: '/c/sandbox/fs/cache',
      npm_config_cache: '/c/sandbox/fs/cache/npm',
      UV_CACHE_DIR: '/c/sandbox/fs/cache/uv',
      PIP_CACHE_DIR: '/c/sandbox/fs/cache/pip',
      NODE_USE_ENV_PROXY: '1',
    });
    // What is left out is said by name, never by value.
    expect(sandboxed.leftOut).toEqual([
      "Berth's environment has the variable BASH_FUNC_ls%%, which is left out of its environment in the sandbox: it is not a valid variable name (letters, digits and _, not starting with a digit)",
      'its config sets the variable HTTP_PROXY, which is left out of its environment in the sandbox: the sandbox sets it itself (its network proxy)',
      'its config sets the variable UID, which is left out of its environment in the sandbox: bash keeps it read-only',
    ]);
    // The config keeps its env: the log masks its secret values.
    expect(launch.config.env.TOKEN).toBe('config-secret-value');
    expect(launch.shownCommand).toBe('npx -y some pkg (in the sandbox)');
  });
});

describe('sandboxedBaseEnv', () => {
  it("drops the person's credentials and agent sockets from what a sandboxed server inherits, keeping the rest", () => {
    const inherited = {
      PATH: '/usr/bin',
      HOME: '/home/ann',
      LANG: 'C.UTF-8',
      AWS_SECRET_ACCESS_KEY: 'x',
      AWS_PROFILE: 'work',
      GITHUB_TOKEN: 'x',
      OPENAI_API_KEY: 'x',
      DB_PASSWORD: 'x',
      SSH_AUTH_SOCK: '/run/user/1000/ssh-agent.sock',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
      GOOGLE_APPLICATION_CREDENTIALS: '/home/ann/key.json',
    };
    expect(sandboxedBaseEnv(inherited)).toEqual({ PATH: '/usr/bin', HOME: '/home/ann', LANG: 'C.UTF-8' });
  });

  it("keeps what the server's own config sets: it is laid over the base", async () => {
    const runtime: SandboxRuntime = {
      wrap: async () => ({ command: '/bin/bash', args: ['-c', 'x'], commandId: 'id', release: () => undefined }),
      onViolation: () => () => undefined,
      release: async () => undefined,
    };
    const { launch } = await sandboxedLaunch(
      runtime,
      plainLaunch(serverConfig({ command: 'node', env: { GITHUB_TOKEN: 'its own' } }), {
        GITHUB_TOKEN: 'the person’s',
        PATH: '/usr/bin',
      }),
      noPolicy,
      folders,
    );
    const { env } = readRecords(launch.wrapper?.input ?? Buffer.alloc(0));
    expect(env.GITHUB_TOKEN).toBe('its own');
    expect(env.PATH).toBe('/usr/bin');
  });
});
