import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostError } from '../../shared/result';
import { MemorySecrets } from '../secrets/secret-test-support';
import { providerKeySecret } from './provider-settings';
import { SettingsStore } from './settings-store';

let dir: string;
let warnings: string[];
let secrets: MemorySecrets;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-providers-'));
  warnings = [];
  secrets = new MemorySecrets();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = () =>
  SettingsStore.open({ configDir: dir, secrets, env: {}, warn: (text) => warnings.push(text), now: () => 99 });
const readFileJson = async (settings: SettingsStore) =>
  JSON.parse(await readFile(settings.filePath, 'utf8')) as Record<string, unknown>;
const ollama = {
  id: 'ollama',
  label: 'Ollama',
  preset: 'ollama' as const,
  baseUrl: 'http://127.0.0.1:11434/v1',
  models: [{ id: 'llama3.1:8b' }, { id: 'qwen3', label: 'Qwen 3', supportsTools: false }],
};

async function rejection(promise: Promise<unknown>): Promise<HostError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HostError)) throw new Error(`expected a HostError, got ${String(error)}`);
  return error;
}

describe('configured providers in settings.json', () => {
  it('adds a provider whose models join the catalog by model key, keeps it across a restart, and its key only in the secret store', async () => {
    const settings = await open();
    const changes: unknown[] = [];
    settings.onChange((view) => changes.push(view));
    await settings.providers.add(
      {
        ...ollama,
        id: 'openai',
        label: 'OpenAI',
        preset: 'openai',
        baseUrl: 'https://api.openai.com/v1',
        models: [{ id: 'gpt-4o' }],
      },
      'sk-openai-secret-1234',
    );
    await settings.providers.add(ollama);

    const file = await readFileJson(settings);
    expect(JSON.stringify(file)).not.toContain('sk-openai-secret-1234');
    expect(secrets.values.get(providerKeySecret('openai'))).toBe('sk-openai-secret-1234');
    expect(changes).toHaveLength(2);

    const reopened = await open();
    expect(reopened.providers.list().map((p) => p.id)).toEqual(['openai', 'ollama']);
    expect(reopened.providers.key('openai')).toBe('sk-openai-secret-1234');
    // Local presets need no key; OpenAI has one; Anthropic has none here.
    expect(reopened.view().models.map((m) => [m.id, m.provider, m.ready, m.supportsTools])).toEqual([
      ['claude-sonnet-5', 'anthropic', false, true],
      ['claude-opus-5', 'anthropic', false, true],
      ['claude-fable-5-1', 'anthropic', false, true],
      ['claude-haiku-4-5', 'anthropic', false, true],
      ['openai:gpt-4o', 'openai', true, true],
      ['ollama:llama3.1:8b', 'ollama', true, true],
      ['ollama:qwen3', 'ollama', true, false],
    ]);
    expect(reopened.view().models.find((m) => m.id === 'ollama:qwen3')).toMatchObject({
      label: 'Qwen 3',
      providerLabel: 'Ollama',
    });
    // A provider's model can be the default and is a known model.
    expect(() => reopened.checkModel('ollama:llama3.1:8b')).not.toThrow();
    await reopened.setDefaultModel('ollama:llama3.1:8b');
    expect((await open()).defaultModel()).toBe('ollama:llama3.1:8b');
  });

  it('refuses a bad provider with a clear error and writes nothing', async () => {
    const settings = await open();
    expect(await rejection(settings.providers.add({ ...ollama, id: 'anthropic' }))).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('built-in'),
      hostMessage: { code: 'settings-errors.provider-id-built-in', params: { id: 'anthropic' } },
    });
    expect(await rejection(settings.providers.add({ ...ollama, id: 'Has Spaces' }))).toMatchObject({
      code: 'INVALID_INPUT',
      path: 'id',
      hostMessage: { code: 'settings-errors.provider-id-form' },
    });
    expect(await rejection(settings.providers.add({ ...ollama, baseUrl: 'file:///etc/passwd' }))).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('http://'),
      path: 'baseUrl',
      hostMessage: { code: 'settings-errors.base-url-not-http' },
    });
    expect(
      await rejection(settings.providers.add({ ...ollama, baseUrl: 'http://me:secret@127.0.0.1:11434/v1' })),
    ).toMatchObject({ path: 'baseUrl', hostMessage: { code: 'settings-errors.base-url-has-credentials' } });
    expect(await rejection(settings.providers.add({ ...ollama, label: ' ' }))).toMatchObject({
      message: 'Give the provider a name',
      hostMessage: { code: 'settings-errors.provider-name-missing' },
    });
    expect(await rejection(settings.providers.add({ ...ollama, models: [{ id: ' ' }] }))).toMatchObject({
      hostMessage: { code: 'settings-errors.model-id-missing' },
    });
    expect(await rejection(settings.providers.add({ ...ollama, models: [{ id: 'a' }, { id: 'a' }] }))).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('unique'),
      hostMessage: { code: 'settings-errors.model-ids-twice' },
    });
    // A schema's words Berth did not write are coded by their kind, as a refused input is.
    expect(await rejection(settings.providers.add({ ...ollama, label: 'x'.repeat(81) }))).toMatchObject({
      path: 'label',
      hostMessage: { code: 'bridge-errors.too-long', params: { field: 'label', max: 80 } },
    });
    expect(await rejection(settings.providers.add(ollama, 'short'))).toMatchObject({
      code: 'INVALID_INPUT',
      path: 'apiKey',
    });
    await expect(readFile(settings.filePath, 'utf8')).rejects.toThrow();
    await settings.providers.add(ollama);
    expect(await rejection(settings.providers.add(ollama))).toMatchObject({ code: 'CONFLICT' });
  });

  it('skips junk entries with a warning but keeps them in the file when it writes', async () => {
    const junk = { id: 'broken', label: 'Broken', preset: 'ollama', baseUrl: 'ftp://nowhere' };
    await writeFile(
      join(dir, 'settings.json'),
      JSON.stringify({ providers: [junk, ollama, 'not an object', { ...ollama, label: 'Twice' }] }),
    );
    const settings = await open();
    expect(settings.providers.list().map((p) => [p.id, p.label])).toEqual([['ollama', 'Ollama']]);
    expect(warnings).toEqual([
      expect.stringMatching(/provider broken is skipped: .*http.*\(baseUrl\)/),
      expect.stringMatching(/provider #3 is skipped/),
      expect.stringMatching(/provider ollama is listed twice; the second entry is skipped/),
    ]);
    await settings.providers.update('ollama', { label: 'Local Ollama' });
    const providers = (await readFileJson(settings)).providers as unknown[];
    expect(providers).toEqual([
      junk,
      {
        ...ollama,
        kind: 'openai-compatible',
        label: 'Local Ollama',
        models: [
          { id: 'llama3.1:8b', supportsTools: true },
          { id: 'qwen3', label: 'Qwen 3', supportsTools: false },
        ],
      },
      'not an object',
      { ...ollama, label: 'Twice' },
    ]);
  });

  it('reports a providers value that is not a list and starts from the defaults', async () => {
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ providers: { ollama } }));
    const settings = await open();
    expect(settings.providers.list()).toEqual([]);
    expect(warnings.join('\n')).toContain('providers must be a list');
  });

  it('updates a provider (the id stays), sets and clears its key, and removes it with its key', async () => {
    const settings = await open();
    await settings.providers.add({
      ...ollama,
      id: 'router',
      preset: 'openrouter',
      baseUrl: 'https://openrouter.ai/api/v1',
      models: [{ id: 'openai/gpt-4o' }],
    });
    const router = settings.providers.require('router');
    expect(settings.providers.ready(router)).toBe(false);
    await settings.providers.setKey('router', 'sk-or-0123456789');
    expect(settings.providers.ready(router)).toBe(true);
    await settings.providers.clearKey('router');
    expect(secrets.values.has(providerKeySecret('router'))).toBe(false);
    expect(settings.providers.ready(router)).toBe(false);

    expect(await rejection(settings.providers.update('router', { baseUrl: 'javascript:alert(1)' }))).toMatchObject({
      code: 'INVALID_INPUT',
    });
    await settings.providers.update('router', {
      models: [{ id: 'openai/gpt-4o', supportsTools: false, contextWindow: 128_000, costRank: 3 }],
    });
    expect(settings.catalog().find((m) => m.key === 'router:openai/gpt-4o')).toMatchObject({
      model: 'openai/gpt-4o',
      supportsTools: false,
      contextWindow: 128_000,
      costRank: 3,
      tier: 'balanced',
    });

    await settings.providers.setKey('router', 'sk-or-0123456789');
    await settings.setDefaultModel('router:openai/gpt-4o');
    await settings.providers.remove('router');
    expect(secrets.values.has(providerKeySecret('router'))).toBe(false);
    expect(settings.providers.list()).toEqual([]);
    // The default falls back to Anthropic's once the provider is gone.
    expect(settings.defaultModel()).toBe('claude-sonnet-5');
    expect(await rejection(settings.providers.remove('router'))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await rejection(settings.providers.setKey('nobody', 'sk-0123456789'))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it("gives a model's context window by model key (Anthropic's from the model table, a provider's where it says), undefined when unknown", async () => {
    const settings = await open();
    await settings.providers.add({
      ...ollama,
      models: [{ id: 'llama3.1:8b', contextWindow: 128_000 }, { id: 'qwen3' }],
    });
    expect(settings.contextWindow('claude-sonnet-5')).toBe(200_000);
    expect(settings.contextWindow('ollama:llama3.1:8b')).toBe(128_000);
    expect(settings.contextWindow('ollama:qwen3')).toBeUndefined();
    expect(settings.contextWindow('nobody:nothing')).toBeUndefined();
  });
});

describe('the default model when nobody chose one', () => {
  it('is Berth’s own while Anthropic has a key, the first ready provider’s model without one, and the person’s choice once made', async () => {
    const settings = await open();
    expect(settings.defaultModel()).toBe('claude-sonnet-5');
    await settings.providers.add(ollama);
    // No Anthropic key, a local provider that needs none: new conversations use its model.
    expect(settings.defaultModel()).toBe('ollama:llama3.1:8b');
    await settings.setApiKey('sk-ant-test-key-1234');
    expect(settings.defaultModel()).toBe('claude-sonnet-5');
    await settings.setDefaultModel('ollama:qwen3');
    expect(settings.defaultModel()).toBe('ollama:qwen3');
  });
});
