import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import type { Conversation } from '../../shared/domain/chat';
import {
  addEverything,
  cleanEnv,
  newConversation,
  startChatWorld,
  TEST_API_KEY,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';
import { hostPerTest } from './host-harness';

// A conversation's own system prompt, temperature and longest reply reach the fake model with every request, beside
// the servers' instructions (which still go), for both providers; what a provider cannot take is refused with the fix.

let world: ChatWorld | undefined;
let openAi: FakeOpenAi | undefined;
const openAiHosts = hostPerTest('berth-host-chat-params-');
afterEach(async () => {
  await world?.close();
  world = undefined;
  await openAi?.close();
  openAi = undefined;
});

const PROMPT = 'You are a ship’s navigator. Answer in nautical terms.';

describe('host: per-conversation system prompt and parameters', () => {
  it('sends the person’s prompt before the server instructions, with the temperature and max_tokens (Anthropic)', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    const everything = await addEverything(harness);
    const { id } = await newConversation(harness);
    const saved = await harness.call<Conversation>('chat.setParams', {
      id,
      systemPrompt: PROMPT,
      temperature: 0.3,
      maxTokens: 777,
    });
    expect(saved).toMatchObject({ systemPrompt: PROMPT, temperature: 0.3, maxTokens: 777 });

    fake.script([{ text: 'Aye.' }]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Where are we?' });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    const body = fake.requests[0]?.body;
    expect(body).toMatchObject({ temperature: 0.3, max_tokens: 777 });
    const system = String(body?.system);
    expect(system.startsWith(`${PROMPT}\n\n`)).toBe(true);
    expect(system).toContain(
      `<server-instructions server="everything">\n${(everything.instructions ?? '').trim().slice(0, 100)}`,
    );

    // Kept with the conversation; null puts each back to the default.
    expect(await harness.call<Conversation>('chat.get', { id })).toMatchObject({
      systemPrompt: PROMPT,
      maxTokens: 777,
    });
    const cleared = await harness.call<Conversation>('chat.setParams', {
      id,
      systemPrompt: null,
      temperature: null,
      maxTokens: null,
    });
    expect([cleared.systemPrompt, cleared.temperature, cleared.maxTokens]).toEqual([undefined, undefined, undefined]);
    fake.script([{ text: 'Aye again.' }]);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'And now?' });
    await turnEndAfter(harness, mark, id);
    const next = fake.requests[1]?.body;
    expect(next).not.toHaveProperty('temperature');
    expect(next?.max_tokens).toBe(4096);
    expect(String(next?.system)).not.toContain(PROMPT);
  });

  it('refuses a temperature above 1 for an Anthropic model, saying why, and keeps what was set', async () => {
    world = await startChatWorld();
    const { harness } = world;
    const { id } = await newConversation(harness);
    await expect(
      harness.call('chat.setParams', { id, systemPrompt: null, temperature: 1.5, maxTokens: null }),
    ).rejects.toThrow(/INVALID_INPUT: .* takes a temperature from 0 to 1: choose 1 or less/);
    await expect(
      harness.call('chat.setParams', { id, systemPrompt: null, temperature: 2.5, maxTokens: null }),
    ).rejects.toThrow(/temperature is at most 2/);
    expect((await harness.call<Conversation>('chat.get', { id })).temperature).toBeUndefined();
  });

  it('sends temperature 1.5 and max_tokens to an OpenAI-compatible model; refuses more tokens than its window', async () => {
    openAi = await FakeOpenAi.start({ models: ['llama3.1:8b'] });
    const harness = await openAiHosts.start({ env: cleanEnv({}) });
    await harness.call('providers.add', {
      provider: {
        id: 'ollama',
        label: 'Ollama',
        preset: 'ollama',
        baseUrl: openAi.url,
        models: [{ id: 'llama3.1:8b', contextWindow: 8192 }],
      },
    });
    const { id } = await harness.call<Conversation>('chat.create', { model: 'ollama:llama3.1:8b' });
    await expect(
      harness.call('chat.setParams', { id, systemPrompt: null, temperature: null, maxTokens: 9000 }),
    ).rejects.toThrow(/INVALID_INPUT: ollama:llama3.1:8b reads and writes at most 8192 tokens in all/);
    await harness.call('chat.setParams', { id, systemPrompt: PROMPT, temperature: 1.5, maxTokens: 500 });
    openAi.script([{ text: 'Aye.' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Where are we?' });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    const body = openAi.requests[0]?.body;
    expect(body).toMatchObject({ temperature: 1.5, max_tokens: 500 });
    expect(body?.messages[0]).toEqual({ role: 'system', content: PROMPT });
  });
});
