import { afterEach, describe, expect, it } from 'vitest';
import type { AwaitingElicitation } from '../../shared/contract/elicitation';
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

async function setup(): Promise<ChatWorld> {
  world = await startChatWorld();
  await world.harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
  await addEverything(world.harness);
  return world;
}

describe('host elicitation with server-everything', () => {
  it('shows the form, refuses invalid values, and the server receives the accepted ones; decline works', async () => {
    const { harness, fake } = await setup();
    const { id } = await newConversation(harness);
    fake.script([
      { toolUses: [{ name: 'everything__trigger-elicitation-request', input: {} }] },
      { text: 'Thanks' },
      { toolUses: [{ name: 'everything__trigger-elicitation-request', input: {} }] },
      { text: 'Fine' },
    ]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Ask me things' });
    const consent = await pendingAfter(harness, mark, 'tool-call');
    await harness.call('pending.answer', { id: consent.id, response: { decision: 'always-tool' } });

    const form = await pendingAfter(harness, mark, 'elicitation');
    expect(form).toMatchObject({ server: 'everything', conversationId: id, toolUseId: consent.toolUseId });
    if (form.payload.mode !== 'form') throw new Error('expected a form');
    const fields = Object.fromEntries(form.payload.fields.map((field) => [field.name, field]));
    expect(fields.name).toMatchObject({ kind: 'string', required: true });
    expect(fields.email).toMatchObject({ kind: 'string', format: 'email' });
    expect(fields.integer).toMatchObject({ kind: 'number', integer: true, minimum: 1, maximum: 100, default: 42 });
    expect(fields.titledSingleSelectEnum).toMatchObject({
      kind: 'select',
      options: [{ value: 'hero-1', label: 'Superman' }, expect.anything(), expect.anything()],
    });
    expect(fields.untitledMultipleSelectEnum).toMatchObject({ kind: 'multi-select', minItems: 1, maxItems: 3 });

    const bad = await harness.host.dispatch('pending.answer', {
      id: form.id,
      response: { action: 'accept', content: { name: 'Ada Lovelace', email: 'not-an-email' } },
    });
    expect(bad).toMatchObject({ ok: false, code: 'INVALID_INPUT', message: expect.stringContaining('Fix the form') });
    expect((await harness.call<unknown[]>('pending.list', {})).length).toBe(1);
    await harness.call('pending.answer', {
      id: form.id,
      response: {
        action: 'accept',
        content: {
          name: 'Ada Lovelace',
          check: true,
          email: 'ada@example.com',
          integer: '7',
          untitledMultipleSelectEnum: ['Piano', 'Drums'],
        },
      },
    });
    await turnEndAfter(harness, mark, id);
    const accepted = toolResultTexts(fake, 1);
    expect(accepted).toContain('Name: Ada Lovelace');
    expect(accepted).toContain('Email: ada@example.com');
    expect(accepted).toContain('Favorite Integer: 7');
    expect(accepted).toContain('"Drums"');

    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Again' });
    const second = await pendingAfter(harness, mark, 'elicitation');
    await harness.call('pending.answer', { id: second.id, response: { action: 'decline' } });
    await turnEndAfter(harness, mark, id);
    expect(toolResultTexts(fake, 3)).toContain('User declined to provide the requested information');
  });

  it('URL mode: shows the domain, counts as accepted once agreed, and waits for completion until dismissed', async () => {
    const { harness, fake } = await setup();
    const { id } = await newConversation(harness);
    const url = 'https://auth.example.com/start?session=1';
    fake.script([
      {
        toolUses: [
          {
            name: 'everything__trigger-url-elicitation',
            input: { url, elicitationId: 'login-1', message: 'Sign in, please' },
          },
        ],
      },
      { text: 'ok' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Log me in' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });
    const prompt = await pendingAfter(harness, mark, 'elicitation');
    expect(prompt.payload).toEqual({
      mode: 'url',
      message: 'Sign in, please',
      url,
      domain: 'auth.example.com',
      elicitationId: 'login-1',
      warnings: [],
    });
    await harness.call('pending.answer', { id: prompt.id, response: { action: 'accept' } });
    await turnEndAfter(harness, mark, id);
    expect(toolResultTexts(fake, 1)).toContain('User completed the URL elicitation flow');

    const changed = await eventAfter(
      harness,
      mark,
      'elicitation.awaitingChanged',
      ({ awaiting }) => awaiting.length === 1,
    );
    const awaiting = await harness.call<AwaitingElicitation[]>('elicitation.awaiting', {});
    expect(awaiting).toEqual(changed.awaiting);
    expect(awaiting[0]).toMatchObject({
      id: 'everything/login-1',
      server: 'everything',
      domain: 'auth.example.com',
      conversationId: id,
    });
    expect(await harness.call('elicitation.dismiss', { id: 'everything/login-1' })).toEqual({ dismissed: true });
    expect(await harness.call('elicitation.dismiss', { id: 'everything/login-1' })).toEqual({ dismissed: false });
    expect(await harness.call('elicitation.awaiting', {})).toEqual([]);
  });
});
