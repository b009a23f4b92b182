import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../shared/domain/server';
import type { Conversation } from '../../shared/domain/chat';
import type { ServerInstructionsSetting } from '../../shared/contract/instructions-settings';
import { addEverything, newConversation, startChatWorld, TEST_API_KEY, turnEndAfter } from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('host: server instructions reach the model, and what a turn cost is kept', () => {
  it("sends server-everything's instructions as the system prompt while its tools are offered and its switch is on; saves the usage the API reported", async () => {
    world = await startChatWorld();
    const { fake } = world;
    let harness = world.harness;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    const everything = await addEverything(harness);
    const instructions = everything.instructions ?? '';
    expect(instructions.length).toBeGreaterThan(100);
    const { id } = await newConversation(harness);

    // 1. On by default: the system prompt holds the server's text, labelled with its name.
    fake.script([
      {
        text: 'hello',
        usage: {
          input_tokens: 1_200,
          output_tokens: 34,
          cache_read_input_tokens: 500,
          cache_creation_input_tokens: 20,
        },
      },
    ]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'hi' });
    const end = await turnEndAfter(harness, mark, id);
    const system = fake.requests[0]?.body?.system;
    expect(typeof system).toBe('string');
    expect(system).toContain(`<server-instructions server="everything">\n${instructions.trim().slice(0, 200)}`);
    expect(system).toMatch(/written by that server \(not by Berth or the user\)/);

    // The usage reaches the event and the saved reply, with the tools' estimate.
    // As Berth made them: without the cache breakpoint the provider adds to the last one.
    const toolsSent = (fake.requests[0]?.body?.tools ?? []).map(({ cache_control: _mark, ...tool }) => tool);
    expect(toolsSent.length).toBeGreaterThan(5);
    const expected = {
      inputTokens: 1_200,
      outputTokens: 34,
      cacheReadTokens: 500,
      cacheWriteTokens: 20,
      cacheSavedTokens: 445,
      toolTokensEstimate: Math.ceil(JSON.stringify(toolsSent).length / 4),
    };
    expect(end).toMatchObject({ type: 'turn-finished', usage: { ...expected, requests: 1 } });
    expect((await harness.call<Conversation>('chat.get', { id })).messages[1]?.usage).toEqual(expected);

    // 2. Switched off: gone from the next request (and the choice is announced).
    expect(
      await harness.call<ServerInstructionsSetting>('servers.setSendInstructions', {
        server: 'everything',
        sendInstructions: false,
      }),
    ).toEqual({ server: 'everything', sendInstructions: false });
    await harness.waitForEvent(
      'servers.instructionsSettingChanged',
      (s) => s.server === 'everything' && !s.sendInstructions,
    );
    fake.script([{ text: 'two' }]);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'again' });
    await turnEndAfter(harness, mark, id);
    expect(fake.requests[1]?.body).not.toHaveProperty('system');

    // 3. On again, but the conversation offers none of its tools: no system prompt either.
    await harness.call('servers.setSendInstructions', { server: 'everything', sendInstructions: true });
    await harness.call('chat.setTools', { id, disabledServers: ['everything'], disabledTools: [] });
    fake.script([{ text: 'three' }]);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'without tools' });
    await turnEndAfter(harness, mark, id);
    expect(fake.requests[2]?.body).not.toHaveProperty('system');
    expect(fake.requests[2]?.body).not.toHaveProperty('tools');

    // The usage survives a restart of the host (read back from disk).
    await harness.host.shutdown();
    harness = await world.restart();
    expect((await harness.call<Conversation>('chat.get', { id })).messages[1]?.usage).toEqual(expected);
  }, 60_000);

  it('masks a secret Berth gave the server when its instructions quote it', async () => {
    world = await startChatWorld();
    const { fake, harness } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    const token = 'echo-token-5b1e9c0d7a2f4e68';
    const config = {
      command: process.execPath,
      args: [fileURLToPath(new URL('../../e2e/fixtures/servers/secret-echo.mjs', import.meta.url))],
      env: { SECRET_ECHO_TOKEN: token },
      secretEnv: ['SECRET_ECHO_TOKEN'],
    };
    await harness.call('servers.add', { name: 'echo', config });
    await harness.waitForEvent('servers.changed', (state) => state.name === 'echo' && state.status === 'ready');
    const { id } = await newConversation(harness);
    fake.script([{ text: 'ok' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'hi' });
    await turnEndAfter(harness, mark, id);
    const system = String(fake.requests[0]?.body?.system);
    expect(system).toContain(
      `<server-instructions server="echo">\nCall token-length first. You are authenticated with ${SECRET_MASK}.`,
    );
    expect(JSON.stringify(fake.requests[0]?.body)).not.toContain(token);
  }, 60_000);
});
