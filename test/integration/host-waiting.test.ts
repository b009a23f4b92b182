import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '../../app/servers/test-support';
import type { ChatEvent } from '../../shared/domain/chat';
import type { PendingChange } from '../../shared/domain/pending';
import type { HostHarness } from './host-harness';
import {
  eventAfter,
  everythingConfig,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

/**
 * A call that waits for the person: its request timeout stands still while
 * the question is open, and the question goes when the call ends. Real
 * processes: server-everything's elicitation tool, and a fixture server that
 * asks and then leaves (e2e/fixtures/servers/elicit-then-leave.mjs).
 */
let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A short request timeout, and a total no longer than it: neither may count the time the person takes. */
const QUICK = { requestMs: 1_500, maxTotalMs: 1_500 };

async function addServer(harness: HostHarness, name: string, config: Record<string, unknown>): Promise<void> {
  await harness.call('servers.add', { name, config });
  await harness.waitForEvent('servers.changed', (state) => state.name === name && state.status === 'ready');
}

function chatEvents(harness: HostHarness, from: number, toolUseId: string): ChatEvent[] {
  return harness.events
    .slice(from)
    .filter((event) => event.topic === 'chat.event')
    .map((event) => event.payload as ChatEvent)
    .filter((event) => 'toolUseId' in event && event.toolUseId === toolUseId);
}

async function withdrawnAfter(
  harness: HostHarness,
  from: number,
  id: string,
): Promise<Extract<PendingChange['change'], { type: 'withdrawn' }>> {
  const { change } = await eventAfter(
    harness,
    from,
    'pending.changed',
    ({ change: c }) => c.type === 'withdrawn' && c.id === id,
    10_000,
  );
  if (change.type !== 'withdrawn') throw new Error('unreachable');
  return change;
}

describe('a call waiting for the person', () => {
  it('outlives its request timeout while the form is open and completes with the answer given later', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addServer(harness, 'everything', { ...everythingConfig, timeouts: QUICK });
    const { id } = await newConversation(harness);
    fake.script([{ toolUses: [{ name: 'everything__trigger-elicitation-request', input: {} }] }, { text: 'Thanks' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Ask me' });
    const consent = await pendingAfter(harness, mark, 'tool-call');
    await harness.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });
    const form = await pendingAfter(harness, mark, 'elicitation');
    expect(form.toolUseId).toBe(consent.toolUseId);
    const toolUseId = consent.toolUseId ?? '';
    await eventAfter(
      harness,
      mark,
      'chat.event',
      (event) => event.type === 'tool-call-waiting' && event.pendingId === form.id,
    );

    // More than twice the request timeout (and the total) goes by before the person answers.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(chatEvents(harness, mark, toolUseId).some((event) => event.type === 'tool-call-finished')).toBe(false);
    await harness.call('pending.answer', {
      id: form.id,
      response: {
        action: 'accept',
        content: {
          name: 'Ada Lovelace',
          check: true,
          email: 'ada@example.com',
          integer: '7',
          untitledMultipleSelectEnum: ['Piano'],
        },
      },
    });
    const end = await turnEndAfter(harness, mark, id);
    expect(end.type).toBe('turn-finished');
    expect(toolResultTexts(fake, 1)).toContain('Name: Ada Lovelace');

    // The card was told when the question opened and when it closed, before the call finished without an error.
    const told = chatEvents(harness, mark, toolUseId)
      .filter((event) => event.type === 'tool-call-waiting' || event.type === 'tool-call-finished')
      .map((event) =>
        event.type === 'tool-call-waiting'
          ? `waiting ${event.pendingId ?? 'none'}`
          : `finished ${event.isError ? 'error' : 'ok'}`,
      );
    expect(told).toEqual([`waiting ${form.id}`, 'waiting none', 'finished ok']);
  }, 60_000);

  it("counts neither the person's review nor the model's slow reply against a call that asked for sampling", async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addServer(harness, 'everything', { ...everythingConfig, timeouts: QUICK });
    const { id } = await newConversation(harness);
    const slowReply = async (): Promise<{ text: string }> => {
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      return { text: 'a slow haiku' };
    };
    fake.script([
      {
        toolUses: [{ name: 'everything__trigger-sampling-request', input: { prompt: 'Write a haiku', maxTokens: 50 } }],
      },
      slowReply,
      { text: 'ok' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Sample' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });
    const review = await pendingAfter(harness, mark, 'sampling');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await harness.call('pending.answer', { id: review.id, response: { decision: 'approve' } });
    const answer = await pendingAfter(harness, mark, 'sampling-answer');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await harness.call('pending.answer', { id: answer.id, response: { decision: 'approve' } });
    await turnEndAfter(harness, mark, id);
    expect(toolResultTexts(fake, 2)).toContain('a slow haiku');
  }, 60_000);

  it('still times out a server that is slow on its own: the clock stands still only for the person', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addServer(harness, 'everything', { ...everythingConfig, timeouts: QUICK });
    const { id } = await newConversation(harness);
    // 3 s of work with no progress token asked for: longer than the 1.5 s timeout.
    fake.script([
      { toolUses: [{ name: 'everything__trigger-long-running-operation', input: { duration: 3, steps: 1 } }] },
      { text: 'ok' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Work' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });
    await turnEndAfter(harness, mark, id);
    expect(toolResultTexts(fake, 1)).toContain('did not answer within 1.5 s');
  }, 60_000);

  it('withdraws the question at once, with a note, when its server dies', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addServer(harness, 'leaver', {
      command: process.execPath,
      args: [fixture('elicit-then-leave.mjs')],
      restart: { enabled: false },
    });
    const { id } = await newConversation(harness);
    fake.script([{ toolUses: [{ name: 'leaver__ask-then-exit', input: {} }] }, { text: 'ok' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Ask' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });
    const form = await pendingAfter(harness, mark, 'elicitation');
    const withdrawn = await withdrawnAfter(harness, mark, form.id);
    expect(withdrawn.note).toMatch(/server 'leaver' (disconnected|exited)|ended with an error: server 'leaver' exited/);
    await turnEndAfter(harness, mark, id);
    expect(await harness.call('pending.list', {})).toEqual([]);
    expect(toolResultTexts(fake, 1)).toMatch(/exited/);
  }, 60_000);

  it('withdraws the question when its call finishes without waiting for the answer', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addServer(harness, 'leaver', { command: process.execPath, args: [fixture('elicit-then-leave.mjs')] });
    const { id } = await newConversation(harness);
    fake.script([{ toolUses: [{ name: 'leaver__ask-then-return', input: {} }] }, { text: 'ok' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Ask' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });
    const form = await pendingAfter(harness, mark, 'elicitation');
    const withdrawn = await withdrawnAfter(harness, mark, form.id);
    expect(withdrawn.note).toBe('the tool call that asked this finished without waiting for your answer');
    await turnEndAfter(harness, mark, id);
    expect(toolResultTexts(fake, 1)).toContain('done without the answer');
    expect(await harness.call('pending.list', {})).toEqual([]);
    // The server is still there: only the question went.
    const [state] = (await harness.call<Array<{ name: string; status: string }>>('servers.list', {})).filter(
      (s) => s.name === 'leaver',
    );
    expect(state?.status).toBe('ready');
  }, 60_000);
});
