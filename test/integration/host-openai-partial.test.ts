import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import { CONTINUE_TEXT } from '../../app/chat/continuation';
import type { Conversation } from '../../shared/domain/chat';
import { messageText } from '../../shared/domain/chat';
import { cleanEnv, eventAfter, turnEndAfter } from './host-chat-support';
import { hostPerTest } from './host-harness';
import type { HostHarness } from './host-harness';

// A real host with an OpenAI-compatible provider and the fake /v1/chat/completions: a reply whose stream breaks,
// or that the person stops, keeps its text; Continue asks in a user turn and the next request is one the API takes.

const world = hostPerTest('berth-host-openai-partial-');
let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const MODEL = 'llama3.1:8b';

async function start(): Promise<{ harness: HostHarness; fake: FakeOpenAi; id: string }> {
  fake = await FakeOpenAi.start({ models: [MODEL] });
  const harness = await world.start({ env: cleanEnv({}) });
  await harness.call('providers.add', {
    provider: { id: 'ollama', label: 'Ollama', preset: 'ollama', baseUrl: fake.url, models: [{ id: MODEL }] },
  });
  const conversation = await harness.call<Conversation>('chat.create', { model: `ollama:${MODEL}` });
  return { harness, fake, id: conversation.id };
}

/** The roles and text of a recorded request's messages. */
function sent(fake: FakeOpenAi, index: number): Array<{ role: string; text: string }> {
  return (fake.requests[index]?.body?.messages ?? []).map((message) => ({
    role: message.role,
    text: typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''),
  }));
}

describe('host: nothing the model wrote is lost (OpenAI-compatible)', () => {
  it('keeps the text of a stream that breaks mid-reply, marked cut off; Continue asks in a user turn', async () => {
    const { harness, fake, id } = await start();
    fake.script([{ text: 'Alpha beta gamma delta epsilon zeta', dropAfterDeltas: 3 }, { text: 'eta theta.' }]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Greek letters' });
    const end = await turnEndAfter(harness, mark, id);
    expect(end.type).toBe('turn-failed');
    const conversation = await harness.call<Conversation>('chat.get', { id });
    const reply = conversation.messages.at(-1);
    expect(reply?.partial).toMatchObject({ cause: 'cut-off', reason: end.type === 'turn-failed' ? end.message : '' });
    expect(reply?.partial?.reasonMessage?.code).toBe('chat-error.connection-lost-mid-reply');
    const kept = messageText(reply!);
    expect(kept.length).toBeGreaterThan(0);
    expect('Alpha beta gamma delta epsilon zeta'.startsWith(kept)).toBe(true);
    expect(kept).not.toBe('Alpha beta gamma delta epsilon zeta');

    mark = harness.events.length;
    await harness.call('chat.continue', { id });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    expect(sent(fake, 1).slice(-2)).toEqual([
      { role: 'assistant', text: kept },
      { role: 'user', text: CONTINUE_TEXT },
    ]);
    const after = await harness.call<Conversation>('chat.get', { id });
    expect(after.messages.map((message) => messageText(message))).toEqual(['Greek letters', kept, 'eta theta.']);
  });

  it('keeps the text of a reply the person stopped, marked stopped', async () => {
    const { harness, fake, id } = await start();
    fake.script([{ text: 'Half of an answer', holdOpen: true }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Say something' });
    await eventAfter(harness, mark, 'chat.event', (event) => event.type === 'text-delta');
    const deadline = Date.now() + 10_000;
    while (!harness.events.slice(mark).some((e) => JSON.stringify(e.payload).includes('answer')))
      if (Date.now() > deadline) throw new Error('the text never streamed');
      else await new Promise((resolve) => setTimeout(resolve, 20));
    await harness.call('chat.stop', { id });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished', stopReason: 'stopped' });
    const conversation = await harness.call<Conversation>('chat.get', { id });
    expect(conversation.messages.at(-1)).toMatchObject({
      role: 'assistant',
      partial: { cause: 'stopped' },
      content: [{ type: 'text', text: 'Half of an answer' }],
    });
  });
});
