import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../../e2e/fake-llm/fake-anthropic';
import { FakeOpenAi } from '../../../e2e/fake-llm/fake-openai';
import type { ChatToolResultBlock } from '../../../shared/domain/chat';
import { HOST_TOOL_SERVER } from '../../../shared/domain/host-tools';
import { ChatEngine } from '../chat-engine';
import type { AvailableTool, ChatEngineOptions } from '../chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, openChatStore } from '../chat-test-support';
import { ConversationStore } from '../conversation-store';
import { HostToolRegistry } from '../host-tools/host-tool-registry';
import { AnthropicProvider } from '../../providers/llm-provider';
import { OpenAiCompatibleClient } from '../../providers/openai-compatible';
import { createResultReading } from './read-result-tool';
import { READ_RESULT_TOOL } from './result-cap';

// Big results through the real chat engine: the request to the model (fake
// Anthropic and fake OpenAI-compatible servers, their request logs) carries
// the head and tail with Berth's note, the saved conversation the whole, and
// the reading tool answers further ranges of this conversation's results only.

const MODEL = 'claude-test-1';
/** 400,000 numbered lines: about 5.6 MB. */
const BIG = Array.from({ length: 400_000 }, (_, index) => `line ${String(index + 1).padStart(6, '0')}`).join('\n');

const files: AvailableTool = {
  server: 'files',
  tool: { name: 'read', description: 'Reads a file', inputSchema: { type: 'object', properties: {} } },
};

function resultsOf(conversation: {
  messages: ReadonlyArray<{ content: ReadonlyArray<{ type: string }> }>;
}): ChatToolResultBlock[] {
  return conversation.messages.flatMap((message) =>
    message.content.filter((block): block is ChatToolResultBlock => block.type === 'tool_result'),
  );
}

