import { afterEach, describe, expect, it } from 'vitest';
import {
  addEverything,
  eventAfter,
  everythingConfig,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/**
 * "Allow sampling for this session" belongs to one connection of one program:
 * a server edited to run another command (even with its tool permissions
 * kept) starts a new session and is asked again.
 */
describe('host: sampling "allow this session" follows the server identity', () => {
  it('ends when the command changes, even when the person keeps the other approvals', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addEverything(harness);
    expect(await harness.call('sampling.setPolicy', { server: 'everything', policy: 'allow-session' })).toBeDefined();
    expect(await harness.call('sampling.policies', {})).toEqual({ everything: 'allow-session' });

    const mark = harness.events.length;
    await harness.call('servers.update', {
      name: 'everything',
      config: { ...everythingConfig, cwd: world.dir },
      approvals: 'keep',
    });
    await eventAfter(harness, mark, 'sampling.policiesChanged', ({ policies }) => policies.everything === undefined);
    await eventAfter(
      harness,
      mark,
      'servers.changed',
      (state) => state.name === 'everything' && state.status === 'ready' && state.config.cwd === world?.dir,
    );
    expect(await harness.call('sampling.policies', {})).toEqual({});

    // The new process's sampling request is reviewed again.
    const { id } = await newConversation(harness);
    fake.script([
      { toolUses: [{ name: 'everything__trigger-sampling-request', input: { prompt: 'hi', maxTokens: 20 } }] },
    ]);
    const sent = harness.events.length;
    await harness.call('chat.send', { id, text: 'sample' });
    const consent = await pendingAfter(harness, sent, 'tool-call');
    await harness.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });
    const review = await pendingAfter(harness, sent, 'sampling');
    expect(review.server).toBe('everything');
    await harness.call('pending.answer', { id: review.id, response: { decision: 'reject' } });
  });
});
