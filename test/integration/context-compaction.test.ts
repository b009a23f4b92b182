import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import type { FakeTurn, RecordedRequest } from '../../e2e/fake-llm/fake-anthropic';
import { ChatEngine } from '../../app/chat/chat-engine';
import type { ChatEngineOptions } from '../../app/chat/chat-engine';
import {
  ChatEventLog,
  ScriptedGate,
  closeChatStore,
  offeredTool,
  openChatStore,
} from '../../app/chat/chat-test-support';
import { ConversationStore } from '../../app/chat/conversation-store';
import { SUMMARY_SYSTEM } from '../../app/chat/context/compactor';
import { AnthropicProvider } from '../../app/providers/llm-provider';
import { isPersonMessage } from '../../shared/domain/chat';
import { conversationUsage, sumUsage, turnUsages } from '../../shared/domain/chat-usage';

// A conversation driven past the model's window, against the fake Messages API holding the model to
// it (400 "prompt is too long" above it): Berth compacts (or drops, or asks) instead of failing.

const MODEL = 'claude-sonnet-5';
const WINDOW = 4_000;

const paragraph = (turn: number, words = 220) =>
  Array.from({ length: words }, (_, index) => `fact${turn}x${index}`).join(' ');

const isSummaryRequest = (request: RecordedRequest) => request.body?.system === SUMMARY_SYSTEM;
const requestText = (request: RecordedRequest | undefined) => JSON.stringify(request?.body?.messages ?? []);

