import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { ChatEngine } from '../../app/chat/chat-engine';
import { ChatEventLog, ScriptedGate } from '../../app/chat/chat-test-support';
import { ConversationStore } from '../../app/chat/conversation-store';
import { AnthropicProvider } from '../../app/providers/llm-provider';

// A hidden (redacted) thinking block through the real Anthropic client and the fake: said to the
// renderer, saved as opaque data, and sent back as it came in the turn's tool-use follow-up (the fake
// refuses it dropped or forged).

describe('redacted thinking through the chat engine', () => {
  let dir: string;
  let fake: FakeAnthropic;
  let store: ConversationStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-redacted-'));
    fake = await FakeAnthropic.start({ apiKey: 'sk-r' });
    store = await ConversationStore.open({ dir });
  });
  afterEach(async () => {
    await fake.close();
    await store.flushIndex();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps a hidden block as opaque data and sends it back unchanged through the tool round', async () => {
    const log = new ChatEventLog();
    const engine = new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'sk-r', baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => [{ server: 'fs', tool: { name: 'read', inputSchema: { type: 'object' } } }],
      gate: new ScriptedGate(),
      runner: { callTool: async () => ({ content: [{ type: 'text', text: 'the file' }] }) },
      onEvent: log.onEvent,
      reasoning: () => ({ effort: 'low', support: 'budget' }),
    });
    fake.script([
      { thinking: 'secret plan', redactedThinking: true, toolUses: [{ name: 'fs__read', input: {} }] },
      { text: 'Read it.' },
    ]);
    const conversation = await store.create({ model: 'claude-haiku-4-5' });
    expect(await (await engine.send(conversation.id, 'read')).done).toEqual({
      status: 'finished',
      stopReason: 'end_turn',
    });
    expect(fake.requests[0]?.body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 2048 },
      max_tokens: 4096 + 2048,
    });
    expect(log.of('thinking-delta')).toEqual([expect.objectContaining({ text: '', redacted: true })]);
    const saved = (await store.get(conversation.id)).messages[1]?.content[0];
    expect(saved).toEqual({
      type: 'thinking',
      thinking: '',
      redacted: expect.any(String),
      durationMs: expect.any(Number),
    });
    expect(JSON.stringify(saved)).not.toContain('secret plan');
    const sentBack = (fake.requests[1]?.body?.messages[1]?.content as Array<Record<string, unknown>>)[0];
    expect(sentBack).toEqual({ type: 'redacted_thinking', data: saved?.type === 'thinking' ? saved.redacted : '' });
  });
});
