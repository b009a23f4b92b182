import { describe, expect, it } from 'vitest';
import { parseBrowserModeArgs, UsageError } from './args';

describe('browser-mode arguments', () => {
  it('defaults to a window on a free port', () => {
    expect(parseBrowserModeArgs([])).toEqual({ headless: false, port: 0, appSandboxPort: 0, help: false });
  });

  it('reads every option', () => {
    expect(
      parseBrowserModeArgs(['--headless', '--port', '4000', '--config-dir', '/tmp/c', '--static-dir=/tmp/s']),
    ).toEqual({
      headless: true,
      port: 4000,
      appSandboxPort: 4001,
      configDir: '/tmp/c',
      staticDir: '/tmp/s',
      help: false,
    });
    expect(parseBrowserModeArgs(['-h']).help).toBe(true);
  });

  it('puts the app sandbox on its own flag, else the port after --port, else a free one', () => {
    expect(parseBrowserModeArgs(['--port', '4000', '--app-sandbox-port', '5000'])).toMatchObject({
      port: 4000,
      appSandboxPort: 5000,
    });
    expect(parseBrowserModeArgs(['--app-sandbox-port', '5000'])).toMatchObject({ port: 0, appSandboxPort: 5000 });
    expect(parseBrowserModeArgs(['--port', '4000', '--app-sandbox-port', '0'])).toMatchObject({ appSandboxPort: 0 });
  });

  it.each([
    [['--port', 'eighty'], /--port must be a number/],
    [['--port', '65536'], /--port must be a number/],
    [['--port', '-1'], /--port/],
    [['--port', '1e3'], /--port must be a number/],
    [['--port'], /--port/],
    [['--app-sandbox-port', 'x'], /--app-sandbox-port must be a number/],
    [['--port', '4000', '--app-sandbox-port', '4000'], /must differ from --port/],
    [['--port', '65535'], /pass --app-sandbox-port too/],
    [['--config-dir', ''], /--config-dir needs a directory/],
    [['--frobnicate'], /frobnicate/],
    [['stray'], /stray/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseBrowserModeArgs(argv)).toThrow(UsageError);
    expect(() => parseBrowserModeArgs(argv)).toThrow(message);
  });
});
