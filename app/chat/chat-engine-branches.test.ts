import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { messageText } from '../../shared/domain/chat';
import type { ChatMessage } from '../../shared/domain/chat';
import { versionMarks } from '../../shared/domain/chat-versions';
import { AnthropicProvider } from '../providers/llm-provider';
import { ChatEngine } from './chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, openChatStore } from './chat-test-support';
import { ConversationStore } from './conversation-store';

const MODEL = 'claude-sonnet-5';
const OTHER = 'claude-haiku-4-5';

const texts = (messages: readonly ChatMessage[]): string[] => messages.map((message) => messageText(message));

describe('branches and versions with the fake Messages API', () => {
  let dir: string;
  let fake: FakeAnthropic;
  let store: ConversationStore;
  let log: ChatEventLog;

  beforeEach(async () => {
    // Like the API: a model the account does not list is a 404, so a request on the wrong model cannot pass.
    fake = await FakeAnthropic.start({ apiKey: 'sk-unit', refuseUnlistedModels: true });
    ({ dir, store, log } = await openChatStore('berth-chat-branches-'));
  });
  afterEach(async () => {
    await fake.close();
    await closeChatStore({ dir, store });
  });

  function engine(on: ConversationStore = store): ChatEngine {
    return new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'sk-unit', baseURL: fake.url, maxRetries: 0 }),
      store: on,
      tools: () => [],
      gate: new ScriptedGate(),
      runner: { callTool: async () => ({ content: [] }) },
      onEvent: log.onEvent,
      textIntervalMs: 0,
    });
  }

  async function twoTurns(chat: ChatEngine): Promise<string> {
    fake.script([{ text: 'Answer one.' }, { text: 'Answer two.' }]);
    const { id } = await store.create({ model: MODEL });
    await (
      await chat.send(id, 'question one')
    ).done;
    await (
      await chat.send(id, 'question two')
    ).done;
    return id;
  }

  it('edits an earlier message: the new branch is answered from there, and switching back restores the old tail exactly', async () => {
    const chat = engine();
    const id = await twoTurns(chat);
    const before = (await store.get(id)).messages;
    fake.script([{ text: 'Answer to the edit.' }]);
    const first = before[0]!;
    expect(await (await chat.editAt(id, first.id, 'question one, better')).done).toMatchObject({ status: 'finished' });

    const edited = await store.get(id);
    expect(texts(edited.messages)).toEqual(['question one, better', 'Answer to the edit.']);
    // The model read the edited message alone: nothing of the old branch went with it.
    expect(fake.requests.at(-1)?.body?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'question one, better' }] },
    ]);
    expect(versionMarks(edited).get(edited.messages[0]!.id)).toEqual({ after: '', active: 1, count: 2 });

    const back = await chat.switchVersion(id, '', 0);
    expect(back.messages).toEqual(before);
    expect((await store.get(id)).messages).toEqual(before);
  });

  it('regenerates a reply with another model: the fake got that model, the conversation keeps its own, versions survive a reload', async () => {
    const chat = engine();
    const id = await twoTurns(chat);
    const reply = (await store.get(id)).messages[3]!;
    fake.script([{ text: 'Answer two, from another model.' }]);
    expect(await (await chat.regenerate(id, reply.id, OTHER)).done).toMatchObject({ status: 'finished' });

    expect(fake.requests.at(-1)?.body?.model).toBe(OTHER);
    const regenerated = await store.get(id);
    expect(regenerated.model).toBe(MODEL);
    expect(regenerated.messages.at(-1)).toMatchObject({ model: OTHER });
    expect(texts(regenerated.messages)).toEqual([
      'question one',
      'Answer one.',
      'question two',
      'Answer two, from another model.',
    ]);
    const mark = versionMarks(regenerated).get(regenerated.messages[3]!.id);
    expect(mark).toEqual({ after: regenerated.messages[2]!.id, active: 1, count: 2 });

    // The next turn goes to the conversation's model again.
    fake.script([{ text: 'Answer three.' }]);
    await (
      await chat.send(id, 'question three')
    ).done;
    expect(fake.requests.at(-1)?.body?.model).toBe(MODEL);

    await store.flushIndex();
    const reopened = await ConversationStore.open({ dir });
    const read = await reopened.get(id);
    expect(read.messages).toEqual((await store.get(id)).messages);
    const older = await engine(reopened).switchVersion(id, mark!.after, 0);
    expect(texts(older.messages)).toEqual(['question one', 'Answer one.', 'question two', 'Answer two.']);
    expect(versionMarks(older).get(reply.id)).toEqual({ ...mark, active: 0 });
    await reopened.flushIndex();
  });

  it('refuses a switch while a reply is written, and a regenerate of a message of the person, with coded errors', async () => {
    const chat = engine();
    const id = await twoTurns(chat);
    const messages = (await store.get(id)).messages;
    await expect(chat.regenerate(id, messages[2]!.id)).rejects.toMatchObject({
      hostMessage: { code: 'conversation-errors.not-regenerable' },
    });
    await expect(chat.editAt(id, messages[3]!.id, 'not mine')).rejects.toMatchObject({
      hostMessage: { code: 'conversation-errors.not-editable' },
    });
    fake.script([{ text: 'held open', holdOpen: true }]);
    const handle = await chat.regenerate(id, messages[3]!.id);
    await log.waitFor('text-delta', (event) => event.turnId === handle.turnId);
    await expect(chat.switchVersion(id, messages[2]!.id, 0)).rejects.toMatchObject({
      code: 'CONFLICT',
      hostMessage: { code: 'conversation-errors.reply-running' },
    });
    await chat.stop(id);
    await handle.done;
    expect(texts((await store.get(id)).messages)).toEqual(texts(messages).slice(0, 3).concat('held open'));
  });
});
