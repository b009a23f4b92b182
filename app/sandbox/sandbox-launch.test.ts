import { describe, expect, it } from 'vitest';
import { plainLaunch } from '../servers/server-launch';
import { serverConfig } from '../servers/test-support';
import { sandboxedBaseEnv, sandboxedLaunch, shellQuote } from './sandbox-launch';
import type { SandboxRuntime } from './sandbox-runtime';

describe('shellQuote', () => {
  it('leaves plain words and quotes everything else so the shell reads it back unchanged', () => {
    expect(shellQuote('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's $HOME; rm -rf /")).toBe(`'it'\\''s $HOME; rm -rf /'`);
    expect(shellQuote('')).toBe("''");
  });
});

describe('sandboxedLaunch', () => {
  it('wraps the command with its own temp folder and caches, SHLVL=1, and shows the person the server’s own command', async () => {
    let wrappedLine = '';
    const runtime: SandboxRuntime = {
      wrap: async (line) => {
        wrappedLine = line;
        return { command: '/bin/bash', args: ['-c', 'bwrap … secret-proxy-token'], env: { SANDBOX_RUNTIME: '1' }, commandId: 'id', release: () => undefined };
      },
      onViolation: () => () => undefined,
      release: async () => undefined,
    };
    const folders = { data: '/c/sandbox/fs/data', temp: '/c/sandbox/fs/tmp', cache: '/c/sandbox/fs/cache' };
    const config = serverConfig({ command: 'npx', args: ['-y', 'some pkg'], env: { TOKEN: 'x' } });
    const { launch } = await sandboxedLaunch(runtime, plainLaunch(config, {}), { allowWrite: [], denyWrite: [], denyRead: [], allowRead: [], allowedDomains: [] }, folders);
    expect(wrappedLine).toBe("export TMPDIR=/c/sandbox/fs/tmp; exec npx -y 'some pkg'");
    expect(launch.config).toMatchObject({ command: '/bin/bash', args: ['-c', 'bwrap … secret-proxy-token'] });
    expect(launch.config.env).toMatchObject({ TOKEN: 'x', SANDBOX_RUNTIME: '1', SHLVL: '1', npm_config_cache: '/c/sandbox/fs/cache/npm', XDG_CACHE_HOME: '/c/sandbox/fs/cache' });
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
      wrap: async () => ({ command: '/bin/bash', args: ['-c', 'x'], env: {}, commandId: 'id', release: () => undefined }),
      onViolation: () => () => undefined,
      release: async () => undefined,
    };
    const folders = { data: '/d', temp: '/t', cache: '/c' };
    const { launch } = await sandboxedLaunch(runtime, plainLaunch(serverConfig({ command: 'node', env: { GITHUB_TOKEN: 'its own' } }), { GITHUB_TOKEN: 'the person’s', PATH: '/usr/bin' }), { allowWrite: [], denyWrite: [], denyRead: [], allowRead: [], allowedDomains: [] }, folders);
    expect(launch.env).toEqual({ PATH: '/usr/bin' });
    expect(launch.config.env.GITHUB_TOKEN).toBe('its own');
  });
});
