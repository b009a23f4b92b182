import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostError } from '../../shared/result';
import { MemorySecrets } from '../secrets/secret-test-support';
import { DEFAULT_MODEL_ID } from './model-table';
import { API_KEY_SECRET, SettingsStore } from './settings-store';

let dir: string;
let warnings: string[];
let secrets: MemorySecrets;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-settings-'));
  warnings = [];
  secrets = new MemorySecrets();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = (env: NodeJS.ProcessEnv = {}) =>
  SettingsStore.open({ configDir: dir, secrets, env, warn: (text) => warnings.push(text), now: () => 99 });

describe('SettingsStore', () => {
  it('starts with the default models and no key', async () => {
    const settings = await open();
    const view = settings.view();
    expect(view).toEqual({
      apiKey: { source: 'none' },
      models: expect.any(Array),
      defaultModel: DEFAULT_MODEL_ID,
      language: 'auto',
      systemLanguages: [],
      appearance: { theme: 'system', sidebarCollapsed: false, conversationsCollapsed: false },
    });
    expect(view.models.map((m) => m.id)).toEqual([
      'claude-sonnet-5',
      'claude-opus-5',
      'claude-fable-5-1',
      'claude-haiku-4-5',
    ]);
    expect(settings.apiKey()).toBeUndefined();
    expect(settings.baseURL()).toBeUndefined();
  });

  it('keeps the Language setting across restarts, tells listeners, and forgets it on auto', async () => {
    const settings = await open();
    const seen: string[] = [];
    settings.onChange((view) => seen.push(view.language ?? 'missing'));
    expect((await settings.setLanguage('zh-TW')).language).toBe('zh-TW');
    expect(seen).toEqual(['zh-TW']);
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))).toMatchObject({ language: 'zh-TW' });
    const reopened = await open();
    expect(reopened.view().language).toBe('zh-TW');
    await reopened.setLanguage('auto');
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))).not.toHaveProperty('language');
    expect((await open()).view().language).toBe('auto');
  });

  it('keeps the theme and the folded panes across restarts, changing only what is given, and writes no defaults', async () => {
    const settings = await open();
    const seen: unknown[] = [];
    settings.onChange((view) => seen.push(view.appearance));
    await settings.setAppearance({ sidebarCollapsed: true });
    expect((await settings.setAppearance({ theme: 'dark' })).appearance).toEqual({
      theme: 'dark',
      sidebarCollapsed: true,
      conversationsCollapsed: false,
    });
    expect(seen).toHaveLength(2);
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))).toMatchObject({
      appearance: { theme: 'dark', sidebarCollapsed: true },
    });
    const reopened = await open();
    expect(reopened.view().appearance).toEqual({
      theme: 'dark',
      sidebarCollapsed: true,
      conversationsCollapsed: false,
    });
    // Two changes at once (two quick toggles): both are kept.
    await Promise.all([
      reopened.setAppearance({ conversationsCollapsed: true }),
      reopened.setAppearance({ theme: 'light' }),
    ]);
    expect((await open()).view().appearance).toEqual({
      theme: 'light',
      sidebarCollapsed: true,
      conversationsCollapsed: true,
    });
    await reopened.setAppearance({ theme: 'system', sidebarCollapsed: false, conversationsCollapsed: false });
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))).not.toHaveProperty('appearance');
  });

  it("shows the system's languages the shell reads, and none when it cannot read them", async () => {
    const withOs = await SettingsStore.open({
      configDir: dir,
      secrets,
      env: {},
      warn: (text) => warnings.push(text),
      systemLanguages: () => ['zh-Hant-HK', 'en-US'],
    });
    expect(withOs.view().systemLanguages).toEqual(['zh-Hant-HK', 'en-US']);
    const failing = await SettingsStore.open({
      configDir: dir,
      secrets,
      env: {},
      warn: (text) => warnings.push(text),
      systemLanguages: () => {
        throw new Error('no locale service');
      },
    });
    expect(failing.view().systemLanguages).toEqual([]);
    expect(warnings).toContain("could not read the system's languages: no locale service");
  });

  it('stores the key as a secret and shows only its last four characters', async () => {
    const settings = await open();
    const changes: unknown[] = [];
    settings.onChange((view) => changes.push(view));
    const view = await settings.setApiKey('  sk-ant-abcdefgh-a1b2  ');
    expect(view.apiKey).toEqual({ source: 'stored', hint: '…a1b2' });
    expect(JSON.stringify(view)).not.toContain('abcdefgh');
    expect(secrets.values.get(API_KEY_SECRET)).toBe('sk-ant-abcdefgh-a1b2');
    expect(settings.apiKey()).toBe('sk-ant-abcdefgh-a1b2');
    expect(changes).toEqual([view]);
    expect((await open()).apiKey()).toBe('sk-ant-abcdefgh-a1b2');
    expect((await settings.clearApiKey()).apiKey).toEqual({ source: 'none' });
    expect(secrets.values.has(API_KEY_SECRET)).toBe(false);
  });

  it('lets ANTHROPIC_API_KEY win over a stored key and honours ANTHROPIC_BASE_URL', async () => {
    await secrets.set(API_KEY_SECRET, 'stored-key-0000');
    const settings = await open({ ANTHROPIC_API_KEY: 'env-key-9999', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/' });
    expect(settings.apiKey()).toBe('env-key-9999');
    expect(settings.view()).toMatchObject({ apiKey: { source: 'env', hint: '…9999' }, baseURL: 'http://127.0.0.1:9/' });
  });

  it('refuses a key with spaces inside', async () => {
    const settings = await open();
    await expect(settings.setApiKey('sk ant key')).rejects.toMatchObject({ code: 'INVALID_INPUT', path: 'apiKey' });
  });

  it('takes models, default and base URL from settings.json, and checks model choices', async () => {
    await writeFile(
      join(dir, 'settings.json'),
      JSON.stringify({
        defaultModel: 'claude-test-b',
        baseURL: 'https://proxy.example.com',
        oauthClientMetadataUrl: 'https://berth.example/oauth/client-metadata.json',
        models: [
          { id: 'claude-test-a', label: 'A', tier: 'fast', costRank: 1, speedRank: 1, intelligenceRank: 2 },
          { id: 'claude-test-b', label: 'B', tier: 'smart', costRank: 2, speedRank: 2, intelligenceRank: 1 },
        ],
        futureKey: { kept: true },
      }),
    );
    const settings = await open();
    expect(settings.view()).toMatchObject({
      defaultModel: 'claude-test-b',
      baseURL: 'https://proxy.example.com',
      models: [
        { id: 'claude-test-a', label: 'A' },
        { id: 'claude-test-b', label: 'B' },
      ],
    });
    expect(settings.oauthClientMetadataUrl()).toBe('https://berth.example/oauth/client-metadata.json');
    expect(() => settings.checkModel('claude-opus-5')).toThrow(HostError);
    expect((await settings.setDefaultModel('claude-test-a')).defaultModel).toBe('claude-test-a');
    const saved = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ defaultModel: 'claude-test-a', futureKey: { kept: true } });
    await expect(settings.setDefaultModel('gpt-nothing')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('moves an invalid settings.json aside and uses the defaults', async () => {
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ models: [] }));
    const settings = await open();
    expect(settings.defaultModel()).toBe(DEFAULT_MODEL_ID);
    expect(warnings[0]).toContain('list at least one model');
    expect(await readFile(join(dir, 'settings.json.corrupt-99'), 'utf8')).toBe('{"models":[]}');
  });

  it('falls back to the first model when the default is not in the list', async () => {
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ defaultModel: 'gone' }));
    const settings = await open();
    expect(settings.defaultModel()).toBe(DEFAULT_MODEL_ID);
    expect(warnings[0]).toContain("defaultModel 'gone' is not in the model list");
  });

  it("keeps 'never' sampling policies across restarts", async () => {
    const settings = await open();
    await settings.setSamplingNever('noisy', true);
    expect((await open()).samplingPolicies()).toEqual({ noisy: 'never' });
    await settings.setSamplingNever('noisy', false);
    expect((await open()).samplingPolicies()).toEqual({});
  });

  it('keeps per-server sampling limits across restarts, refuses bad values with a clear error, and goes back to the defaults', async () => {
    const settings = await open();
    expect(settings.samplingLimits('poet')).toEqual({
      limits: { maxTokens: 4_096, sessionBudget: 100_000 },
      custom: false,
    });
    await expect(settings.setSamplingLimits('poet', { maxTokens: 1_000, sessionBudget: 20_000 })).resolves.toEqual({
      limits: { maxTokens: 1_000, sessionBudget: 20_000 },
      custom: true,
    });
    const reopened = await open();
    expect(reopened.samplingLimits('poet')).toEqual({
      limits: { maxTokens: 1_000, sessionBudget: 20_000 },
      custom: true,
    });
    expect(reopened.samplingLimitServers()).toEqual(['poet']);

    const bad = await settings
      .setSamplingLimits('poet', { maxTokens: 0, sessionBudget: 20_000 })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(HostError);
    expect(bad).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'The max tokens per request must be at least 1 token',
      path: 'maxTokens',
      hostMessage: { code: 'settings-errors.tokens-at-least-one', params: { field: 'maxTokens' } },
    });
    await expect(settings.setSamplingLimits('poet', { maxTokens: 10, sessionBudget: 2.5 })).rejects.toMatchObject({
      message: 'The session budget must be a whole number of tokens',
      hostMessage: { code: 'settings-errors.tokens-not-whole', params: { field: 'sessionBudget' } },
    });
    await expect(settings.setSamplingLimits('poet', { maxTokens: 300_000, sessionBudget: 10 })).rejects.toMatchObject({
      message: 'The max tokens per request can be at most 200,000 tokens',
      hostMessage: { code: 'settings-errors.tokens-at-most', params: { field: 'maxTokens', max: 200_000 } },
    });
    // A refused value loses nothing.
    expect((await open()).samplingLimits('poet').limits).toEqual({ maxTokens: 1_000, sessionBudget: 20_000 });

    await settings.setSamplingLimits('poet', undefined);
    expect((await open()).samplingLimits('poet')).toEqual({
      limits: { maxTokens: 4_096, sessionBudget: 100_000 },
      custom: false,
    });
  });

  it('runs tools that may be tasks as tasks unless the server is set otherwise, across restarts', async () => {
    const settings = await open();
    expect(settings.tasksForOptionalTools('remote')).toBe(true);
    await expect(settings.setTasksForOptionalTools('remote', false)).resolves.toBe(false);
    expect((await open()).tasksForOptionalTools('remote')).toBe(false);
    expect((await open()).tasksForOptionalTools('other')).toBe(true);
    await settings.setTasksForOptionalTools('remote', undefined);
    expect((await open()).tasksForOptionalTools('remote')).toBe(true);
  });

  it("forgets a removed server's sampling limits and task choice, keeps the other servers', and writes nothing for a server with none", async () => {
    const settings = await open();
    await settings.setSamplingLimits('gone', { maxTokens: 1_000, sessionBudget: 20_000 });
    await settings.setSamplingLimits('kept', { maxTokens: 2_000, sessionBudget: 30_000 });
    await settings.setTasksForOptionalTools('gone', false);
    await settings.setTasksForOptionalTools('kept', false);
    await settings.forgetServer('gone');
    const reopened = await open();
    expect(reopened.samplingLimits('gone').custom).toBe(false);
    expect(reopened.tasksForOptionalTools('gone')).toBe(true);
    expect(reopened.samplingLimitServers()).toEqual(['kept']);
    expect(reopened.tasksForOptionalToolsServers()).toEqual(['kept']);
    expect(reopened.tasksForOptionalTools('kept')).toBe(false);

    const before = await readFile(settings.filePath, 'utf8');
    await writeFile(settings.filePath, `${before} `);
    await settings.forgetServer('never-set');
    // No write: the byte added by hand is still there.
    expect(await readFile(settings.filePath, 'utf8')).toBe(`${before} `);
  });

  it("moves a renamed server's sampling limits and task choice to its new name", async () => {
    const settings = await open();
    await settings.setSamplingLimits('old', { maxTokens: 1_000, sessionBudget: 20_000 });
    await settings.setTasksForOptionalTools('old', false);
    await settings.renameServer('old', 'new');
    // The sync forgets the old name after the rename: nothing of the new one goes with it.
    await settings.forgetServer('old');
    const reopened = await open();
    expect(reopened.samplingLimits('new')).toEqual({
      limits: { maxTokens: 1_000, sessionBudget: 20_000 },
      custom: true,
    });
    expect(reopened.tasksForOptionalTools('new')).toBe(false);
    expect(reopened.samplingLimitServers()).toEqual(['new']);
    expect(reopened.tasksForOptionalToolsServers()).toEqual(['new']);
  });

  it("keeps a server's instructions switch (default on), forgets it with the server and moves it on a rename", async () => {
    const settings = await open();
    expect(settings.sendsInstructions('docs')).toBe(true);
    await settings.setSendInstructions('docs', false);
    await settings.setSendInstructions('other', false);
    expect((await open()).sendsInstructions('docs')).toBe(false);
    await settings.renameServer('docs', 'manuals');
    expect((await open()).sendsInstructions('manuals')).toBe(false);
    await settings.forgetServer('manuals');
    const reopened = await open();
    expect(reopened.sendsInstructions('manuals')).toBe(true);
    expect(reopened.sendsInstructions('other')).toBe(false);
    await reopened.setSendInstructions('other', undefined);
    expect((await open()).sendsInstructions('other')).toBe(true);
  });
});
