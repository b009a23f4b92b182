import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import type { FakeOpenAiTurn, RecordedOpenAiRequest } from '../../e2e/fake-llm/fake-openai';
import type { Conversation } from '../../shared/domain/chat';
import { messageText } from '../../shared/domain/chat';
import type { ProviderConfigInput } from '../../shared/domain/providers';
import type { HostOptions } from '../../app/host/host-types';
import { addEverything, cleanEnv, eventAfter, pendingAfter, turnEndAfter } from './host-chat-support';
import { hostPerTest } from './host-harness';
import type { HostHarness } from './host-harness';

// A real host with an OpenAI-compatible provider (Ollama-style) pointing at
// the fake OpenAI-compatible server, and no Anthropic key at all: chat with a
// real server's tools, sampling, and every way the provider can fail.

const world = hostPerTest('berth-host-openai-');
let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const MODEL = 'llama3.1:8b';
const NO_TOOLS_MODEL = 'gemma:2b';
const OPENAI_KEY = 'sk-openai-test-KEYSECRET-91ab';

function ollama(
  baseUrl: string,
  models: ProviderConfigInput['models'] = [{ id: MODEL }, { id: NO_TOOLS_MODEL }],
): ProviderConfigInput {
  return { id: 'ollama', label: 'Ollama', preset: 'ollama', baseUrl, models };
}

/** A host without any Anthropic settings, with `provider` added through the contract. */
async function hostWith(
  provider: ProviderConfigInput,
  apiKey?: string,
  chatRetries?: HostOptions['chatRetries'],
): Promise<HostHarness> {
  const harness = await world.start({ env: cleanEnv({}), ...(chatRetries !== undefined ? { chatRetries } : {}) });
  await harness.call('providers.add', { provider, ...(apiKey !== undefined ? { apiKey } : {}) });
  return harness;
}

async function startFake(options: Parameters<typeof FakeOpenAi.start>[0] = {}): Promise<FakeOpenAi> {
  fake = await FakeOpenAi.start({ models: [MODEL, NO_TOOLS_MODEL], modelsWithoutTools: [NO_TOOLS_MODEL], ...options });
  return fake;
}

/** Send `text` in a new conversation on `model` and wait for the turn's end. */
async function sendTurn(
  harness: HostHarness,
  model: string,
  text: string,
): Promise<{ conversation: Conversation; end: Awaited<ReturnType<typeof turnEndAfter>>; mark: number }> {
  const conversation = await harness.call<Conversation>('chat.create', { model });
  const mark = harness.events.length;
  await harness.call('chat.send', { id: conversation.id, text });
  return { conversation, end: await turnEndAfter(harness, mark, conversation.id), mark };
}

