import { afterEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/domain/chat';
import type { HostActivity } from '../../shared/domain/background';
import {
  addEverything,
  eventAfter,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

// What runs in the host (`app.activity`), as the tray and background mode will read it: a reply being written, a
// request waiting for the person, and both ended.

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('host activity', () => {
  it('counts a reply being written and a request waiting for the person, and tells when they end', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addEverything(harness);
    expect(await harness.call<HostActivity>('app.activity', {})).toEqual({
      replies: 0,
      tasks: 0,
      subscriptions: 0,
      waiting: 0,
    });
    const { id } = await harness.call<Conversation>('chat.create', { model: 'claude-haiku-4-5' });
    fake.script([{ toolUses: [{ name: 'everything__echo', input: { message: 'hi' } }] }, { text: 'Echoed.' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Echo hi' });
    const consent = await pendingAfter(harness, mark, 'tool-call');
    expect(await eventAfter(harness, mark, 'app.activity', (activity) => activity.waiting === 1)).toEqual({
      replies: 1,
      tasks: 0,
      subscriptions: 0,
      waiting: 1,
    });
    const answered = harness.events.length;
    await harness.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });
    await turnEndAfter(harness, mark, id);
    expect(
      await eventAfter(
        harness,
        answered,
        'app.activity',
        (activity) => activity.replies === 0 && activity.waiting === 0,
      ),
    ).toEqual({ replies: 0, tasks: 0, subscriptions: 0, waiting: 0 });
  });
});
