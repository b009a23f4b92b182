import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createResultSettingsHandlers } from './handlers-result-settings';
import { settingHandlersWorld } from './per-server-setting-test-support';

const world = settingHandlersWorld('berth-result-settings-', createResultSettingsHandlers);

describe('result settings handlers', () => {
  it('list every server on the default until one is set, keep the limit in settings.json and announce it', async () => {
    const { router, emitted, settings } = await world(['zeta', 'alpha']);
    expect(await router.dispatch('servers.resultLimits', {})).toEqual({
      ok: true,
      value: [{ server: 'alpha' }, { server: 'zeta' }],
    });
    expect(await router.dispatch('servers.setResultLimit', { server: 'zeta', limitTokens: 2_000 })).toEqual({
      ok: true,
      value: { server: 'zeta', limitTokens: 2_000 },
    });
    expect(settings.resultLimit('zeta')).toBe(2_000);
    expect(JSON.parse(await readFile(settings.filePath, 'utf8'))).toMatchObject({ resultLimits: { zeta: 2_000 } });
    expect(emitted).toEqual([{ topic: 'servers.resultLimitChanged', payload: { server: 'zeta', limitTokens: 2_000 } }]);

    expect(await router.dispatch('servers.setResultLimit', { server: 'zeta', limitTokens: null })).toEqual({
      ok: true,
      value: { server: 'zeta' },
    });
    expect(JSON.parse(await readFile(settings.filePath, 'utf8')).resultLimits).toEqual({});
  });

  it('refuses an unknown server (NOT_FOUND) and a limit out of range (INVALID_INPUT, in words), storing nothing', async () => {
    const { router, emitted, settings } = await world(['alpha']);
    expect(await router.dispatch('servers.setResultLimit', { server: 'ghost', limitTokens: 2_000 })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      path: 'server',
    });
    for (const limitTokens of [10, 600_000, 1_000.5, '2000']) {
      expect(await router.dispatch('servers.setResultLimit', { server: 'alpha', limitTokens })).toMatchObject({
        ok: false,
        code: 'INVALID_INPUT',
        message: expect.stringContaining('A result limit is a whole number of tokens from 500 to 500,000'),
      });
    }
    expect(settings.resultLimit('alpha')).toBeUndefined();
    expect(emitted).toEqual([]);
  });

  it('follows a renamed server and is forgotten with a removed one', async () => {
    const { settings } = await world(['alpha']);
    await settings.setResultLimit('alpha', 1_500);
    await settings.renameServer('alpha', 'beta');
    expect(settings.resultLimit('alpha')).toBeUndefined();
    expect(settings.resultLimit('beta')).toBe(1_500);
    await settings.forgetServer('beta');
    expect(settings.resultLimit('beta')).toBeUndefined();
    await expect(settings.setResultLimit('beta', 20)).rejects.toThrow(
      'A result limit is a whole number of tokens from 500 to 500,000',
    );
  });
});
