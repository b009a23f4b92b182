import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LlmStreamRequest } from './llm-provider';
import { LlmError } from './llm-provider';
import type { SecretStore } from '../secrets/secret-store';
import { SettingsStore } from '../settings/settings-store';
import type { ProviderClient } from './provider-client';
import { ProviderRegistry, type OpenAiClientOptions } from './provider-registry';

const memorySecrets = (): SecretStore => {
  const values = new Map<string, string>();
  return {
    get: async (k) => values.get(k),
    set: async (k, v) => void values.set(k, v),
    delete: async (k) => void values.delete(k),
  };
};

/** A client that records what reached it and answers with its name. */
function recordingClient(name: string, seen: Array<{ client: string; request: LlmStreamRequest }>): ProviderClient {
  return {
    stream: async (request) => {
      seen.push({ client: name, request });
      return {
        content: [{ type: 'text', text: `from ${name}` }],
        stopReason: 'end_turn',
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
    listModels: async () => [{ id: `${name}-model` }],
    check: async () => undefined,
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-registry-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function world(env: NodeJS.ProcessEnv = {}) {
  const settings = await SettingsStore.open({ configDir: dir, secrets: memorySecrets(), env, warn: () => undefined });
  const seen: Array<{ client: string; request: LlmStreamRequest }> = [];
  const built: OpenAiClientOptions[] = [];
  const registry = new ProviderRegistry({
    settings,
    anthropic: recordingClient('anthropic', seen),
    openAiClient: (options) => {
      built.push(options);
      return recordingClient(`${options.providerId}@${options.baseURL}`, seen);
    },
  });
  return { settings, registry, seen, built };
}

const request = (model: string): LlmStreamRequest => ({
  model,
  maxTokens: 100,
  messages: [{ role: 'user', content: 'hi' }],
  tools: [{ name: 'echo', input_schema: { type: 'object' } }],
});

describe('ProviderRegistry', () => {
  it("routes each model key to its provider's client with the provider's own model id", async () => {
    const { settings, registry, seen, built } = await world();
    await settings.providers.add({
      id: 'ollama',
      label: 'Ollama',
      preset: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      models: [{ id: 'llama3.1:8b' }],
    });
    await settings.providers.add(
      {
        id: 'router',
        label: 'OpenRouter',
        preset: 'openrouter',
        baseUrl: 'https://openrouter.ai/api/v1',
        models: [{ id: 'openai/gpt-4o' }],
      },
      'sk-or-0123456789',
    );

    await registry.router.stream(request('claude-sonnet-5'));
    await registry.router.stream(request('ollama:llama3.1:8b'));
    await registry.router.stream(request('router:openai/gpt-4o'));
    expect(seen.map((s) => [s.client, s.request.model, s.request.tools?.length])).toEqual([
      ['anthropic', 'claude-sonnet-5', 1],
      ['ollama@http://127.0.0.1:11434/v1', 'llama3.1:8b', 1],
      ['router@https://openrouter.ai/api/v1', 'openai/gpt-4o', 1],
    ]);
    expect(built).toEqual([
      { providerId: 'ollama', label: 'Ollama', preset: 'ollama', baseURL: 'http://127.0.0.1:11434/v1' },
      {
        providerId: 'router',
        label: 'OpenRouter',
        preset: 'openrouter',
        baseURL: 'https://openrouter.ai/api/v1',
        apiKey: 'sk-or-0123456789',
      },
    ]);

    // Built once; rebuilt when the base URL changes.
    await registry.router.stream(request('ollama:llama3.1:8b'));
    expect(built).toHaveLength(2);
    await settings.providers.update('ollama', { baseUrl: 'http://10.0.0.5:11434/v1' });
    await registry.router.stream(request('ollama:llama3.1:8b'));
    expect(built).toHaveLength(3);
    expect(seen.at(-1)?.client).toBe('ollama@http://10.0.0.5:11434/v1');
  });

  it('sends no tools to a model marked as taking none', async () => {
    const { settings, registry, seen } = await world();
    await settings.providers.add({
      id: 'ollama',
      label: 'Ollama',
      preset: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      models: [{ id: 'tiny', supportsTools: false }],
    });
    await registry.router.stream(request('ollama:tiny'));
    expect(seen[0]?.request.tools).toBeUndefined();
    expect(seen[0]?.request.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('knows which models take images (set, guessed from the name, or the Anthropic list), and refuses images to one that does not before sending', async () => {
    const { settings, registry, seen } = await world({ ANTHROPIC_API_KEY: 'sk-ant-0123456789' });
    await settings.providers.add({
      id: 'ollama',
      label: 'Ollama',
      preset: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      models: [{ id: 'llava:7b' }, { id: 'llama3.1:8b' }, { id: 'mine', takesImages: true }],
    });
    await settings.setModels([
      { id: 'claude-sonnet-5', supportsTools: true },
      { id: 'claude-text', supportsTools: true, takesImages: false },
    ]);
    expect(
      ['ollama:llava:7b', 'ollama:llama3.1:8b', 'ollama:mine', 'claude-sonnet-5', 'claude-text', 'not-listed'].map(
        (key) => registry.takesImages(key),
      ),
    ).toEqual([true, false, true, true, false, true]);

    const withImage: LlmStreamRequest = {
      model: 'claude-text',
      maxTokens: 10,
      messages: [
        {
          role: 'user',
          content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }],
        },
      ],
    };
    await expect(registry.router.stream(withImage)).rejects.toMatchObject({
      kind: 'bad-request',
      unsupported: 'images',
      message: 'claude-text does not take images. Pick a model that takes images, or remove them.',
    });
    await expect(registry.router.stream({ ...withImage, model: 'ollama:llama3.1:8b' })).rejects.toBeInstanceOf(
      LlmError,
    );
    expect(seen).toEqual([]);
    await registry.router.stream({ ...withImage, model: 'ollama:llava:7b' });
    expect(seen).toHaveLength(1);
  });

  it('fails the turn of a conversation whose provider was removed, in words', async () => {
    const { settings, registry } = await world();
    await settings.providers.add({
      id: 'ollama',
      label: 'Ollama',
      preset: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      models: [{ id: 'llama3.1:8b' }],
    });
    await settings.providers.remove('ollama');
    const error = await registry.router.stream(request('ollama:llama3.1:8b')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({
      kind: 'not-found',
      message: expect.stringContaining("the provider 'ollama', which is no longer in Settings"),
    });
    // Not refused before the turn: the turn itself says what happened.
    expect(() => registry.assertReady('ollama:llama3.1:8b')).not.toThrow();
    expect(() => registry.client('ollama')).toThrow(/No provider 'ollama'/);
  });

  it('is ready per provider: local ones need no key, hosted ones and Anthropic do', async () => {
    const { settings, registry } = await world();
    await settings.providers.add({
      id: 'ollama',
      label: 'Ollama',
      preset: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      models: [{ id: 'm' }],
    });
    await settings.providers.add({
      id: 'openai',
      label: 'OpenAI',
      preset: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      models: [{ id: 'gpt-4o' }],
    });
    expect(() => registry.assertReady('ollama:m')).not.toThrow();
    expect(() => registry.assertReady('claude-sonnet-5')).toThrow(/Anthropic API key/);
    expect(() => registry.assertReady('openai:gpt-4o')).toThrow(/Add the API key of OpenAI in Settings/);
    await expect(registry.router.stream(request('openai:gpt-4o'))).rejects.toMatchObject({ kind: 'auth' });
    await settings.providers.setKey('openai', 'sk-0123456789');
    expect(() => registry.assertReady('openai:gpt-4o')).not.toThrow();
    const withKey = await world({ ANTHROPIC_API_KEY: 'sk-ant-0123456789' });
    expect(() => withKey.registry.assertReady('claude-sonnet-5')).not.toThrow();
  });
});
