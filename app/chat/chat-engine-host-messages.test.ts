import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { AnthropicProvider } from '../providers/llm-provider';
import { ChatEngine } from './chat-engine';
import type { ChatEngineOptions } from './chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, offeredTool, openChatStore } from './chat-test-support';
import { ConversationStore } from './conversation-store';

// A turn's failures and notices reach the person as a code and its facts (chat-error.*, chat-notice.*), beside
// the English the chat always sent: through the engine, the real SDK and the fake Messages API.

const MODEL = 'claude-sonnet-5';
const WINDOW = 4_000;
const paragraph = (turn: number, words = 220) =>
  Array.from({ length: words }, (_, index) => `fact${turn}x${index}`).join(' ');

describe('ChatEngine: what it tells the person carries a code', () => {
  let fake: FakeAnthropic;
  let world: { dir: string; store: ConversationStore; log: ChatEventLog };

  beforeEach(async () => {
    fake = await FakeAnthropic.start({
      apiKey: 'k',
      contextWindow: WINDOW,
      fallback: (request) =>
        typeof request.body?.system === 'string' && request.body.system.includes('summar')
          ? { text: 'SUMMARY: facts were listed.' }
          : { text: `Noted. ${paragraph(99, 60)}` },
    });
    world = await openChatStore('berth-chat-codes-');
  });
  afterEach(async () => {
    await fake.close();
    await closeChatStore(world);
  });

  function engine(overrides: Partial<ChatEngineOptions> = {}): ChatEngine {
    return new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 }),
      store: world.store,
      tools: () => [offeredTool('notes', 'save')],
      gate: new ScriptedGate(),
      runner: { callTool: async () => ({ content: [{ type: 'text', text: 'saved' }] }) },
      onEvent: world.log.onEvent,
      maxTokens: 500,
      modelName: () => 'Claude Sonnet 5',
      ...overrides,
    });
  }

  it('a provider failure: turn-failed holds its English and its code with the retry-after seconds', async () => {
    fake.script([
      { error: { status: 429, type: 'rate_limit_error', message: 'Slow down', headers: { 'retry-after': '30' } } },
    ]);
    const conversation = await world.store.create({ model: MODEL });
    // One attempt: the failure as it ends the turn once the waits are over (host-chat-waits.test.ts waits them).
    const outcome = await (await engine({ retryPolicy: { maxAttempts: 1 } }).send(conversation.id, 'Hi')).done;
    const hostMessage = {
      code: 'chat-error.api-rate-limited',
      params: { status: 429, detail: 'Slow down', retryAfter: 30 },
    };
    const message = 'Rate limited by the API (429: Slow down). Try again in 30 s.';
    expect(outcome).toEqual({ status: 'failed', message, hostMessage });
    // The message nothing answered is saved marked failed with the same reason, coded (a reload shows it).
    const [person] = (await world.store.get(conversation.id)).messages;
    expect(person?.failed).toEqual({ reason: message, reasonMessage: hostMessage });
    expect(world.log.of('turn-failed')).toEqual([
      {
        type: 'turn-failed',
        conversationId: conversation.id,
        turnId: expect.any(String),
        message,
        hostMessage,
        failedMessageId: person?.id,
      },
    ]);
  });

  it('a model that takes no tools: the notice names the model as a fact', async () => {
    fake.script([{ text: 'Without tools.' }]);
    const conversation = await world.store.create({ model: MODEL });
    await (
      await engine({ takesTools: () => false }).send(conversation.id, 'Hi')
    ).done;
    expect(world.log.of('turn-notice').map(({ message, hostMessage }) => ({ message, hostMessage }))).toEqual([
      {
        message:
          'Claude Sonnet 5 cannot use tools, so this reply has none. Pick another model in the message box to use tools.',
        hostMessage: { code: 'chat-notice.no-tools', params: { model: 'Claude Sonnet 5' } },
      },
    ]);
  });

  it('compaction: the notice carries the token counts as numbers', async () => {
    const chat = engine({ contextWindow: () => WINDOW });
    const conversation = await world.store.create({ model: MODEL });
    for (let turn = 1; turn <= 8 && world.log.of('turn-notice').length === 0; turn += 1)
      await (
        await chat.send(conversation.id, paragraph(turn))
      ).done;
    const [notice] = world.log.of('turn-notice');
    const saved = await world.store.get(conversation.id);
    const cut = saved.contextCut;
    expect(notice?.hostMessage).toEqual({
      code: 'chat-notice.compacted',
      params: {
        before: cut?.tokensBefore,
        messages: cut?.messageCount,
        model: 'Claude Sonnet 5',
        after: cut?.tokensAfter,
      },
    });
    expect(notice?.message).toContain(`summarised its ${cut?.messageCount ?? 0} oldest messages with Claude Sonnet 5`);
  });

  it('a conversation set to ask stops with the window and the estimate as numbers', async () => {
    const chat = engine({ contextWindow: () => WINDOW });
    const conversation = await world.store.create({ model: MODEL });
    await world.store.updateSettings(conversation.id, { contextPolicy: 'ask' });
    let failed;
    for (let turn = 1; turn <= 12 && failed === undefined; turn += 1) {
      const outcome = await (await chat.send(conversation.id, paragraph(turn))).done;
      if (outcome.status === 'failed') failed = outcome;
    }
    expect(failed).toMatchObject({
      contextFull: true,
      message: expect.stringMatching(/^This conversation no longer fits Claude Sonnet 5's context window/),
      hostMessage: {
        code: 'chat-error.context-full-ask',
        params: { model: 'Claude Sonnet 5', estimate: expect.any(Number), window: WINDOW },
      },
    });
    expect(world.log.of('turn-failed').at(-1)?.hostMessage?.code).toBe('chat-error.context-full-ask');
  });

  it('a tool result Berth wrote carries its code; a host failure keeps the code it came with; a plain error has none', async () => {
    const coded = Object.assign(new Error("tools/call on server 'notes' did not answer within 30 s"), {
      hostMessage: { code: 'host-error.timeout', params: { server: 'notes', seconds: 30 } },
    });
    const failures = [coded, new Error('something the SDK threw')];
    fake.script([
      { toolUses: [{ name: 'gone__tool', input: {} }] },
      { toolUses: [{ name: 'notes__save', input: {} }] },
      { toolUses: [{ name: 'notes__save', input: {} }] },
      { text: 'Done.' },
    ]);
    const conversation = await world.store.create({ model: MODEL });
    const chat = engine({
      runner: {
        callTool: async () => {
          throw failures.shift();
        },
      },
    });
    await (
      await chat.send(conversation.id, 'Save it')
    ).done;
    const results = (await world.store.get(conversation.id)).messages
      .flatMap((message) => message.content)
      .filter((block) => block.type === 'tool_result');
    expect(results.map((result) => [result.content, result.outcomeMessage])).toEqual([
      [
        [
          {
            type: 'text',
            text: 'There is no tool named "gone__tool" in this conversation. Use only the tools offered.',
          },
        ],
        { code: 'tool-outcome.no-such-tool', params: { name: 'gone__tool' } },
      ],
      [
        [{ type: 'text', text: "tools/call on server 'notes' did not answer within 30 s" }],
        { code: 'host-error.timeout', params: { server: 'notes', seconds: 30 } },
      ],
      [[{ type: 'text', text: 'something the SDK threw' }], undefined],
    ]);
  });

  it('too many tools: turn-started carries the warning with the count and the limit as numbers', async () => {
    fake.script([{ text: 'Fine.' }]);
    const conversation = await world.store.create({ model: MODEL });
    const chat = engine({
      tools: () => [offeredTool('notes', 'save'), offeredTool('notes', 'list'), offeredTool('web', 'search')],
      toolCountWarningAt: 2,
    });
    await (
      await chat.send(conversation.id, 'Hi')
    ).done;
    const [started] = world.log.of('turn-started');
    expect(started?.toolCountWarningMessage).toEqual({
      code: 'chat-notice.too-many-tools',
      params: { count: 3, countAt: 2 },
    });
    expect(started?.toolCountWarning).toMatch(/^3 tools are offered to the model\. Above about 2 it picks/);
  });
});
