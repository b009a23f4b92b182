import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TaskServerSettings } from '../../shared/contract/task-settings';
import type { ServerInstructionsSetting } from '../../shared/contract/instructions-settings';
import type { ServerResultLimit } from '../../shared/contract/result-settings';
import type { SamplingUsageList } from '../../shared/contract/sampling';
import { hostPerTest } from './host-harness';

const world = hostPerTest('berth-task-settings-');
/** Never started: a disabled server is enough to have settings. */
const idle = { command: process.execPath, args: ['-e', ''], enabled: false };
const LIMITS = { maxTokens: 1_000, sessionBudget: 20_000 };

describe("a server's own settings (tasks, sampling limits, instructions, result limit) through the host", () => {
  it('are refused for a server Berth does not have, follow a rename, and are forgotten when the server is removed', async () => {
    const harness = await world.start();
    await harness.call('servers.add', { name: 'slow', config: idle });

    // Unknown servers: NOT_FOUND, nothing stored.
    expect(
      await harness.host.dispatch('tasks.setServerSettings', { server: 'ghost', optionalToolsAsTasks: false }),
    ).toMatchObject({ ok: false, code: 'NOT_FOUND', path: 'server' });
    expect(await harness.host.dispatch('sampling.setLimits', { server: 'ghost', limits: LIMITS })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      path: 'server',
    });

    await harness.call('tasks.setServerSettings', { server: 'slow', optionalToolsAsTasks: false });
    await harness.call('sampling.setLimits', { server: 'slow', limits: LIMITS });
    await harness.call('servers.setSendInstructions', { server: 'slow', sendInstructions: false });
    await harness.call('servers.setResultLimit', { server: 'slow', limitTokens: 1_500 });

    // Renamed in Berth: the settings go with it.
    await harness.call('servers.update', { name: 'slow', newName: 'patient', config: idle });
    await harness.waitForEvent('servers.removed', ({ name }) => name === 'slow');
    expect(await harness.call<TaskServerSettings[]>('tasks.serverSettings', {})).toEqual([
      { server: 'patient', optionalToolsAsTasks: false },
    ]);
    expect((await harness.call<SamplingUsageList>('sampling.usage', {})).servers).toEqual([
      expect.objectContaining({ server: 'patient', limits: LIMITS, custom: true }),
    ]);
    expect(await harness.call<ServerInstructionsSetting[]>('servers.instructionsSettings', {})).toEqual([
      { server: 'patient', sendInstructions: false },
    ]);
    expect(await harness.call<ServerResultLimit[]>('servers.resultLimits', {})).toEqual([
      { server: 'patient', limitTokens: 1_500 },
    ]);

    // Removed: forgotten, in settings.json too, and the windows are told; a new server of that name starts from the defaults.
    await harness.call('servers.remove', { name: 'patient' });
    await harness.waitForEvent('tasks.serverSettingsChanged', (s) => s.server === 'patient' && s.optionalToolsAsTasks);
    await harness.waitForEvent(
      'servers.instructionsSettingChanged',
      (s) => s.server === 'patient' && s.sendInstructions,
    );
    await harness.waitForEvent(
      'servers.resultLimitChanged',
      (s) => s.server === 'patient' && s.limitTokens === undefined,
    );
    const file = JSON.parse(await readFile(join(world.dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(file).toMatchObject({
      tasksForOptionalTools: {},
      samplingLimits: {},
      sendInstructions: {},
      resultLimits: {},
    });
    await harness.call('servers.add', { name: 'patient', config: idle });
    expect(await harness.call<TaskServerSettings[]>('tasks.serverSettings', {})).toEqual([
      { server: 'patient', optionalToolsAsTasks: true },
    ]);
    expect((await harness.call<SamplingUsageList>('sampling.usage', {})).servers).toEqual([]);
    expect(await harness.call<ServerInstructionsSetting[]>('servers.instructionsSettings', {})).toEqual([
      { server: 'patient', sendInstructions: true },
    ]);
    expect(await harness.call<ServerResultLimit[]>('servers.resultLimits', {})).toEqual([{ server: 'patient' }]);
  }, 30_000);
});
