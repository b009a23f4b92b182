import { describe, expect, it } from 'vitest';
import { sandboxConfigFor, sandboxSupport, validateSandboxConfig } from './sandbox-runtime';

const filesystem = { denyRead: ['/home/ann/.ssh'], allowWrite: ['/srv/data'], denyWrite: [] };

describe('validateSandboxConfig', () => {
  it('refuses a config without network.allowedDomains: the runtime would run with no network isolation', async () => {
    await expect(validateSandboxConfig({ network: { deniedDomains: [] }, filesystem })).rejects.toThrow(
      /without network.allowedDomains.*no network isolation/,
    );
    await expect(validateSandboxConfig({ filesystem })).rejects.toThrow(/no network isolation/);
    await expect(validateSandboxConfig(null)).rejects.toThrow(/no network isolation/);
  });

  it('refuses a config that allows every domain', async () => {
    await expect(
      validateSandboxConfig({ network: { allowedDomains: ['*'], deniedDomains: [] }, filesystem }),
    ).rejects.toThrow(/every domain|invalid/);
  });

  it("refuses what the runtime's own schema refuses", async () => {
    await expect(
      validateSandboxConfig({ network: { allowedDomains: ['http://example.com/x'], deniedDomains: [] }, filesystem }),
    ).rejects.toThrow(/invalid sandbox config/);
    await expect(
      validateSandboxConfig({
        network: { allowedDomains: [], deniedDomains: [] },
        filesystem: { allowWrite: 'everything' },
      }),
    ).rejects.toThrow(/invalid sandbox config/);
  });

  it('takes a policy as the runtime config, network lists included', async () => {
    const config = await sandboxConfigFor({
      allowWrite: ['/srv/data'],
      denyWrite: ['/home/ann/.bashrc'],
      denyRead: ['/home/ann/.ssh'],
      allowRead: [],
      allowedDomains: ['api.github.com', '127.0.0.1:8080'],
    });
    expect(config.network).toMatchObject({ allowedDomains: ['api.github.com', '127.0.0.1:8080'], deniedDomains: [] });
    expect(config.filesystem).toMatchObject({
      allowWrite: ['/srv/data'],
      denyWrite: ['/home/ann/.bashrc'],
      denyRead: ['/home/ann/.ssh'],
    });
  });
});

describe('sandboxSupport', () => {
  it('is unavailable on Windows, with the reason and nothing to install', async () => {
    const support = await sandboxSupport('win32');
    expect(support).toMatchObject({ available: false, platform: 'win32' });
    expect(support.reason).toMatch(/Linux or macOS/);
    expect(support.install).toBeUndefined();
  });

  it('is unavailable on other systems', async () => {
    expect(await sandboxSupport('freebsd')).toMatchObject({
      available: false,
      reason: 'the sandbox runtime does not support freebsd',
    });
  });
});