function chatEvents(harness: HostHarness, from: number, type: string): Array<Record<string, unknown>> {
  return harness.events
    .slice(from)
    .flatMap((event) =>
      event.topic === 'chat.event' && (event.payload as { type: string }).type === type
        ? [event.payload as Record<string, unknown>]
        : [],
    );
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The fake model's answer to a sampling request: it repeats the prompt it got. */
function echoPrompt(request: RecordedOpenAiRequest): FakeOpenAiTurn {
  const user = request.body?.messages.find((message) => message.role === 'user');
  return { text: `I saw: ${JSON.stringify(user?.content ?? '')}` };
}

describe('host chat with an OpenAI-compatible provider (fake Ollama)', () => {
  it("calls server-everything's echo with consent; the result goes back as a tool message and the final text arrives", async () => {
    const openai = await startFake();
    const harness = await hostWith(ollama(openai.url));
    await addEverything(harness);
    openai.script([
      { text: 'Let me echo.', toolUses: [{ name: 'everything__echo', input: { message: 'hello berth' } }] },
      { text: 'The tool said: {{lastToolResult}}' },
    ]);
    const conversation = await harness.call<Conversation>('chat.create', { model: `ollama:${MODEL}` });
    expect(conversation.model).toBe(`ollama:${MODEL}`);
    const mark = harness.events.length;
    await harness.call('chat.send', { id: conversation.id, text: 'Echo something' });

    const consent = await pendingAfter(harness, mark, 'tool-call');
    expect(consent.payload).toMatchObject({
      server: 'everything',
      tool: 'echo',
      arguments: { message: 'hello berth' },
    });
    // Nothing ran before the yes: the model has been asked once.
    expect(openai.requests).toHaveLength(1);
    await harness.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });
    expect(await turnEndAfter(harness, mark, conversation.id)).toMatchObject({
      type: 'turn-finished',
      stopReason: 'end_turn',
    });

    const first = openai.requests[0]?.body;
    expect(first?.model).toBe(MODEL);
    expect(first?.tools?.map((definition) => definition.function.name)).toContain('everything__echo');
    const toolMessage = openai.requests[1]?.body?.messages.find((message) => message.role === 'tool');
    expect(toolMessage).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_fake_1_1',
      content: expect.stringContaining('Echo: hello berth'),
    });
    const saved = await harness.call<Conversation>('chat.get', { id: conversation.id });
    expect(saved.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(messageText(saved.messages[3]!)).toBe('The tool said: Echo: hello berth');
    expect(saved.messages[3]).toMatchObject({ model: `ollama:${MODEL}` });
  });

  it("answers server-everything's sampling request with the OpenAI-compatible model, and the review shows that model", async () => {
    const openai = await startFake();
    const harness = await hostWith(ollama(openai.url, [{ id: MODEL }]));
    await addEverything(harness);
    openai.script([
      {
        toolUses: [{ name: 'everything__trigger-sampling-request', input: { prompt: 'Write a haiku', maxTokens: 50 } }],
      },
      echoPrompt,
      { text: 'Done: {{lastToolResult}}' },
    ]);
    const conversation = await harness.call<Conversation>('chat.create', { model: `ollama:${MODEL}` });
    const mark = harness.events.length;
    await harness.call('chat.send', { id: conversation.id, text: 'Sample something' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });

    const review = await pendingAfter(harness, mark, 'sampling');
    expect(review.payload.model).toMatchObject({ id: `ollama:${MODEL}`, provider: 'Ollama' });
    expect(review.payload.models.map((model) => model.id)).toEqual([`ollama:${MODEL}`]);
    // Claude has no key here and nobody chose a default: the default is the ready provider's model, and the review says so.
    expect(review.payload.explanation).toContain('your default model');
    expect(review.payload.explanation).not.toContain('claude');
    await harness.call('pending.answer', { id: review.id, response: { decision: 'approve' } });
    const answer = await pendingAfter(harness, mark, 'sampling-answer');
    expect(answer.payload.model.id).toBe(`ollama:${MODEL}`);
    expect(answer.payload.result.content).toEqual({ type: 'text', text: expect.stringContaining('I saw:') });
    expect(answer.payload.result.content).toEqual({ type: 'text', text: expect.stringContaining('Write a haiku') });
    await harness.call('pending.answer', { id: answer.id, response: { decision: 'approve' } });
    expect(await turnEndAfter(harness, mark, conversation.id)).toMatchObject({ type: 'turn-finished' });

    const sampling = openai.requests[1]?.body;
    expect(sampling).toMatchObject({ model: MODEL, temperature: 0.7 });
    expect(sampling?.messages[0]).toEqual({ role: 'system', content: 'You are a helpful test server.' });
    const toolMessage = openai.requests[2]?.body?.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toContain('I saw:');
  });

  it('a provider that is down: the turn waits for it, then fails with words saying nothing is listening', async () => {
    const port = await closedPort();
    // A short wait for the connection (the default is minutes: host-chat-waits.test.ts has the network coming back).
    const harness = await hostWith(ollama(`http://127.0.0.1:${port}/v1`), undefined, {
      networkMaxMs: 300,
      probeBaseMs: 50,
    });
    const { conversation, end, mark } = await sendTurn(harness, `ollama:${MODEL}`, 'hello?');
    expect(chatEvents(harness, mark, 'turn-waiting')).toMatchObject([
      { reason: 'network', provider: 'Ollama', cause: { code: 'chat-error.provider-refused' } },
    ]);
    expect(end).toMatchObject({
      type: 'turn-failed',
      message: `Could not connect: nothing is listening at 127.0.0.1:${port} — is Ollama running?`,
    });
    // The person's message is kept for a retry.
    expect(
      (await harness.call<Conversation>('chat.get', { id: conversation.id })).messages.map((message) => message.role),
    ).toEqual(['user']);
  });

  it('a wrong key: the turn fails with "the key was rejected", and the key never shows', async () => {
    const openai = await startFake({ apiKey: 'sk-the-right-key-0000' });
    const harness = await hostWith(
      { id: 'openai', label: 'OpenAI', preset: 'openai', baseUrl: openai.url, models: [{ id: MODEL }] },
      OPENAI_KEY,
    );
    const { end } = await sendTurn(harness, `openai:${MODEL}`, 'hello?');
    expect(end).toMatchObject({
      type: 'turn-failed',
      message: expect.stringContaining('OpenAI refused the request: the key was rejected (401'),
    });
    expect(openai.requests[0]?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(JSON.stringify(harness.events)).not.toContain('KEYSECRET');
  });

  it('a model without tool support: the reply comes without tools and the person is told why', async () => {
    const openai = await startFake();
    const harness = await hostWith(ollama(openai.url));
    await addEverything(harness);
    openai.script([{ text: 'Hi, no tools for me.' }]);
    const { conversation, end, mark } = await sendTurn(harness, `ollama:${NO_TOOLS_MODEL}`, 'hello');
    expect(end).toMatchObject({ type: 'turn-finished', stopReason: 'end_turn' });
    // Asked with the server's tools (refused as Ollama does), then once more without.
    expect(openai.requests.map((request) => (request.body?.tools?.length ?? 0) > 0)).toEqual([true, false]);
    expect(chatEvents(harness, mark, 'turn-notice').map((event) => event.message)).toEqual([
      `${NO_TOOLS_MODEL} cannot use tools, so this reply has none. Pick another model in the message box to use tools.`,
    ]);
    expect(messageText((await harness.call<Conversation>('chat.get', { id: conversation.id })).messages[1]!)).toBe(
      'Hi, no tools for me.',
    );
  });

  it('a model marked as taking no tools gets none from the start, with the same notice', async () => {
    const openai = await startFake();
    const harness = await hostWith(ollama(openai.url, [{ id: MODEL, supportsTools: false }]));
    await addEverything(harness);
    openai.script([{ text: 'Plain answer.' }]);
    const { end, mark } = await sendTurn(harness, `ollama:${MODEL}`, 'hello');
    expect(end).toMatchObject({ type: 'turn-finished' });
    expect(openai.requests).toHaveLength(1);
    expect(openai.requests[0]?.body?.tools).toBeUndefined();
    await eventAfter(
      harness,
      mark,
      'chat.event',
      (event) => event.type === 'turn-notice' && event.message.startsWith(`${MODEL} cannot use tools`),
    );
  });
});
