import { afterEach, describe, expect, it } from 'vitest';
import { serverTools } from '../../shared/domain/server-state-read';
import type { FakeTurn, RecordedRequest } from '../../e2e/fake-llm/fake-anthropic';
import type { LogEntry } from '../../shared/domain/log';
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

/** The fake model's answer to a sampling request: it repeats the prompt it got. */
function echoPrompt(request: RecordedRequest): FakeTurn {
  const first = request.body?.messages[0];
  const content = first?.content;
  const text = typeof content === 'string' ? content : ((content?.[0] as { text?: string } | undefined)?.text ?? '');
  return { text: `I saw: ${text}` };
}

const SAMPLING_TOOL = {
  name: 'everything__trigger-sampling-request',
  input: { prompt: 'Write a haiku', maxTokens: 50 },
};

async function setup(): Promise<ChatWorld> {
  world = await startChatWorld();
  await world.harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
  const ready = await addEverything(world.harness);
  expect(serverTools(ready).map((tool) => tool.name)).toEqual(
    expect.arrayContaining(['trigger-sampling-request', 'trigger-elicitation-request', 'trigger-url-elicitation']),
  );
  return world;
}

describe('host sampling review with server-everything', () => {
  it('declares sampling and elicitation in initialize', async () => {
    const { harness } = await setup();
    const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', {
      server: 'everything',
      sources: ['trace'],
    });
    const initialize = entries.find((entry) => entry.direction === 'out' && entry.method === 'initialize');
    const params = (JSON.parse(initialize?.body ?? '{}') as { params?: { capabilities?: Record<string, unknown> } })
      .params;
    expect(params?.capabilities).toMatchObject({ sampling: { tools: {} }, elicitation: { form: {}, url: {} } });
  });

  it('the edited prompt reaches the model and the edited answer reaches the server, tied to the tool call', async () => {
    const { harness, fake } = await setup();
    const { id } = await newConversation(harness);
    fake.script([{ toolUses: [SAMPLING_TOOL] }, echoPrompt, { text: 'The tool said: {{lastToolResult}}' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Sample something' });
    const consent = await pendingAfter(harness, mark, 'tool-call');
    expect(consent.payload.tool).toBe('trigger-sampling-request');
    await harness.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });

    const review = await pendingAfter(harness, mark, 'sampling');
    expect(review).toMatchObject({ server: 'everything', conversationId: id, toolUseId: consent.toolUseId });
    expect(review.payload.request).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: expect.stringContaining('Write a haiku') } }],
      systemPrompt: 'You are a helpful test server.',
      maxTokens: 50,
      temperature: 0.7,
    });
    expect(review.payload.model).toEqual({ id: 'claude-sonnet-5', label: 'Claude Sonnet 5', provider: 'Anthropic' });
    expect(review.payload.explanation).toContain('default model');
    // The reason travels as a code too, so the review words it in the person's language.
    expect(review.payload.explanationMessage?.code).toMatch(/^sampling-words\./);
    expect(review.payload.models.map((model) => model.id)).toContain('claude-haiku-4-5');
    await harness.call('pending.answer', {
      id: review.id,
      response: {
        decision: 'approve',
        model: 'claude-haiku-4-5',
        messages: [{ role: 'user', content: { type: 'text', text: 'EDITED PROMPT' } }],
      },
    });

    const answer = await pendingAfter(harness, mark, 'sampling-answer');
    expect(answer.payload.result.content).toEqual({ type: 'text', text: 'I saw: EDITED PROMPT' });
    expect(answer.payload.model.id).toBe('claude-haiku-4-5');
    expect(answer.payload.answeredBy).toBe('claude-haiku-4-5');
    const samplingCall = fake.requests[1];
    // Sampling goes through the same LlmProvider as chat, which streams; the server's temperature is honoured.
    expect(samplingCall?.stream).toBe(true);
    expect(samplingCall?.body).toMatchObject({
      model: 'claude-haiku-4-5',
      system: 'You are a helpful test server.',
      max_tokens: 50,
      temperature: 0.7,
    });
    expect(JSON.stringify(samplingCall?.body?.messages)).toContain('EDITED PROMPT');
    expect(JSON.stringify(samplingCall?.body?.messages)).not.toContain('Write a haiku');
    await harness.call('pending.answer', {
      id: answer.id,
      response: { decision: 'approve', content: { type: 'text', text: 'EDITED ANSWER' } },
    });

    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    const result = toolResultTexts(fake, 2);
    expect(result).toContain('EDITED ANSWER');
    expect(result).toContain('claude-haiku-4-5');
    expect(result).not.toContain('I saw:');
  });

  it('a rejection reaches the server as an error; "never" refuses without asking and is kept', async () => {
    const { harness, fake } = await setup();
    const { id } = await newConversation(harness);
    fake.script([{ toolUses: [SAMPLING_TOOL] }, { text: 'noted' }]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Sample' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'always-server' },
    });
    const review = await pendingAfter(harness, mark, 'sampling');
    await harness.call('pending.answer', { id: review.id, response: { decision: 'reject', reason: 'not today' } });
    await turnEndAfter(harness, mark, id);
    expect(toolResultTexts(fake, 1)).toContain('User rejected sampling request');
    expect(fake.requests).toHaveLength(2);

    expect(await harness.call('sampling.setPolicy', { server: 'everything', policy: 'never' })).toEqual({
      everything: 'never',
    });
    await eventAfter(harness, mark, 'sampling.policiesChanged', ({ policies }) => policies.everything === 'never');
    fake.script([{ toolUses: [SAMPLING_TOOL] }, { text: 'noted again' }]);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Sample again' });
    await turnEndAfter(harness, mark, id);
    expect(toolResultTexts(fake, 3)).toContain('User rejected sampling request');
    expect(harness.events.slice(mark).some((event) => event.topic === 'pending.changed')).toBe(false);

    await harness.host.shutdown();
    const next = await world?.restart();
    expect(await next?.call('sampling.policies', {})).toEqual({ everything: 'never' });
  });

  it('a sampling request whose server goes away is withdrawn with a note', async () => {
    const { harness, fake } = await setup();
    const { id } = await newConversation(harness);
    fake.script([{ toolUses: [SAMPLING_TOOL] }, { text: 'the server is gone' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Sample' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });
    const review = await pendingAfter(harness, mark, 'sampling');
    await harness.call('servers.stop', { name: 'everything' });
    const withdrawn = await eventAfter(
      harness,
      mark,
      'pending.changed',
      ({ change }) => change.type === 'withdrawn' && change.id === review.id,
    );
    expect(withdrawn.change).toMatchObject({
      server: 'everything',
      note: expect.stringContaining("server 'everything' disconnected"),
    });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    expect(toolResultTexts(fake, 1)).toContain('stopped');
  });

  it('stopping the chat turn withdraws the sampling review its tool call caused', async () => {
    const { harness, fake } = await setup();
    const { id } = await newConversation(harness);
    fake.script([{ toolUses: [SAMPLING_TOOL] }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Sample' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });
    const review = await pendingAfter(harness, mark, 'sampling');
    expect(await harness.call('chat.stop', { id })).toEqual({ stopped: true });
    const withdrawn = await eventAfter(
      harness,
      mark,
      'pending.changed',
      ({ change }) => change.type === 'withdrawn' && change.id === review.id,
    );
    expect(withdrawn.change).toMatchObject({ note: expect.stringMatching(/stopped|cancelled/) });
    expect(await harness.call('pending.list', {})).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });
});
