import { describe, expect, it } from 'vitest';
import { plainLaunch } from '../servers/server-launch';
import { serverConfig } from '../servers/test-support';
import { sandboxedLaunch, shellQuote } from './sandbox-launch';
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
