import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../shared/domain/chat';
import { messageText } from '../../shared/domain/chat';
import { CONTINUE_TEXT } from '../../app/chat/continuation';
import {
  addEverything,
  eventAfter,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

// A real host and the fake Messages API: a reply the person stops, or whose stream breaks, keeps what the model
// wrote (marked so), survives a restart, and Continue goes on from it with a request the API accepts.

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const PARTIAL = 'The first sentence arrived. The second one was still';

async function ready(): Promise<ChatWorld> {
  world = await startChatWorld();
  await world.harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
  return world;
}

function last(conversation: Conversation): ChatMessage {
  const message = conversation.messages.at(-1);
  if (message === undefined) throw new Error('the conversation is empty');
  return message;
}

/** The request's messages as role and text, the way the fake received them. */
function sentTurns(world: ChatWorld, index: number): Array<{ role: string; text: string }> {
  const body = world.fake.requests[index]?.body;
  return (body?.messages ?? []).map((message) => ({
    role: message.role,
    text:
      typeof message.content === 'string'
        ? message.content
        : message.content
            .filter((block) => block.type === 'text')
            .map((block) => String(block.text))
            .join(''),
  }));
}

describe('host: nothing the model wrote is lost (Anthropic)', () => {
  it('keeps the text of a reply the person stopped, marked so, after a restart; Continue sends it as a prefill where the model takes one', async () => {
    const { harness, fake } = await ready();
    const conversation = await harness.call<Conversation>('chat.create', { model: 'claude-haiku-4-5' });
    const { id } = conversation;
    fake.script([{ text: PARTIAL, holdOpen: true }, { text: ' going, and now it is done.' }]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Tell me something' });
    await eventAfter(harness, mark, 'chat.event', (event) => event.type === 'text-delta');
    // The whole text has streamed once the fake holds the response open.
    const deadline = Date.now() + 10_000;
    while (!harness.events.slice(mark).some((e) => JSON.stringify(e.payload).includes('still')))
      if (Date.now() > deadline) throw new Error('the text never streamed');
      else await new Promise((resolve) => setTimeout(resolve, 20));
    await harness.call('chat.stop', { id });
    const end = await turnEndAfter(harness, mark, id);
    expect(end).toMatchObject({ type: 'turn-finished', stopReason: 'stopped' });

    await harness.host.shutdown();
    const again = await world!.restart();
    const reloaded = await again.call<Conversation>('chat.get', { id });
    expect(last(reloaded)).toMatchObject({ role: 'assistant', partial: { cause: 'stopped' } });
    expect(messageText(last(reloaded))).toBe(PARTIAL);

    mark = again.events.length;
    await again.call('chat.continue', { id });
    expect(await turnEndAfter(again, mark, id)).toMatchObject({ type: 'turn-finished', stopReason: 'end_turn' });
    // The fake refuses a prefill ending in whitespace or on a model that takes none: the request was accepted.
    const turns = sentTurns(world!, 1);
    expect(turns.at(-1)).toEqual({ role: 'assistant', text: PARTIAL });
    const after = await again.call<Conversation>('chat.get', { id });
    expect(after.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(messageText(last(after))).toBe(' going, and now it is done.');
    expect(after.messages.some((message) => messageText(message).includes(CONTINUE_TEXT))).toBe(false);

    // The next message's request carries the two parts as one reply, and the API accepts it.
    fake.script([{ text: 'ok' }]);
    mark = again.events.length;
    await again.call('chat.send', { id, text: 'thanks' });
    expect(await turnEndAfter(again, mark, id)).toMatchObject({ type: 'turn-finished' });
    expect(sentTurns(world!, 2).map(({ role }) => role)).toEqual(['user', 'assistant', 'user']);
  });

  it('keeps the sentences of a stream that breaks mid-reply, marked cut off with the coded reason; Continue asks in a user turn on a model without prefill', async () => {
    const { harness, fake } = await ready();
    const { id } = await newConversation(harness);
    fake.script([{ text: 'One two three four five six seven eight', dropAfterDeltas: 4 }, { text: 'nine ten.' }]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Count' });
    const end = await turnEndAfter(harness, mark, id);
    expect(end.type).toBe('turn-failed');
    const conversation = await harness.call<Conversation>('chat.get', { id });
    const reply = last(conversation);
    expect(reply.role).toBe('assistant');
    expect(messageText(reply)).toBe('One two three four ');
    expect(reply.partial?.cause).toBe('cut-off');
    expect(reply.partial?.reason).toBe(end.type === 'turn-failed' ? end.message : '');
    expect(reply.partial?.reasonMessage?.code).toBe('chat-error.connection-lost-mid-reply');

    mark = harness.events.length;
    await harness.call('chat.continue', { id });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    // claude-sonnet-5 takes no prefill (the fake refuses one, as the API does): a short user turn asks instead.
    expect(sentTurns(world!, 1).slice(-2)).toEqual([
      { role: 'assistant', text: 'One two three four ' },
      { role: 'user', text: CONTINUE_TEXT },
    ]);
    const after = await harness.call<Conversation>('chat.get', { id });
    expect(after.messages.map((message) => messageText(message))).toEqual([
      'Count',
      'One two three four ',
      'nine ten.',
    ]);
  });

  it('keeps the tool results of the turn and drops a tool call the model was still streaming', async () => {
    const { harness, fake } = await ready();
    await addEverything(harness);
    const { id } = await newConversation(harness);
    fake.script([
      { toolUses: [{ name: 'everything__echo', input: { message: 'hi' } }] },
      {
        text: 'The echo said hi. Now',
        toolUses: [{ name: 'everything__echo', input: { message: 'a longer message to stream in pieces' } }],
        dropAfterDeltas: 8,
      },
    ]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'echo twice' });
    const prompt = await pendingAfter(harness, mark, 'tool-call');
    await harness.call('pending.answer', { id: prompt.id, response: { decision: 'allow-once' } });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-failed');
    const conversation = await harness.call<Conversation>('chat.get', { id });
    const [, use, result, partial] = conversation.messages;
    expect(use?.content.map((block) => block.type)).toEqual(['tool_use']);
    expect(result?.content).toMatchObject([{ type: 'tool_result', isError: false }]);
    expect(partial?.partial?.cause).toBe('cut-off');
    expect(partial?.content).toEqual([{ type: 'text', text: 'The echo said hi. Now' }]);

    // The history stays valid: the fake checks every tool_use has its result, as the API does.
    fake.script([{ text: 'fine' }]);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'go on' });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
  });

  it('refuses Continue when the conversation does not end with an unfinished reply', async () => {
    const { harness, fake } = await ready();
    const { id } = await newConversation(harness);
    fake.script([{ text: 'done' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'hi' });
    await turnEndAfter(harness, mark, id);
    expect(await harness.host.dispatch('chat.continue', { id })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      message: 'There is no unfinished reply to continue in this conversation',
      hostMessage: { code: 'conversation-errors.nothing-to-continue', params: {} },
    });
  });
});
