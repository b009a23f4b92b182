import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemorySecrets } from '../secrets/secret-test-support';
import { SettingsStore } from './settings-store';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-settings-reasoning-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = () => SettingsStore.open({ configDir: dir, secrets: new MemorySecrets(), env: {}, warn: () => undefined });

describe('SettingsStore: reasoning', () => {
  it('starts with reasoning off and sampling not allowed to reason, and keeps a change in settings.json', async () => {
    const settings = await open();
    expect(settings.reasoningDefaults()).toEqual({ level: 'off', sampling: false });
    expect(await settings.setReasoningDefaults({ sampling: true })).toEqual({ level: 'off', sampling: true });
    expect(await settings.setReasoningDefaults({ level: 'medium' })).toEqual({ level: 'medium', sampling: true });
    const file = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')) as { reasoning?: unknown };
    expect(file.reasoning).toEqual({ level: 'medium', sampling: true });
    expect((await open()).reasoningDefaults()).toEqual({ level: 'medium', sampling: true });
  });

  it('says how each model key takes reasoning, in the models the pickers get too', async () => {
    const settings = await open();
    expect(settings.reasoningSupport('claude-sonnet-5')).toBe('adaptive');
    expect(settings.reasoningSupport('claude-haiku-4-5')).toBe('budget');
    expect(settings.reasoningSupport('gone:model')).toBe('unknown');
    expect(settings.view().models.find((model) => model.id === 'claude-haiku-4-5')?.reasoning).toBe('budget');
  });
});
