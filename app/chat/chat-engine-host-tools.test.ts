import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { HOST_TOOL_SERVER } from '../../shared/domain/host-tools';
import { ChatEngine } from './chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, offeredTool as tool, openChatStore } from './chat-test-support';
import { ConversationStore } from './conversation-store';
import type { HostToolContext, HostToolProvider } from './host-tools/host-tool';
import { HostToolRegistry } from './host-tools/host-tool-registry';
import { AnthropicProvider } from '../providers/llm-provider';

const MODEL = 'claude-test-1';

describe('ChatEngine host tools (the seam)', () => {
  let dir: string;
  let fake: FakeAnthropic;
  let store: ConversationStore;
  let log: ChatEventLog;

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-unit' });
    ({ dir, store, log } = await openChatStore('berth-host-tools-'));
  });
  afterEach(async () => {
    await fake.close();
    await closeChatStore({ dir, store });
  });

  it('offers a host tool, answers its call without consent, and saves it under the reserved server', async () => {
    const seen: HostToolContext[] = [];
    const echo: HostToolProvider = {
      id: 'echo',
      names: ['echo_back'],
      offer: () => ({
        tools: [
          {
            name: 'echo_back',
            description: 'Says it back',
            inputSchema: { type: 'object', properties: { words: { type: 'string' } } },
            run: async (input, context) => {
              seen.push(context);
              return {
                content: [{ type: 'text', text: `you said ${String(input.words)}` }],
                isError: false,
                summary: `echoed “${String(input.words)}”`,
              };
            },
          },
        ],
        // Narrowed to one MCP tool: the other is enabled but not sent, and a call of it is refused.
        sendOnly: new Set(['web/search']),
      }),
    };
    const gate = new ScriptedGate();
    const engine = new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'sk-unit', baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => [tool('web', 'search'), tool('docs', 'search')],
      gate,
      runner: { callTool: async () => ({ content: [{ type: 'text', text: 'ran' }] }) },
      hostTools: new HostToolRegistry([echo]),
      onEvent: log.onEvent,
    });
    fake.script([
      {
        toolUses: [
          { name: 'echo_back', input: { words: 'hi' } },
          { name: 'docs__search', input: {} },
        ],
      },
      { text: 'Done.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    const handle = await engine.send(conversation.id, 'go');
    expect(await handle.done).toMatchObject({ status: 'finished' });

    // A narrowed list sends the host tools first, so loading more only appends (tool-offer.ts).
    expect(fake.requests[0]?.body?.tools?.map((definition) => definition.name)).toEqual(['echo_back', 'web__search']);
    expect(gate.requests).toEqual([]);
    expect(seen[0]).toMatchObject({ conversationId: conversation.id, toolUseId: 'toolu_fake_1_1' });
    const saved = await store.get(conversation.id);
    expect(saved.messages[1]?.content[0]).toMatchObject({
      type: 'tool_use',
      server: HOST_TOOL_SERVER,
      tool: 'echo_back',
      apiName: 'echo_back',
    });
    expect(saved.messages[2]?.content).toEqual([
      {
        type: 'tool_result',
        toolUseId: 'toolu_fake_1_1',
        content: [{ type: 'text', text: 'you said hi' }],
        isError: false,
        hostSummary: 'echoed “hi”',
      },
      {
        type: 'tool_result',
        toolUseId: 'toolu_fake_1_2',
        content: [{ type: 'text', text: expect.stringMatching(/not loaded in this conversation/) }],
        isError: true,
      },
    ]);
    // What tool search saved is on the request's usage: both definitions vs the one sent (plus the host tool's).
    const usage = saved.messages[1]?.usage;
    expect(usage?.toolTokensFullEstimate).toBeGreaterThan(0);
    expect(log.of('tool-call-started').map((event) => event.server)).toEqual([HOST_TOOL_SERVER]);
  });

  it('answers a host tool that throws as an error for the model, and one not offered now as still Berth’s', async () => {
    let offered = true;
    const broken: HostToolProvider = {
      id: 'broken',
      names: ['break_now'],
      offer: () => ({
        tools: offered
          ? [
              {
                name: 'break_now',
                description: 'x',
                inputSchema: { type: 'object' },
                run: () => Promise.reject(new Error('boom')),
              },
            ]
          : [],
      }),
    };
    const engine = new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'sk-unit', baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => [],
      gate: new ScriptedGate(),
      runner: { callTool: async () => ({ content: [] }) },
      hostTools: new HostToolRegistry([broken]),
      onEvent: log.onEvent,
    });
    fake.script([{ toolUses: [{ name: 'break_now', input: {} }] }, { text: 'ok' }]);
    const conversation = await store.create({ model: MODEL });
    await (
      await engine.send(conversation.id, 'go')
    ).done;
    offered = false;
    fake.script([{ toolUses: [{ name: 'break_now', input: {} }] }, { text: 'ok' }]);
    await (
      await engine.send(conversation.id, 'again')
    ).done;
    const saved = (await store.get(conversation.id)).messages;
    const results = saved.flatMap((message) => message.content.filter((block) => block.type === 'tool_result'));
    expect(results.map((result) => (result.content[0]?.type === 'text' ? result.content[0].text : ''))).toEqual([
      'Berth could not answer break_now: boom',
      'Berth\'s tool "break_now" is not offered in this conversation now.',
    ]);
    // Saved under Berth, so its card reads "Berth …", never "unknown tool" with the host tool's name.
    const uses = saved.flatMap((message) => message.content.filter((block) => block.type === 'tool_use'));
    expect(uses.map((use) => use.server)).toEqual([HOST_TOOL_SERVER, HOST_TOOL_SERVER]);
  });
});
