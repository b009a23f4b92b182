import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createInstructionsSettingsHandlers } from './handlers-instructions-settings';
import { settingHandlersWorld } from './per-server-setting-test-support';

const world = settingHandlersWorld('berth-instructions-settings-', createInstructionsSettingsHandlers);

describe('instructions settings handlers', () => {
  it('list every server as sending until one is switched off, keep the change in settings.json and announce it', async () => {
    const { router, emitted, settings } = await world(['zeta', 'alpha']);
    expect(await router.dispatch('servers.instructionsSettings', {})).toEqual({
      ok: true,
      value: [
        { server: 'alpha', sendInstructions: true },
        { server: 'zeta', sendInstructions: true },
      ],
    });
    expect(await router.dispatch('servers.setSendInstructions', { server: 'zeta', sendInstructions: false })).toEqual({
      ok: true,
      value: { server: 'zeta', sendInstructions: false },
    });
    expect(settings.sendsInstructions('zeta')).toBe(false);
    expect(JSON.parse(await readFile(settings.filePath, 'utf8'))).toMatchObject({ sendInstructions: { zeta: false } });
    expect(emitted).toEqual([
      { topic: 'servers.instructionsSettingChanged', payload: { server: 'zeta', sendInstructions: false } },
    ]);

    expect(await router.dispatch('servers.setSendInstructions', { server: 'zeta', sendInstructions: true })).toEqual({
      ok: true,
      value: { server: 'zeta', sendInstructions: true },
    });
    expect(JSON.parse(await readFile(settings.filePath, 'utf8')).sendInstructions).toEqual({});
  });

  it('refuses a server Berth does not have with NOT_FOUND, and a bad input with INVALID_INPUT, storing nothing', async () => {
    const { router, emitted, settings } = await world(['alpha']);
    expect(
      await router.dispatch('servers.setSendInstructions', { server: 'ghost', sendInstructions: false }),
    ).toMatchObject({ ok: false, code: 'NOT_FOUND', path: 'server' });
    expect(
      await router.dispatch('servers.setSendInstructions', { server: 'alpha', sendInstructions: 'no' }),
    ).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(settings.sendsInstructions('alpha')).toBe(true);
    expect(emitted).toEqual([]);
  });
});
