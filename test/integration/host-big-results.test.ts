import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResultPage } from '../../shared/contract/chat';
import type { Conversation, ChatToolResultBlock } from '../../shared/domain/chat';
import type { ServerState } from '../../shared/domain/server';
import {
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

// A real tool call through the whole host: a fixture server of ours answers
// with 5 MB, the request the fake Anthropic API logs carries its head and
// tail with Berth's note (cut to the server's own limit, set through the
// contract), the saved conversation keeps all of it, and read_tool_result
// reads a further range without asking the person.

const bigResults = {
  command: process.execPath,
  args: [join(import.meta.dirname, '..', '..', 'e2e', 'fixtures', 'servers', 'big-results.mjs')],
};
/** The fixture's lines: `line NNNNNNN ` + 36 dots, 50 bytes with the newline. */
const line = (n: number): string => `line ${String(n).padStart(7, '0')} ${'.'.repeat(36)}`;
const FIVE_MB_LINES = Math.floor((5 * 1024 * 1024) / 50);

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('host chat: big tool results', () => {
  it('a 5 MB result reaches the model cut to the server’s limit, stays whole in the conversation, and the model reads more', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await harness.call('servers.add', { name: 'logs', config: bigResults });
    await harness.waitForEvent(
      'servers.changed',
      (state: ServerState) => state.name === 'logs' && state.status === 'ready',
    );
    expect(await harness.call('servers.setResultLimit', { server: 'logs', limitTokens: 2_000 })).toEqual({
      server: 'logs',
      limitTokens: 2_000,
    });
    const { id } = await newConversation(harness);

    fake.script([
      { toolUses: [{ name: 'logs__big_log', input: {} }] },
      {
        toolUses: [
          { name: 'read_tool_result', input: { result_id: 'toolu_fake_1_1', start_line: 50_000, end_line: 50_001 } },
        ],
      },
      { text: 'The middle says: {{lastToolResult}}' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Show me the log' });
    const prompt = await pendingAfter(harness, mark, 'tool-call');
    await harness.call('pending.answer', { id: prompt.id, response: { decision: 'allow-once' } });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({
      type: 'turn-finished',
      usage: { cappedTokensEstimate: expect.any(Number) },
    });

    // The request: head and tail within the server's limit, with the note.
    const sent = toolResultTexts(fake, 1);
    expect(sent.length).toBeLessThanOrEqual(2_000 * 4);
    expect(sent.startsWith(line(1))).toBe(true);
    expect(sent.endsWith(line(FIVE_MB_LINES))).toBe(true);
    expect(sent).toContain(
      `[Berth cut this tool result from server "logs": it is ${(FIVE_MB_LINES * 50 - 1).toLocaleString('en-US')} characters`,
    );
    expect(sent).toContain('above the limit of 2,000 tokens');
    expect(sent).toContain('call read_tool_result with result_id "toolu_fake_1_1"');
    expect(sent).not.toContain(line(50_000));
    // The reading tool's answer: the two lines, without a consent prompt (only the one above was asked).
    expect(toolResultTexts(fake, 2)).toContain(`${line(50_000)}\n${line(50_001)}`);
    expect((await harness.call<unknown[]>('pending.list', {})).length).toBe(0);
    expect(
      harness.events
        .slice(mark)
        .filter((event) => event.topic === 'pending.changed' && JSON.stringify(event.payload).includes('"opened"')),
    ).toHaveLength(1);

    // The conversation: all 5 MB (a window gets its preview and reads the rest in pages), with what the model saw of it.
    const saved = await harness.call<Conversation>('chat.get', { id });
    const result = saved.messages[2]?.content[0] as ChatToolResultBlock;
    expect(result.whole).toEqual({ chars: FIVE_MB_LINES * 50 - 1, blocks: 1 });
    const end = await harness.call<ResultPage>('chat.readResult', {
      id,
      toolUseId: result.toolUseId,
      offset: (FIVE_MB_LINES - 1) * 50,
      limit: 1_000,
    });
    expect(end).toMatchObject({ text: line(FIVE_MB_LINES), nextOffset: null });
    expect(result.capped).toEqual({
      limitTokens: 2_000,
      shownChars: expect.any(Number),
      totalChars: FIVE_MB_LINES * 50 - 1,
    });
    expect(result.capped?.shownChars).toBeGreaterThan(5_000);
  }, 90_000);

  it('cuts a big embedded resource the same way, with Berth’s default limit', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await harness.call('servers.add', { name: 'logs', config: bigResults });
    await harness.waitForEvent(
      'servers.changed',
      (state: ServerState) => state.name === 'logs' && state.status === 'ready',
    );
    const { id } = await newConversation(harness);
    fake.script([{ toolUses: [{ name: 'logs__big_resource', input: {} }] }, { text: 'ok' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Read the file' });
    await harness.call('pending.answer', {
      id: (await pendingAfter(harness, mark, 'tool-call')).id,
      response: { decision: 'allow-once' },
    });
    await turnEndAfter(harness, mark, id);
    const sent = toolResultTexts(fake, 1);
    expect(sent.startsWith(`Here is the file.\nResource file:///var/log/big.log (text/plain):\n${line(1)}`)).toBe(true);
    expect(sent.length).toBeLessThanOrEqual(10_000 * 4);
    expect(sent.length).toBeGreaterThan(30_000);
    expect(sent).toContain('above the limit of 10,000 tokens');
  }, 90_000);
});
