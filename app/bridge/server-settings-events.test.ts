import { describe, expect, it } from 'vitest';
import type { TopicName } from '../../shared/contract';
import { settingHandlersWorld } from './per-server-setting-test-support';
import { forgetSettingsOnRemoval } from './server-settings-events';

const world = settingHandlersWorld('berth-server-settings-events-', () => ({}));

describe('per-server settings on removal', () => {
  it("forgets a removed server's settings and tells every window each one is back to its default", async () => {
    const { settings } = await world(['alpha']);
    await settings.setTasksForOptionalTools('alpha', false);
    await settings.setSendInstructions('alpha', false);
    await settings.setResultLimit('alpha', 1_500);
    const emitted: Array<{ topic: TopicName; payload: unknown }> = [];
    const errors: string[] = [];
    const listener = forgetSettingsOnRemoval(
      { emit: (topic, payload) => emitted.push({ topic, payload }) },
      settings,
      (what) => errors.push(what),
    );
    listener.serverRemoved?.('alpha');
    await expect.poll(() => emitted.length).toBe(3);
    expect(emitted).toEqual([
      { topic: 'tasks.serverSettingsChanged', payload: { server: 'alpha', optionalToolsAsTasks: true } },
      { topic: 'servers.instructionsSettingChanged', payload: { server: 'alpha', sendInstructions: true } },
      { topic: 'servers.resultLimitChanged', payload: { server: 'alpha' } },
    ]);
    expect([
      settings.tasksForOptionalTools('alpha'),
      settings.sendsInstructions('alpha'),
      settings.resultLimit('alpha'),
    ]).toEqual([true, true, undefined]);
    expect(errors).toEqual([]);
  });
});