describe('context that never runs out', () => {
  let fake: FakeAnthropic;
  let world: { dir: string; store: ConversationStore; log: ChatEventLog };
  /** What the fake answers a turn that is not a summary request. */
  let answer: (request: RecordedRequest) => FakeTurn;

  beforeEach(async () => {
    answer = () => ({ text: `Noted. ${paragraph(99, 60)}` });
    fake = await FakeAnthropic.start({
      apiKey: 'k',
      contextWindow: WINDOW,
      fallback: (request) =>
        isSummaryRequest(request)
          ? { text: 'SUMMARY: the user listed facts; the assistant noted them.' }
          : answer(request),
    });
    world = await openChatStore('berth-context-');
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
      runner: { callTool: async () => ({ content: [{ type: 'text', text: `saved ${paragraph(7, 40)}` }] }) },
      onEvent: world.log.onEvent,
      maxTokens: 500,
      contextWindow: () => WINDOW,
      ...overrides,
    });
  }

  it('compacts the oldest turns with the conversation’s model when the window fills, and goes on', async () => {
    const chat = engine();
    const conversation = await world.store.create({ model: MODEL });
    for (let turn = 1; turn <= 8; turn += 1) {
      const outcome = await (await chat.send(conversation.id, paragraph(turn))).done;
      expect(outcome).toEqual({ status: 'finished', stopReason: 'end_turn' });
    }
    expect(world.log.of('turn-failed')).toEqual([]);
    const saved = await world.store.get(conversation.id);
    // Nothing the person wrote is lost: every message stays saved.
    expect(saved.messages.filter(isPersonMessage)).toHaveLength(8);
    expect(saved.contextCut).toMatchObject({
      kind: 'compact',
      model: MODEL,
      summary: expect.stringContaining('SUMMARY'),
    });
    expect(saved.contextCut?.tokensAfter).toBeLessThan(saved.contextCut?.tokensBefore ?? 0);
    // The summary request went through the same provider, with the model, the oldest turns as a transcript.
    const summaries = fake.requests.filter(isSummaryRequest);
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries[0]?.body?.model).toBe(MODEL);
    expect(requestText(summaries[0])).toContain('fact1x0');
    // The last request: the summary in place of the oldest turns, the newest turn whole, and it fit.
    const last = fake.requests.filter((request) => !isSummaryRequest(request)).at(-1);
    expect(requestText(last)).toContain('SUMMARY: the user listed facts');
    expect(requestText(last)).not.toContain('fact1x0 ');
    expect(requestText(last)).toContain('fact8x0');
    expect(world.log.of('turn-notice').some((notice) => notice.message.includes('summarised its'))).toBe(true);

    // The header's meter: how full the window is for the next request, and what takes the room.
    const fill = await chat.contextFill(conversation.id);
    expect(fill).toMatchObject({ window: WINDOW, calibrated: true, policy: 'compact' });
    const { tools, system, history, attachments } = fill.parts;
    expect(tools + system + history + attachments).toBe(fill.tokens);
    expect(tools).toBeGreaterThan(0);
    expect(fill.tokens).toBeLessThan(WINDOW);
  });

  it('saves what the summary requests used with the reply, so the totals after a reload include the compaction', async () => {
    const chat = engine();
    const conversation = await world.store.create({ model: MODEL });
    for (let turn = 1; turn <= 8; turn += 1) await (await chat.send(conversation.id, paragraph(turn))).done;
    expect(fake.requests.some(isSummaryRequest)).toBe(true);
    // What each turn reported live, compaction included (the fake bills every request, the summary ones too).
    const live = sumUsage(world.log.of('turn-finished').flatMap((event) => (event.usage ? [event.usage] : [])));
    expect(live?.requests).toBe(fake.requests.length);

    await world.store.flushIndex();
    const reopened = await ConversationStore.open({ dir: world.dir });
    const saved = await reopened.get(conversation.id);
    const total = conversationUsage(saved.messages);
    expect(total).toMatchObject({
      inputTokens: live?.inputTokens,
      outputTokens: live?.outputTokens,
      requests: fake.requests.length,
    });
    // The turn that compacted shows the summary's cost under its answer, as it did live.
    const compacted = world.log.of('turn-finished').find((event) => (event.usage?.requests ?? 1) > 1);
    const replies = saved.messages.filter((message) => message.role === 'assistant');
    const shown = [...turnUsages(saved.messages).values()];
    expect(compacted?.usage).toBeDefined();
    expect(shown).toContainEqual(compacted?.usage);
    expect(replies).toHaveLength(8);
    await reopened.flushIndex();
  });

  it('after a refusal ("prompt is too long") with the conversation set to ask, Compact and retry answers the same message', async () => {
    // Berth does not know the window here: the provider's refusal is what it learns from.
    const chat = engine({ contextWindow: () => undefined });
    const conversation = await world.store.create({ model: MODEL });
    await world.store.updateSettings(conversation.id, { contextPolicy: 'ask' });
    let failed;
    for (let turn = 1; turn <= 12 && failed === undefined; turn += 1) {
      const outcome = await (await chat.send(conversation.id, paragraph(turn))).done;
      if (outcome.status === 'failed') failed = { turn, outcome };
    }
    expect(failed?.outcome).toMatchObject({
      status: 'failed',
      contextFull: true,
      message: expect.stringContaining('prompt is too long'),
    });
    expect(world.log.of('turn-failed').at(-1)).toMatchObject({ contextFull: true });
    const turn = failed?.turn ?? 0;

    const outcome = await (await chat.compactAndRetry(conversation.id)).done;
    expect(outcome).toEqual({ status: 'finished', stopReason: 'end_turn' });
    const last = fake.requests.filter((request) => !isSummaryRequest(request)).at(-1);
    // The failed message is answered once, alone: not merged with another.
    const lastUser = last?.body?.messages.at(-1);
    expect(JSON.stringify(lastUser)).toContain(`fact${turn}x0`);
    expect(requestText(last).split(`fact${turn}x0 `)).toHaveLength(2);
    const saved = await world.store.get(conversation.id);
    expect(saved.contextCut?.kind).toBe('compact');
    expect(saved.messages.filter(isPersonMessage)).toHaveLength(turn);
    expect(saved.messages.at(-1)?.role).toBe('assistant');
  });

  it('drop: leaves out the oldest whole turns, never a tool_use without its tool_result, and says so to the model', async () => {
    // Each turn: the model saves a note with the tool, then answers once the result is back.
    answer = (request) =>
      JSON.stringify(request.body?.messages.at(-1)).includes('tool_result')
        ? { text: `Saved. ${paragraph(98, 30)}` }
        : { toolUses: [{ name: 'notes__save', input: { text: paragraph(97, 30) } }] };
    const chat = engine();
    const conversation = await world.store.create({ model: MODEL });
    await world.store.updateSettings(conversation.id, { contextPolicy: 'drop' });
    for (let turn = 1; turn <= 6; turn += 1) {
      const outcome = await (await chat.send(conversation.id, paragraph(turn, 150))).done;
      expect(outcome).toEqual({ status: 'finished', stopReason: 'end_turn' });
    }
    const saved = await world.store.get(conversation.id);
    expect(saved.contextCut).toMatchObject({ kind: 'drop' });
    expect(saved.contextCut?.summary).toBeUndefined();
    expect(fake.requests.some(isSummaryRequest)).toBe(false);
    // The fake refuses unanswered tool_use and orphan tool_result: every request was answered, and
    // the first message of the last one is the person's, with the note first.
    const last = fake.requests.at(-1);
    const first = last?.body?.messages[0];
    expect(first?.role).toBe('user');
    expect(JSON.stringify(first)).toContain('oldest messages of this conversation were left out');
    expect(JSON.stringify(first)).not.toContain('tool_result');
    expect(requestText(last)).not.toContain('fact1x0 ');
  });
});
