import { afterEach, describe, expect, it } from 'vitest';
import type { FakeTurn, RecordedRequest } from '../../e2e/fake-llm/fake-anthropic';
import type { ChatEvent, Conversation } from '../../shared/domain/chat';
import type { SamplingAnswerPayload } from '../../shared/domain/pending';
import {
  addEverything,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function setup(): Promise<ChatWorld> {
  world = await startChatWorld();
  await world.harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
  await addEverything(world.harness);
  return world;
}

const echo = (message: string) => ({ name: 'everything__echo', input: { message } });
const PLAN = 'The person wants three echoes. I will call echo with one, two, then three, and then answer.';

type Block = { type: string; thinking?: string; signature?: string };
const blocksOf = (request: RecordedRequest | undefined, index: number): Block[] => {
  const content = request?.body?.messages[index]?.content;
  return typeof content === 'string' || content === undefined ? [] : (content as Block[]);
};

describe('host reasoning with the fake Messages API', () => {
  it('asks for thinking, streams it, saves it, and sends it back with its signature through three tool calls', async () => {
    const { harness, fake } = await setup();
    const { id } = await newConversation(harness);
    await harness.call<Conversation>('chat.setReasoning', { id, level: 'high' });
    // The fake refuses (400, the API's words) any follow-up whose first assistant message lost or changed its thinking.
    fake.script([
      { thinking: PLAN, toolUses: [echo('one')], delayMsPerChunk: 5 },
      { toolUses: [echo('two')] },
      { toolUses: [echo('three')] },
      { text: 'Echoed one, two and three.' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Echo one, two, three' });
    const consent = await pendingAfter(harness, mark, 'tool-call');
    await harness.call('pending.answer', { id: consent.id, response: { decision: 'always-tool' } });
    const end = await turnEndAfter(harness, mark, id);
    expect(end).toMatchObject({ type: 'turn-finished', stopReason: 'end_turn' });

    // Claude Sonnet 5 thinks adaptively: the effort goes in output_config, the thinking budget on top of max_tokens.
    expect(fake.requests).toHaveLength(4);
    expect(fake.requests[0]?.body).toMatchObject({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
      max_tokens: 4096 + 24_576,
    });
    // Every follow-up of the turn carries the thinking block first, exactly as it came.
    const sent = fake.requests.slice(1).map((request) => blocksOf(request, 1)[0]);
    for (const block of sent) {
      expect(block).toEqual({ type: 'thinking', thinking: PLAN, signature: expect.any(String) });
    }
    expect(new Set(sent.map((block) => block?.signature)).size).toBe(1);

    const streamed = harness.events
      .slice(mark)
      .flatMap((event) =>
        event.topic === 'chat.event' && (event.payload as ChatEvent).type === 'thinking-delta'
          ? [(event.payload as Extract<ChatEvent, { type: 'thinking-delta' }>).text]
          : [],
      );
    expect(streamed.join('')).toBe(PLAN);

    const saved = await harness.call<Conversation>('chat.get', { id });
    const first = saved.messages.find((message) => message.role === 'assistant');
    expect(first?.content[0]).toMatchObject({ type: 'thinking', thinking: PLAN, signature: sent[0]?.signature });
    const thought = first?.content[0];
    expect(thought?.type === 'thinking' ? thought.durationMs : undefined).toBeGreaterThanOrEqual(0);
    // The thinking tokens the API reported, summed for the turn.
    expect(end.type === 'turn-finished' ? end.usage?.reasoningTokens : undefined).toBeGreaterThan(0);

    // The next turn asks again and still sends the earlier turn's blocks as they were.
    fake.script([{ text: 'Yes.' }]);
    const again = harness.events.length;
    await harness.call('chat.send', { id, text: 'Done?' });
    expect(await turnEndAfter(harness, again, id)).toMatchObject({ type: 'turn-finished' });
    expect(blocksOf(fake.requests[4], 1)[0]).toEqual(sent[0]);
  }, 60_000);

  it('a server’s sampling request does not reason unless the person allows it, while the chat does', async () => {
    const { harness, fake } = await setup();
    const { id } = await newConversation(harness);
    await harness.call('chat.setReasoning', { id, level: 'medium' });
    expect(await harness.call('chat.reasoningDefaults', {})).toEqual({ level: 'off', sampling: false });
    const sampleOnce = async () => {
      const answer: FakeTurn = { text: 'A haiku.', thinking: 'Five, seven, five: about the sea.' };
      fake.script([
        { toolUses: [{ name: 'everything__trigger-sampling-request', input: { prompt: 'Haiku' } }] },
        answer,
        { text: 'ok' },
      ]);
      const mark = harness.events.length;
      const before = fake.requests.length;
      await harness.call('chat.send', { id, text: 'Sample' });
      const consent = await pendingAfter(harness, mark, 'tool-call');
      await harness.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });
      const review = await pendingAfter(harness, mark, 'sampling');
      await harness.call('pending.answer', { id: review.id, response: { decision: 'approve' } });
      const reply = await pendingAfter(harness, mark, 'sampling-answer');
      await harness.call('pending.answer', { id: reply.id, response: { decision: 'approve' } });
      expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
      // What the server got back: the answer only, never the reasoning.
      const toServer = JSON.stringify(fake.requests.at(-1)?.body?.messages.at(-1));
      expect(toServer).toContain('A haiku.');
      expect(toServer).not.toContain('Five, seven, five');
      return { request: fake.requests[before + 1], answer: reply.payload as SamplingAnswerPayload };
    };

    const chatRequest = (): RecordedRequest | undefined => fake.requests.at(-1);
    const sampling = await sampleOnce();
    expect(chatRequest()?.body).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'medium' } });
    expect(sampling.request?.body).not.toHaveProperty('thinking');
    expect(sampling.request?.body).not.toHaveProperty('output_config');
    // Not allowed: the review shows no reasoning, and no reasoning tokens.
    expect(sampling.answer.result).not.toHaveProperty('reasoning');
    expect(sampling.answer.result.usage).not.toHaveProperty('reasoningTokens');

    // Allowed: sampling reasons at the global default's level.
    expect(await harness.call('chat.setReasoningDefaults', { level: 'low', sampling: true })).toEqual({
      level: 'low',
      sampling: true,
    });
    const allowed = await sampleOnce();
    expect(allowed.request?.body).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } });
    // The review shows the model's thinking, and the usage counts its tokens (part of the output).
    expect(allowed.answer.result.reasoning).toMatchObject({ text: 'Five, seven, five: about the sea.' });
    expect(allowed.answer.result.reasoning?.redacted).toBeUndefined();
    const usage = allowed.answer.result.usage;
    expect(usage?.reasoningTokens).toBeGreaterThan(0);
    expect(usage?.reasoningTokens).toBeLessThanOrEqual(usage?.outputTokens ?? 0);
  }, 60_000);
});
