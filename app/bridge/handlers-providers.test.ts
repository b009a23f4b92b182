import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { METHOD_NAMES, type Handlers, type MethodName, type MethodOutput } from '../../shared/contract';
import type { ProvidersView } from '../../shared/contract/providers';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { AnthropicAccess } from '../providers/anthropic-access';
import { AnthropicProviderClient } from '../providers/anthropic-client';
import { openAiCompatibleClient } from '../providers/create-providers';
import { ProviderRegistry } from '../providers/provider-registry';
import { BASE_URL_CREDENTIALS_MESSAGE } from '../../shared/domain/providers';
import type { SecretStore } from '../secrets/secret-store';
import { SettingsStore } from '../settings/settings-store';
import { createProvidersHandlers } from './handlers-providers';
import { createRouter } from './router';

let dir: string;
let fakes: Array<{ close(): Promise<void> }>;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-providers-handlers-'));
  fakes = [];
});
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  await rm(dir, { recursive: true, force: true });
});

async function world(env: NodeJS.ProcessEnv = {}) {
  const values = new Map<string, string>();
  const secrets: SecretStore = {
    get: async (k) => values.get(k),
    set: async (k, v) => void values.set(k, v),
    delete: async (k) => void values.delete(k),
  };
  const settings = await SettingsStore.open({ configDir: dir, secrets, env, warn: () => undefined });
  const anthropic = new AnthropicAccess(settings);
  const registry = new ProviderRegistry({
    settings,
    anthropic: new AnthropicProviderClient(anthropic, () => settings.baseURL()),
    openAiClient: openAiCompatibleClient,
  });
  const own = createProvidersHandlers({ settings, providers: registry });
  const others = Object.fromEntries(
    METHOD_NAMES.map((m: MethodName) => [m, () => Promise.reject(new Error(`${m} is not served here`))]),
  );
  return { settings, values, registry, router: createRouter({ ...others, ...own } as Handlers) };
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('providers handlers', () => {
  it('add an Ollama-style provider, list its models live, test the connection, and show it in the list', async () => {
    const fake = await FakeOpenAi.start({ models: ['llama3.1:8b', 'qwen3:4b'] });
    fakes.push(fake);
    const { router, settings } = await world();
    const added = await router.dispatch('providers.add', {
      provider: { id: 'ollama', label: 'Ollama', preset: 'ollama', baseUrl: fake.url },
    });
    expect(added).toMatchObject({
      ok: true,
      value: {
        providers: [
          { id: 'anthropic', builtIn: true, ready: false },
          { id: 'ollama', ready: true, needsKey: false, key: { set: false }, models: [] },
        ],
      },
    });

    expect(await router.dispatch('providers.listModels', { id: 'ollama' })).toEqual({
      ok: true,
      value: { models: [{ id: 'llama3.1:8b' }, { id: 'qwen3:4b' }] },
    });
    expect(fake.modelListRequests).toBe(1);
    expect(await router.dispatch('providers.check', { id: 'ollama' })).toEqual({
      ok: true,
      value: { ok: true, message: 'Connected.' },
    });
    expect(await router.dispatch('providers.check', { id: 'ollama', model: 'mistral' })).toEqual({
      ok: true,
      value: { ok: false, message: 'Ollama answered: model not found: mistral. Pick a model it lists in Settings.' },
    });

    await router.dispatch('providers.update', {
      id: 'ollama',
      changes: { models: [{ id: 'llama3.1:8b' }, { id: 'qwen3:4b', supportsTools: false }] },
    });
    expect(
      settings
        .view()
        .models.filter((m) => m.provider === 'ollama')
        .map((m) => [m.id, m.supportsTools]),
    ).toEqual([
      ['ollama:llama3.1:8b', true],
      ['ollama:qwen3:4b', false],
    ]);
  });

  it("refuses a change to the built-in provider other than its models, with the refusal's code", async () => {
    const { router } = await world();
    expect(await router.dispatch('providers.update', { id: 'anthropic', changes: { label: 'Mine' } })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      path: 'changes.label',
      message: 'Only the models of the built-in Anthropic provider can change here, not its label',
      hostMessage: { code: 'settings-errors.anthropic-only-models', params: { field: 'label' } },
    });
  });

  it('says exactly what is wrong: nothing listening, a rejected key', async () => {
    const port = await closedPort();
    const guarded = await FakeOpenAi.start({ models: ['gpt-4o'], apiKey: 'sk-right-0123456789' });
    fakes.push(guarded);
    const { router } = await world();
    await router.dispatch('providers.add', {
      provider: { id: 'ollama', label: 'Ollama', preset: 'ollama', baseUrl: `http://127.0.0.1:${port}/v1` },
    });
    expect(await router.dispatch('providers.check', { id: 'ollama' })).toEqual({
      ok: true,
      value: {
        ok: false,
        message: `Could not connect: nothing is listening at 127.0.0.1:${port} — is Ollama running?`,
      },
    });
    expect(await router.dispatch('providers.listModels', { id: 'ollama' })).toMatchObject({
      ok: false,
      code: 'SERVER_ERROR',
      message: expect.stringContaining(`nothing is listening at 127.0.0.1:${port} — is Ollama running?`),
    });

    await router.dispatch('providers.add', {
      provider: { id: 'openai', label: 'OpenAI', preset: 'openai', baseUrl: guarded.url },
      apiKey: 'sk-wrong-0123456789',
    });
    expect(await router.dispatch('providers.check', { id: 'openai' })).toEqual({
      ok: true,
      value: { ok: false, message: expect.stringContaining('the key was rejected (401') },
    });
    await router.dispatch('providers.setKey', { id: 'openai', apiKey: 'sk-right-0123456789' });
    expect(await router.dispatch('providers.check', { id: 'openai', model: 'gpt-4o' })).toEqual({
      ok: true,
      value: { ok: true, message: "Connected; 'gpt-4o' is available." },
    });
  });

  it('keeps keys out of every answer and settings.json; refuses bad input and unknown providers clearly', async () => {
    const { router, settings, values } = await world();
    const added = await router.dispatch('providers.add', {
      provider: {
        id: 'openai',
        label: 'OpenAI',
        preset: 'openai',
        baseUrl: 'https://api.openai.com/v1',
        models: [{ id: 'gpt-4o' }],
      },
      apiKey: 'sk-secret-abcdefgh',
    });
    expect(JSON.stringify(added)).not.toContain('sk-secret-abcdefgh');
    expect(added).toMatchObject({
      ok: true,
      value: { providers: [{}, { id: 'openai', key: { set: true, hint: '…efgh' }, ready: true }] },
    });
    expect(await readFile(settings.filePath, 'utf8')).not.toContain('sk-secret');
    expect(values.get('provider.openai.apiKey')).toBe('sk-secret-abcdefgh');

    expect(
      await router.dispatch('providers.add', {
        provider: { id: 'x', label: 'X', preset: 'custom', baseUrl: 'file:///etc' },
      }),
    ).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(
      await router.dispatch('providers.add', {
        provider: { id: 'anthropic', label: 'A', preset: 'custom', baseUrl: 'http://x' },
      }),
    ).toMatchObject({ ok: false, code: 'INVALID_INPUT', message: expect.stringContaining('built-in') });
    expect(await router.dispatch('providers.listModels', { id: 'nobody' })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
    expect(await router.dispatch('providers.remove', { id: 'nobody' })).toMatchObject({ ok: false, code: 'NOT_FOUND' });

    const removed = await router.dispatch('providers.remove', { id: 'openai' });
    expect(removed).toMatchObject({ ok: true, value: { providers: [{ id: 'anthropic' }] } });
    expect(values.has('provider.openai.apiKey')).toBe(false);
  });

  it('refuses a base URL with a user name or password where it is typed, and does not use one found in settings.json', async () => {
    const fake = await FakeOpenAi.start({ models: ['llama3.1:8b'] });
    fakes.push(fake);
    const withPassword = fake.url.replace('http://', 'http://me:hunter2@');
    const { router } = await world();
    const refused = await router.dispatch('providers.add', {
      provider: { id: 'local', label: 'Local', preset: 'custom', baseUrl: withPassword },
    });
    expect(refused).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      message: expect.stringContaining(BASE_URL_CREDENTIALS_MESSAGE),
      path: 'provider.baseUrl',
    });
    expect(BASE_URL_CREDENTIALS_MESSAGE).toContain('put the key in the API key field');
    expect(
      await router.dispatch('providers.add', {
        provider: { id: 'local', label: 'Local', preset: 'custom', baseUrl: fake.url.replace('http://', 'http://me@') },
      }),
    ).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(
      await router.dispatch('providers.add', {
        provider: { id: 'local', label: 'Local', preset: 'custom', baseUrl: fake.url },
      }),
    ).toMatchObject({ ok: true });
    expect(
      await router.dispatch('providers.update', { id: 'local', changes: { baseUrl: withPassword } }),
    ).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      message: expect.stringContaining(BASE_URL_CREDENTIALS_MESSAGE),
    });

    // Written into settings.json by hand: listed (the password hidden), so the person can fix it, and never used.
    await writeFile(
      join(dir, 'settings.json'),
      JSON.stringify({
        providers: [
          { id: 'byhand', label: 'By hand', preset: 'custom', baseUrl: withPassword, models: [{ id: 'llama3.1:8b' }] },
        ],
      }),
    );
    const second = await world();
    const listed = await second.router.dispatch('providers.list', {});
    expect(listed).toMatchObject({
      ok: true,
      value: { providers: [{ id: 'anthropic' }, { id: 'byhand', baseUrl: expect.stringContaining('me:***@') }] },
    });
    expect(JSON.stringify(listed)).not.toContain('hunter2');
    const words = `Provider 'By hand' is not used. ${BASE_URL_CREDENTIALS_MESSAGE}`;
    expect(await second.router.dispatch('providers.check', { id: 'byhand' })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      message: expect.stringContaining(words),
      hostMessage: { code: 'provider-errors.base-url-credentials', params: { provider: 'By hand' } },
    });
    expect(await second.router.dispatch('providers.listModels', { id: 'byhand' })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      message: expect.stringContaining(words),
    });
    await expect(
      second.registry.router.stream({
        model: 'byhand:llama3.1:8b',
        messages: [{ role: 'user', content: 'hi' }],
        maxTokens: 10,
      }),
    ).rejects.toMatchObject({
      kind: 'bad-request',
      message: expect.stringContaining(words),
      hostMessage: { code: 'provider-errors.base-url-credentials', params: { provider: 'By hand' } },
    });
    expect(fake.requests).toEqual([]);
    // Editing anything else says what to fix first.
    expect(
      await second.router.dispatch('providers.update', { id: 'byhand', changes: { label: 'Mine' } }),
    ).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      message: expect.stringContaining(BASE_URL_CREDENTIALS_MESSAGE),
    });
    expect(
      await second.router.dispatch('providers.update', { id: 'byhand', changes: { baseUrl: fake.url } }),
    ).toMatchObject({ ok: true });
  });

  it("does not use Anthropic's base URL when it holds a password (ANTHROPIC_BASE_URL or settings.json), and never shows the password", async () => {
    const fake = await FakeAnthropic.start({ apiKey: 'sk-ant-right-0123456789' });
    fakes.push(fake);
    const { router, registry } = await world({
      ANTHROPIC_API_KEY: 'sk-ant-right-0123456789',
      ANTHROPIC_BASE_URL: fake.url.replace('http://', 'http://me:hunter2@'),
    });
    const words = `Anthropic's base URL (ANTHROPIC_BASE_URL or settings.json baseURL) is not used. ${BASE_URL_CREDENTIALS_MESSAGE}`;
    expect(await router.dispatch('providers.check', { id: 'anthropic' })).toEqual({
      ok: true,
      value: {
        ok: false,
        message: words,
        hostMessage: { code: 'provider-errors.anthropic-base-url-credentials', params: {} },
      },
    });
    expect(await router.dispatch('providers.listModels', { id: 'anthropic' })).toMatchObject({
      ok: false,
      message: expect.stringContaining(words),
    });
    await expect(
      registry.router.stream({ model: 'claude-sonnet-5', messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 }),
    ).rejects.toMatchObject({
      message: words,
      hostMessage: { code: 'provider-errors.anthropic-base-url-credentials' },
    });
    expect(fake.modelRequests).toEqual([]);
    expect(fake.requests).toEqual([]);
    const listed = await router.dispatch('providers.list', {});
    expect(listed).toMatchObject({
      ok: true,
      value: { providers: [{ id: 'anthropic', baseUrl: expect.stringContaining('me:***@') }] },
    });
    expect(JSON.stringify(listed)).not.toContain('hunter2');
  });

  it("fetches Anthropic's models from its models endpoint, page after page, and keeps the person's list in settings.json", async () => {
    // Two models a page: the listing must follow has_more / after_id to the end.
    const fake = await FakeAnthropic.start({ apiKey: 'sk-ant-right-0123456789', modelsPageSize: 2 });
    fakes.push(fake);
    const { router, settings } = await world({
      ANTHROPIC_API_KEY: 'sk-ant-right-0123456789',
      ANTHROPIC_BASE_URL: fake.url,
    });

    const listed = await router.dispatch('providers.listModels', { id: 'anthropic' });
    expect(listed).toEqual({
      ok: true,
      value: {
        models: [
          {
            id: 'claude-fable-5-1',
            label: 'Claude Fable 5.1',
            contextWindow: 200000,
            takesImages: true,
            tier: 'smart',
            reasoning: 'adaptive',
            contextManagement: true,
          },
          {
            id: 'claude-opus-5',
            label: 'Claude Opus 5',
            contextWindow: 200000,
            takesImages: true,
            tier: 'smart',
            reasoning: 'adaptive',
            contextManagement: true,
          },
          {
            id: 'claude-sonnet-5',
            label: 'Claude Sonnet 5',
            contextWindow: 200000,
            takesImages: true,
            tier: 'balanced',
            reasoning: 'adaptive',
            contextManagement: true,
          },
          {
            id: 'claude-haiku-4-5',
            label: 'Claude Haiku 4.5',
            contextWindow: 200000,
            takesImages: true,
            tier: 'fast',
            reasoning: 'budget',
            contextManagement: false,
          },
          {
            id: 'claude-sonnet-4-5-20250929',
            label: 'Claude Sonnet 4.5',
            contextWindow: 200000,
            takesImages: true,
            tier: 'balanced',
            reasoning: 'budget',
            contextManagement: false,
          },
          {
            id: 'claude-3-haiku-20240307',
            label: 'Claude Haiku 3',
            contextWindow: 200000,
            takesImages: true,
            tier: 'fast',
            reasoning: 'none',
            contextManagement: false,
          },
        ],
      },
    });
    expect(fake.modelRequests.map((request) => request.query)).toEqual([
      { limit: '1000' },
      { limit: '1000', after_id: 'claude-opus-5' },
      { limit: '1000', after_id: 'claude-haiku-4-5' },
    ]);
    expect(await router.dispatch('providers.check', { id: 'anthropic', model: 'claude-opus-5' })).toEqual({
      ok: true,
      value: { ok: true, message: "Connected; 'claude-opus-5' is available." },
    });
    expect(await router.dispatch('providers.check', { id: 'anthropic', model: 'claude-nope' })).toEqual({
      ok: true,
      value: { ok: false, message: expect.stringContaining("Check that the model 'claude-nope' exists") },
    });

    // Saved: a fetched model, a typed one (tier and ranks from the middle), one marked as taking no images.
    const saved = await router.dispatch('providers.update', {
      id: 'anthropic',
      changes: {
        models: [
          { id: 'claude-sonnet-5', label: 'Claude Sonnet 5' },
          { id: 'claude-3-haiku-20240307', label: 'Claude Haiku 3', tier: 'fast', takesImages: false },
          { id: 'claude-new' },
        ],
      },
    });
    expect(saved).toMatchObject({
      ok: true,
      value: {
        providers: [
          {
            id: 'anthropic',
            models: [
              { id: 'claude-sonnet-5', costRank: 2 },
              { id: 'claude-3-haiku-20240307', takesImages: false },
              { id: 'claude-new', label: 'claude-new', tier: 'balanced', costRank: 50 },
            ],
          },
        ],
      },
    });
    expect(settings.catalog().map((m) => [m.key, m.providerLabel, m.takesImages])).toEqual([
      ['claude-sonnet-5', 'Anthropic', true],
      ['claude-3-haiku-20240307', 'Anthropic', false],
      ['claude-new', 'Anthropic', true],
    ]);
    const file = JSON.parse(await readFile(settings.filePath, 'utf8')) as { models: unknown[] };
    expect(file.models).toEqual([
      {
        id: 'claude-sonnet-5',
        label: 'Claude Sonnet 5',
        tier: 'balanced',
        costRank: 2,
        speedRank: 2,
        intelligenceRank: 3,
        contextWindow: 200000,
      },
      {
        id: 'claude-3-haiku-20240307',
        label: 'Claude Haiku 3',
        tier: 'fast',
        costRank: 50,
        speedRank: 50,
        intelligenceRank: 50,
        takesImages: false,
      },
      { id: 'claude-new', label: 'claude-new', tier: 'balanced', costRank: 50, speedRank: 50, intelligenceRank: 50 },
    ]);
    // Only its models change here, and never to nothing.
    expect(await router.dispatch('providers.update', { id: 'anthropic', changes: { models: [] } })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      message: expect.stringContaining('at least one Anthropic model'),
    });
    expect(
      await router.dispatch('providers.update', { id: 'anthropic', changes: { baseUrl: 'http://elsewhere' } }),
    ).toMatchObject({ ok: false, code: 'INVALID_INPUT', path: 'changes.baseUrl' });
  });

  it("takes how a model reasons and whether the API manages its context from Anthropic's listing, over Berth's id table", async () => {
    const fake = await FakeAnthropic.start({
      models: [
        // Berth's table says an old Claude 3 does not think and an unknown new Claude thinks adaptively: the listing says otherwise.
        {
          id: 'claude-3-quill-20270101',
          display_name: 'Claude Quill',
          created_at: '2027-01-01T00:00:00Z',
          thinking: 'adaptive',
          compaction: true,
        },
        { id: 'claude-lumen-6', display_name: 'Claude Lumen 6', created_at: '2026-12-01T00:00:00Z', thinking: 'none' },
      ],
    });
    fakes.push(fake);
    const { router, settings } = await world({ ANTHROPIC_API_KEY: 'sk-ant-0123456789', ANTHROPIC_BASE_URL: fake.url });
    const answer = await router.dispatch('providers.listModels', { id: 'anthropic' });
    if (!answer.ok) throw new Error(answer.message);
    const listed = answer.value as MethodOutput<'providers.listModels'>;
    expect(listed.models).toEqual([
      {
        id: 'claude-3-quill-20270101',
        label: 'Claude Quill',
        takesImages: true,
        reasoning: 'adaptive',
        contextManagement: true,
      },
      { id: 'claude-lumen-6', label: 'Claude Lumen 6', takesImages: true, reasoning: 'none', contextManagement: false },
    ]);
    // Saved as Settings saves a fetched list: what the listing said goes with each model.
    const saved = await router.dispatch('providers.update', { id: 'anthropic', changes: { models: listed.models } });
    expect(saved.ok).toBe(true);
    expect(settings.reasoningSupport('claude-3-quill-20270101')).toBe('adaptive');
    expect(settings.reasoningSupport('claude-lumen-6')).toBe('none');
    expect(settings.contextManagement('claude-3-quill-20270101')).toBe(true);
    expect(settings.contextManagement('claude-lumen-6')).toBe(false);
    expect(settings.view().models.map((m) => [m.id, m.reasoning])).toEqual([
      ['claude-3-quill-20270101', 'adaptive'],
      ['claude-lumen-6', 'none'],
    ]);
    // The providers view shows them back, so saving the list again (a label changed) keeps them.
    const view = await router.dispatch('providers.list', {});
    if (!view.ok) throw new Error(view.message);
    const again =
      (view.value as ProvidersView).providers[0]?.models.map((m) => ({ ...m, label: `${m.label ?? m.id}!` })) ?? [];
    await router.dispatch('providers.update', { id: 'anthropic', changes: { models: again } });
    expect(settings.reasoningSupport('claude-3-quill-20270101')).toBe('adaptive');
    expect(settings.contextManagement('claude-3-quill-20270101')).toBe(true);
    expect(settings.reasoningSupport('claude-lumen-6')).toBe('none');
  });

  it('says exactly what is wrong with Anthropic: no key, a rejected key, nothing listening', async () => {
    const fake = await FakeAnthropic.start({ apiKey: 'sk-ant-right-0123456789' });
    fakes.push(fake);
    const noKey = await world();
    expect(await noKey.router.dispatch('providers.listModels', { id: 'anthropic' })).toMatchObject({
      ok: false,
      code: 'SERVER_ERROR',
      message: expect.stringContaining('Add your Anthropic API key first'),
    });
    expect(await noKey.router.dispatch('providers.check', { id: 'anthropic' })).toEqual({
      ok: true,
      value: { ok: false, message: expect.stringContaining('Add your Anthropic API key first') },
    });

    const wrongKey = await world({ ANTHROPIC_API_KEY: 'sk-ant-wrong-0123456789', ANTHROPIC_BASE_URL: fake.url });
    expect(await wrongKey.router.dispatch('providers.listModels', { id: 'anthropic' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('The API key was rejected (401: invalid x-api-key)'),
    });
    expect(fake.modelRequests).toHaveLength(1);

    const port = await closedPort();
    const nowhere = await world({
      ANTHROPIC_API_KEY: 'sk-ant-right-0123456789',
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    });
    expect(await nowhere.router.dispatch('providers.listModels', { id: 'anthropic' })).toMatchObject({
      ok: false,
      message: expect.stringContaining(`Could not reach http://127.0.0.1:${port}: nothing is listening there`),
    });
  });

  it("checks a saved key with the provider's cheapest call: works, refused in the provider's words, unchecked offline", async () => {
    const anthropicFake = await FakeAnthropic.start({ apiKey: 'sk-ant-right-0123456789' });
    const openai = await FakeOpenAi.start({ apiKey: 'sk-right-0123456789', models: ['gpt-4o'] });
    fakes.push(anthropicFake, openai);
    const { router, values } = await world({ ANTHROPIC_BASE_URL: anthropicFake.url });

    await router.dispatch('providers.setKey', { id: 'anthropic', apiKey: 'sk-ant-wrong-0123456789' });
    expect(await router.dispatch('providers.checkKey', { id: 'anthropic' })).toEqual({
      ok: true,
      value: { result: 'refused', provider: 'Anthropic', status: 401, detail: 'invalid x-api-key' },
    });
    // The cheapest call: one page of one model.
    expect(anthropicFake.modelRequests.at(-1)).toEqual({ path: '/v1/models', query: { limit: '1' } });
    await router.dispatch('providers.setKey', { id: 'anthropic', apiKey: 'sk-ant-right-0123456789' });
    expect(await router.dispatch('providers.checkKey', { id: 'anthropic' })).toEqual({
      ok: true,
      value: { result: 'works' },
    });

    await router.dispatch('providers.add', {
      provider: { id: 'openai', label: 'OpenAI', preset: 'openai', baseUrl: openai.url },
      apiKey: 'sk-wrong-0123456789',
    });
    expect(await router.dispatch('providers.checkKey', { id: 'openai' })).toEqual({
      ok: true,
      value: { result: 'refused', provider: 'OpenAI', status: 401, detail: 'Incorrect API key provided.' },
    });
    await router.dispatch('providers.setKey', { id: 'openai', apiKey: 'sk-right-0123456789' });
    expect(await router.dispatch('providers.checkKey', { id: 'openai' })).toEqual({
      ok: true,
      value: { result: 'works' },
    });

    // Offline: the key stays saved, unchecked, and the reason says nothing answered.
    const port = await closedPort();
    await router.dispatch('providers.update', { id: 'openai', changes: { baseUrl: `http://127.0.0.1:${port}/v1` } });
    await router.dispatch('providers.setKey', { id: 'openai', apiKey: 'sk-offline-0123456789' });
    const offline = await router.dispatch('providers.checkKey', { id: 'openai' });
    expect(offline).toMatchObject({
      ok: true,
      value: { result: 'unchecked', reason: expect.stringContaining(`127.0.0.1:${port}`) },
    });
    expect([...values.values()]).toContain('sk-offline-0123456789');
  });
});
