import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createTaskSettingsHandlers } from './handlers-task-settings';
import { settingHandlersWorld } from './per-server-setting-test-support';

const world = settingHandlersWorld('berth-task-settings-', createTaskSettingsHandlers);

describe('task settings handlers', () => {
  it('list every server with the default (yes) until one is set otherwise, keep the change in settings.json and announce it', async () => {
    const { router, emitted, settings } = await world(['zeta', 'alpha']);
    expect(await router.dispatch('tasks.serverSettings', {})).toEqual({
      ok: true,
      value: [
        { server: 'alpha', optionalToolsAsTasks: true },
        { server: 'zeta', optionalToolsAsTasks: true },
      ],
    });
    expect(await router.dispatch('tasks.setServerSettings', { server: 'zeta', optionalToolsAsTasks: false })).toEqual({
      ok: true,
      value: { server: 'zeta', optionalToolsAsTasks: false },
    });
    expect(settings.tasksForOptionalTools('zeta')).toBe(false);
    expect(JSON.parse(await readFile(settings.filePath, 'utf8'))).toMatchObject({
      tasksForOptionalTools: { zeta: false },
    });
    expect(emitted).toEqual([
      { topic: 'tasks.serverSettingsChanged', payload: { server: 'zeta', optionalToolsAsTasks: false } },
    ]);

    // Back on: the default again, so settings.json no longer lists the server.
    expect(await router.dispatch('tasks.setServerSettings', { server: 'zeta', optionalToolsAsTasks: true })).toEqual({
      ok: true,
      value: { server: 'zeta', optionalToolsAsTasks: true },
    });
    expect(JSON.parse(await readFile(settings.filePath, 'utf8')).tasksForOptionalTools).toEqual({});
  });

  it('refuses a server Berth does not have with NOT_FOUND, storing nothing', async () => {
    const { router, emitted, settings } = await world(['alpha']);
    expect(await router.dispatch('tasks.setServerSettings', { server: 'ghost', optionalToolsAsTasks: false })).toEqual({
      ok: false,
      code: 'NOT_FOUND',
      message: 'No server named "ghost"',
      path: 'server',
      hostMessage: { code: 'server-errors.not-found', params: { name: 'ghost' } },
    });
    expect(settings.tasksForOptionalToolsServers()).toEqual([]);
    expect(emitted).toEqual([]);
  });

  it.each([
    ['a missing choice', { server: 'alpha' }],
    ['a choice that is not a boolean', { server: 'alpha', optionalToolsAsTasks: 'no' }],
    ['an empty server name', { server: '', optionalToolsAsTasks: false }],
    ['an unknown field', { server: 'alpha', optionalToolsAsTasks: false, restart: true }],
  ])('refuses %s with INVALID_INPUT before the handler runs', async (_label, input) => {
    const { router, settings } = await world(['alpha']);
    const result = await router.dispatch('tasks.setServerSettings', input);
    expect(result).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(settings.tasksForOptionalTools('alpha')).toBe(true);
  });
});