describe('big tool results in a chat turn', () => {
  let dir: string;
  let store: ConversationStore;
  let log: ChatEventLog;
  const limits = new Map<string, number>();
  const limitOf = (server: string): number => limits.get(server) ?? 1_000;

  beforeEach(async () => {
    ({ dir, store, log } = await openChatStore('berth-results-'));
    limits.clear();
  });
  afterEach(async () => {
    await closeChatStore({ dir, store });
  });

  function engine(provider: ChatEngineOptions['provider'], answer: () => string = () => BIG): ChatEngine {
    return new ChatEngine({
      provider,
      store,
      tools: () => [files],
      gate: new ScriptedGate(),
      runner: { callTool: async () => ({ content: [{ type: 'text', text: answer() }] }) },
      hostTools: new HostToolRegistry([createResultReading(limitOf)]),
      resultLimit: limitOf,
      onEvent: log.onEvent,
    });
  }

  describe('with Anthropic', () => {
    let fake: FakeAnthropic;
    beforeEach(async () => {
      fake = await FakeAnthropic.start({ apiKey: 'sk-unit' });
    });
    afterEach(async () => {
      await fake.close();
    });
    const anthropic = () => new AnthropicProvider({ apiKey: 'sk-unit', baseURL: fake.url, maxRetries: 0 });

    it('sends head and tail with a note, saves the whole, says so on the card, offers the reading tool and counts what it saved', async () => {
      fake.script([
        { toolUses: [{ name: 'files__read', input: {} }] },
        {
          toolUses: [
            { name: READ_RESULT_TOOL, input: { result_id: 'toolu_fake_1_1', start_line: 200_000, end_line: 200_002 } },
          ],
        },
        { text: 'Read: {{lastToolResult}}' },
      ]);
      const conversation = await store.create({ model: MODEL });
      expect(await (await engine(anthropic()).send(conversation.id, 'read it')).done).toMatchObject({
        status: 'finished',
      });

      // Nothing was cut before the call: no reading tool offered.
      expect(fake.requests[0]?.body?.tools?.map((tool) => tool.name)).toEqual(['files__read']);
      const sent = JSON.stringify(fake.requests[1]?.body?.messages.at(-1)?.content);
      expect(sent.length).toBeLessThan(5_000);
      expect(sent).toContain('line 000001');
      expect(sent).toContain('line 400000');
      expect(sent).not.toContain('line 200000');
      expect(sent).toContain(`call ${READ_RESULT_TOOL} with result_id \\"toolu_fake_1_1\\"`);
      expect(fake.requests[1]?.body?.tools?.map((tool) => tool.name)).toEqual(['files__read', READ_RESULT_TOOL]);

      // The model read three lines from the middle.
      const read = JSON.stringify(fake.requests[2]?.body?.messages.at(-1)?.content);
      expect(read).toContain('line 200000\\nline 200001\\nline 200002');
      expect(read).toContain('lines 200,000–200,002 of 400,000');

      const saved = await store.get(conversation.id);
      const [whole, reading] = resultsOf(saved);
      expect(whole?.content).toEqual([{ type: 'text', text: BIG }]);
      expect(whole?.capped).toEqual({ limitTokens: 1_000, shownChars: expect.any(Number), totalChars: BIG.length });
      expect(reading?.hostSummary).toBe('read offsets 2399988–2400024 of the result of files › read');
      expect(saved.messages[1]?.content[0]).toMatchObject({ type: 'tool_use', server: 'files' });
      expect(saved.messages[3]?.content[0]).toMatchObject({
        type: 'tool_use',
        server: HOST_TOOL_SERVER,
        tool: READ_RESULT_TOOL,
      });
      // The card learns it with the result.
      const finished = log.of('tool-call-finished').find((event) => event.toolUseId === 'toolu_fake_1_1');
      expect(finished?.result?.capped?.totalChars).toBe(BIG.length);
      // Two requests carried the cut result: each saved most of it.
      const usage = log.of('turn-finished')[0]?.usage;
      expect(usage?.cappedTokensEstimate).toBeGreaterThan(2 * (BIG.length / 4 - 1_000));
    });

    it('keeps cutting a result to the limit it arrived with when the server’s limit changes', async () => {
      fake.script([{ toolUses: [{ name: 'files__read', input: {} }] }, { text: 'ok' }, { text: 'still ok' }]);
      const conversation = await store.create({ model: MODEL });
      const chat = engine(anthropic());
      await (
        await chat.send(conversation.id, 'read it')
      ).done;
      const first = JSON.stringify(fake.requests[1]?.body?.messages);
      limits.set('files', 4_000);
      await (
        await chat.send(conversation.id, 'and now?')
      ).done;
      // The earlier result is sent exactly as before (the model's view, and the prompt cache, hold).
      expect(JSON.stringify(fake.requests[2]?.body?.messages.slice(0, 3))).toBe(first);
    });

    it('answers the reading tool: this conversation only, an unknown id, bad ranges and the bound per call', async () => {
      fake.script([{ toolUses: [{ name: 'files__read', input: {} }] }, { text: 'ok' }]);
      const chat = engine(anthropic());
      const first = await store.create({ model: MODEL });
      await (
        await chat.send(first.id, 'read it')
      ).done;
      const other = await store.create({ model: MODEL });
      await store.appendMessage(other.id, {
        id: 'm1',
        role: 'user',
        createdAt: 1,
        content: [{ type: 'text', text: 'hi' }],
      });

      const provider = createResultReading(limitOf);
      const withResult = await store.get(first.id);
      const reader = provider.offer({
        conversation: withResult,
        enabled: [],
        names: undefined as never,
        contextWindow: undefined,
      }).tools[0];
      expect(reader?.name).toBe(READ_RESULT_TOOL);
      expect(
        provider.offer({
          conversation: await store.get(other.id),
          enabled: [],
          names: undefined as never,
          contextWindow: undefined,
        }).tools,
      ).toEqual([]);
      const run = (input: Record<string, unknown>, conversation = withResult) =>
        reader!.run(input, {
          conversationId: conversation.id,
          toolUseId: 't',
          signal: new AbortController().signal,
          conversation,
        });

      const elsewhere = await run({ result_id: 'toolu_fake_1_1' }, await store.get(other.id));
      expect(elsewhere).toMatchObject({
        isError: true,
        content: [
          {
            type: 'text',
            text: expect.stringContaining(
              'There is no tool result with result_id "toolu_fake_1_1" in this conversation',
            ),
          },
        ],
      });
      expect(await run({ result_id: 'toolu_made_up' })).toMatchObject({
        isError: true,
        summary: 'found no result "toolu_made_up"',
      });
      expect(await run({})).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining('result_id is missing') }],
      });
      expect(await run({ result_id: 'toolu_fake_1_1', offset: 99_000_000 })).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining('offset 99000000 is past the end') }],
      });
      expect(await run({ result_id: 'toolu_fake_1_1', offset: 1, start_line: 2 })).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining('not both') }],
      });
      const bounded = await run({ result_id: 'toolu_fake_1_1', offset: 0, length: 1_000_000 });
      const text = bounded.content[0]?.type === 'text' ? bounded.content[0].text : '';
      expect(bounded.isError).toBe(false);
      expect(text).toContain('at most 2,800 characters a call');
      expect(text.slice(text.indexOf('\n') + 1)).toBe(BIG.slice(0, 2_800));
    });

    it('leaves a result under the limit alone, and offers no reading tool', async () => {
      fake.script([{ toolUses: [{ name: 'files__read', input: {} }] }, { text: 'ok' }]);
      const conversation = await store.create({ model: MODEL });
      await (
        await engine(anthropic(), () => 'small').send(conversation.id, 'read it')
      ).done;
      expect(fake.requests[1]?.body?.tools?.map((tool) => tool.name)).toEqual(['files__read']);
      expect(JSON.stringify(fake.requests[1]?.body?.messages.at(-1)?.content)).not.toContain('Berth cut');
      expect(resultsOf(await store.get(conversation.id))[0]?.capped).toBeUndefined();
      expect(log.of('turn-finished')[0]?.usage?.cappedTokensEstimate).toBeUndefined();
    });
  });

  it('cuts the same way for an OpenAI-compatible provider', async () => {
    const fake = await FakeOpenAi.start({ models: ['llama3.1:8b'] });
    try {
      fake.script([{ toolUses: [{ name: 'files__read', input: {} }] }, { text: 'ok' }]);
      const conversation = await store.create({ model: 'llama3.1:8b' });
      await (
        await engine(new OpenAiCompatibleClient({ baseURL: fake.url, maxRetries: 0 })).send(conversation.id, 'read it')
      ).done;
      const tool = fake.requests[1]?.body?.messages.find((message) => message.role === 'tool');
      const content = typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content);
      expect(content.length).toBeLessThan(5_000);
      expect(content).toContain('line 000001');
      expect(content).toContain('line 400000');
      expect(content).toContain('[Berth cut this tool result from server "files"');
      expect(fake.requests[1]?.body?.tools?.map((definition) => definition.function.name)).toEqual([
        'files__read',
        READ_RESULT_TOOL,
      ]);
      expect(resultsOf(await store.get(conversation.id))[0]?.content).toEqual([{ type: 'text', text: BIG }]);
    } finally {
      await fake.close();
    }
  });
});
