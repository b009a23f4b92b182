import { afterEach, describe, expect, it } from 'vitest';
import type { SamplingUsageList } from '../../shared/contract/sampling';
import type { ServerState } from '../../shared/domain/server';
import {
  addEverything,
  eventAfter,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** server-everything's sampling tool, asking for far more tokens than anyone should spend unseen. */
const GREEDY_SAMPLING = {
  name: 'everything__trigger-sampling-request',
  input: { prompt: 'Write an epic', maxTokens: 100_000 },
};

describe('sampling cap and budget with server-everything and the fake Anthropic API', () => {
  it('caps max_tokens at the API, counts reported usage, refuses when the budget is spent, and keeps the count across a server restart', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addEverything(harness);
    const { id } = await newConversation(harness);

    // 1. Reviewed: the default cap turns 100,000 into 4,096, and the review says so.
    fake.script([
      { toolUses: [GREEDY_SAMPLING] },
      { text: 'An epic.', usage: { input_tokens: 1_200, output_tokens: 800 } },
      { text: 'first: {{lastToolResult}}' },
    ]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Sample a lot' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'always-server' },
    });
    const review = await pendingAfter(harness, mark, 'sampling');
    expect(review.payload.request.maxTokens).toBe(100_000);
    expect(review.payload.tokens).toEqual({
      requested: 100_000,
      proposed: 4_096,
      limitedBy: 'cap',
      limits: { maxTokens: 4_096, sessionBudget: 100_000 },
      used: 0,
    });
    await harness.call('pending.answer', { id: review.id, response: { decision: 'approve', allowForSession: true } });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'sampling-answer')).id,
      response: { decision: 'approve' },
    });
    await turnEndAfter(harness, mark, id);
    expect(fake.requests[1]?.body).toMatchObject({ model: 'claude-sonnet-5', max_tokens: 4_096 });
    await eventAfter(
      harness,
      mark,
      'sampling.usageChanged',
      (usage) => usage.server === 'everything' && usage.used === 2_000,
    );
    expect(await harness.call<SamplingUsageList>('sampling.usage', {})).toEqual({
      defaults: { maxTokens: 4_096, sessionBudget: 100_000 },
      servers: [
        {
          server: 'everything',
          limits: { maxTokens: 4_096, sessionBudget: 100_000 },
          custom: false,
          used: 2_000,
          inFlight: 0,
          requests: 1,
          refused: 0,
        },
      ],
    });

    // 2. Bad limits are refused with a clear error; good ones apply to the next request.
    const bad = await harness.host.dispatch('sampling.setLimits', {
      server: 'everything',
      limits: { maxTokens: 0, sessionBudget: 2_500 },
    });
    expect(bad).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      message: expect.stringContaining('The max tokens per request must be at least 1 token'),
    });
    const tooBig = await harness.host.dispatch('sampling.setLimits', {
      server: 'everything',
      limits: { maxTokens: 1_000, sessionBudget: 1e12 },
    });
    expect(tooBig).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      message: expect.stringContaining('The session budget can be at most 100,000,000 tokens'),
    });
    expect(
      await harness.call('sampling.setLimits', {
        server: 'everything',
        limits: { maxTokens: 1_000, sessionBudget: 2_500 },
      }),
    ).toMatchObject({
      limits: { maxTokens: 1_000, sessionBudget: 2_500 },
      custom: true,
      used: 2_000,
    });

    // 3. Allowed for this session: no review, the person's default model, and only what is left of the budget (500).
    fake.script([
      { toolUses: [GREEDY_SAMPLING] },
      { text: 'More.', usage: { input_tokens: 300, output_tokens: 400 } },
      { text: 'second: {{lastToolResult}}' },
    ]);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Sample again' });
    await turnEndAfter(harness, mark, id);
    expect(harness.events.slice(mark).some((event) => event.topic === 'pending.changed')).toBe(false);
    expect(fake.requests[4]?.body).toMatchObject({ model: 'claude-sonnet-5', max_tokens: 500 });
    expect(toolResultTexts(fake, 5)).toContain('More.');

    // 4. Spent (2,700 of 2,500): the server gets a clear error, the person a notice, the API nothing.
    fake.script([{ toolUses: [GREEDY_SAMPLING] }, { text: 'third: {{lastToolResult}}' }]);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'And again' });
    const refused = await eventAfter(harness, mark, 'sampling.budgetRefused');
    expect(refused).toMatchObject({ server: 'everything', usage: { used: 2_700, refused: 1 } });
    expect(refused.message).toMatch(
      /^Sampling budget exhausted: server 'everything' has used 2,700 of its 2,500-token sampling budget for this Berth session/,
    );
    await turnEndAfter(harness, mark, id);
    expect(fake.requests).toHaveLength(8);
    expect(toolResultTexts(fake, 7)).toContain('Sampling budget exhausted');

    // 5. A restart of the server does not reset the budget (the session is Berth's run, not the connection).
    mark = harness.events.length;
    await harness.call('servers.restart', { name: 'everything' });
    await eventAfter(
      harness,
      mark,
      'servers.changed',
      (state: ServerState) => state.name === 'everything' && state.status === 'ready',
    );
    expect((await harness.call<SamplingUsageList>('sampling.usage', {})).servers[0]).toMatchObject({ used: 2_700 });

    // 6. A new Berth session starts with nothing spent, under the limits the person kept.
    await harness.host.shutdown();
    const next = await world.restart();
    expect(await next.call<SamplingUsageList>('sampling.usage', {})).toMatchObject({
      servers: [{ server: 'everything', limits: { maxTokens: 1_000, sessionBudget: 2_500 }, custom: true, used: 0 }],
    });
  });
});
