import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../shared/domain/chat';
import type { LlmStreamRequest } from '../providers/llm-provider';
import { ChatService } from './chat-service';
import { RunningToolCalls } from '../pending/running-tool-calls';
import type { ProviderClient } from '../providers/provider-client';
import { ProviderRegistry } from '../providers/provider-registry';
import type { SecretStore } from '../secrets/secret-store';
import { SettingsStore } from '../settings/settings-store';

let dir: string;
let chat: ChatService | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-host-chat-providers-'));
});
afterEach(async () => {
  await chat?.close();
  chat = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** ChatService as host.ts builds it, with the registry in front of two recording clients and no servers. */
async function world() {
  const values = new Map<string, string>();
  const secrets: SecretStore = {
    get: async (k) => values.get(k),
    set: async (k, v) => void values.set(k, v),
    delete: async (k) => void values.delete(k),
  };
  const settings = await SettingsStore.open({ configDir: dir, secrets, env: {}, warn: () => undefined });
  const seen: Array<{ client: string; request: LlmStreamRequest }> = [];
  const client = (name: string): ProviderClient => ({
    stream: async (request) => {
      seen.push({ client: name, request });
      return {
        content: [{ type: 'text', text: `hello from ${name}` }],
        stopReason: 'end_turn',
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
    listModels: async () => [],
    check: async () => undefined,
  });
  const registry = new ProviderRegistry({
    settings,
    anthropic: client('anthropic'),
    openAiClient: (options) => client(options.providerId),
  });
  const events: ChatEvent[] = [];
  chat = await ChatService.open({
    configDir: dir,
    supervisor: { list: () => [], get: () => undefined, callTool: () => Promise.reject(new Error('no servers')) },
    consent: { approveToolCall: () => Promise.reject(new Error('no tools')), forgetConversation: () => undefined },
    toolCalls: new RunningToolCalls(),
    apps: { toolApp: () => undefined, turnContext: () => undefined, forgetConversation: () => undefined },
    settings,
    providers: registry,
    events: { emit: (topic, payload) => topic === 'chat.event' && events.push(payload as ChatEvent) },
    logs: { append: () => undefined },
    reportError: (what, error) => {
      throw new Error(`${what}: ${String(error)}`);
    },
  });
  const finished = async (): Promise<ChatEvent> => {
    for (let i = 0; i < 200; i++) {
      const last = events.find((e) => e.type === 'turn-finished' || e.type === 'turn-failed');
      if (last !== undefined) return last;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the turn did not end');
  };
  return { chat, settings, seen, events, finished };
}

describe('ChatService with model providers', () => {
  it("sends a local provider's model turn to its client without any API key, and remembers the conversation's model key", async () => {
    const { chat, settings, seen, finished } = await world();
    await settings.providers.add({
      id: 'ollama',
      label: 'Ollama',
      preset: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      models: [{ id: 'llama3.1:8b' }],
    });
    const conversation = await chat.create('ollama:llama3.1:8b');
    await chat.send(conversation.id, 'hi', undefined);
    expect(await finished()).toMatchObject({ type: 'turn-finished' });
    expect(seen.map((s) => [s.client, s.request.model])).toEqual([['ollama', 'llama3.1:8b']]);
    expect((await chat.get(conversation.id)).model).toBe('ollama:llama3.1:8b');
  });

  it('refuses, before saving anything, a message whose provider needs a key that is not set', async () => {
    const { chat, settings, seen } = await world();
    await settings.providers.add({
      id: 'openai',
      label: 'OpenAI',
      preset: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      models: [{ id: 'gpt-4o' }],
    });
    const conversation = await chat.create('openai:gpt-4o');
    await expect(chat.send(conversation.id, 'hi', undefined)).rejects.toMatchObject({
      code: 'NOT_READY',
      message: expect.stringContaining('Add the API key of OpenAI'),
    });
    // The same for Anthropic's models without its key, chosen for this message only.
    await expect(chat.send(conversation.id, 'hi', 'claude-sonnet-5')).rejects.toMatchObject({
      code: 'NOT_READY',
      message: expect.stringContaining('Anthropic API key'),
    });
    expect((await chat.get(conversation.id)).messages).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('fails the turn of a conversation whose provider was removed, in words, and keeps the conversation', async () => {
    const { chat, settings, finished } = await world();
    await settings.providers.add({
      id: 'ollama',
      label: 'Ollama',
      preset: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      models: [{ id: 'llama3.1:8b' }],
    });
    const conversation = await chat.create('ollama:llama3.1:8b');
    await settings.providers.remove('ollama');
    await chat.send(conversation.id, 'still there?', undefined);
    expect(await finished()).toMatchObject({
      type: 'turn-failed',
      message: expect.stringContaining("the provider 'ollama', which is no longer in Settings"),
    });
    expect((await chat.get(conversation.id)).model).toBe('ollama:llama3.1:8b');
  });
});
