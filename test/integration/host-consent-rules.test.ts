import { afterEach, describe, expect, it } from 'vitest';
import type { AuditPage, ConsentPolicy } from '../../shared/domain/consent';
import {
  addEverything,
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

describe('host: rules the person writes, with server-everything and parallel tool calls', () => {
  it('a name-pattern rule allows the parallel calls it covers; the one it does not cover asks; each call gets its own audit line', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addEverything(harness);
    const rule = await harness.call<ConsentPolicy>('consent.addRule', {
      server: 'everything',
      rule: { kind: 'name-pattern', pattern: 'get-*' },
    });
    expect(rule).toMatchObject({ scope: 'rule', server: 'everything' });
    expect(rule.scope === 'rule' && rule.tools).toEqual(expect.arrayContaining(['get-sum', 'get-tiny-image']));
    expect(rule.scope === 'rule' && rule.tools).not.toContain('echo');

    const { id } = await newConversation(harness);
    fake.script([
      {
        toolUses: [
          { name: 'everything__get-sum', input: { a: 2, b: 3 } },
          { name: 'everything__echo', input: { message: 'outside the rule' } },
          { name: 'everything__get-sum', input: { a: 10, b: 20 } },
        ],
      },
      { text: 'done' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'three at once' });
    const asked = await pendingAfter(harness, mark, 'tool-call');
    expect(asked.payload.tool).toBe('echo');
    await harness.call('pending.answer', { id: asked.id, response: { decision: 'allow-once' } });
    await turnEndAfter(harness, mark, id);
    const results = toolResultTexts(fake, fake.requests.length - 1);
    expect(results).toContain('5');
    expect(results).toContain('30');
    expect(results).toContain('outside the rule');
    // Only echo was asked about.
    const opened = harness.events
      .slice(mark)
      .filter(
        (e) => e.topic === 'pending.changed' && (e.payload as { change: { type: string } }).change.type === 'opened',
      );
    expect(opened).toHaveLength(1);

    const audit = await harness.call<AuditPage>('consent.audit', {});
    const lines = audit.entries.map((e) => `${e.tool} ${e.decision} ${e.decidedBy}`).sort();
    expect(lines).toEqual([
      'echo allow-once person',
      `get-sum allow-rule policy:${rule.id}`,
      `get-sum allow-rule policy:${rule.id}`,
    ]);

    // Revoked: the next call of a covered tool asks.
    await harness.call('consent.revoke', { id: rule.id });
    fake.script([{ toolUses: [{ name: 'everything__get-sum', input: { a: 1, b: 1 } }] }, { text: 'ok' }]);
    const again = harness.events.length;
    await harness.call('chat.send', { id, text: 'once more' });
    const prompt = await pendingAfter(harness, again, 'tool-call');
    expect(prompt.payload.tool).toBe('get-sum');
    await harness.call('pending.answer', { id: prompt.id, response: { decision: 'deny' } });
    await turnEndAfter(harness, again, id);
  });

  it('the read-only rule covers what server-everything marks read-only, and not a tool it marks as writing', async () => {
    world = await startChatWorld();
    const { harness } = world;
    await addEverything(harness);
    const rule = await harness.call<ConsentPolicy>('consent.addRule', {
      server: 'everything',
      rule: { kind: 'read-only' },
    });
    expect(rule.scope === 'rule' && rule.tools).toEqual(expect.arrayContaining(['echo', 'get-structured-content']));
    expect(rule.scope === 'rule' && rule.tools).not.toContain('toggle-simulated-logging');
    await expect(
      harness.call('consent.addRule', { server: 'everything', rule: { kind: 'name-pattern', pattern: 'get_(.*)' } }),
    ).rejects.toThrow(/INVALID_INPUT.*a pattern may hold letters/);
  });
});
