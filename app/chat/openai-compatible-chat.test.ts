import { mkdtemp, rm } from 'node:fs/promises';
import { messageText } from '../../shared/domain/chat';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import { ChatEngine } from './chat-engine';
import type { AvailableTool, ChatEngineOptions, ToolRunner } from './chat-engine';
import { ChatEventLog, ScriptedGate } from './chat-test-support';
import { ConversationStore } from './conversation-store';
import { OpenAiCompatibleClient } from '../providers/openai-compatible';
import { TOOL_ERROR_PREFIX } from '../providers/openai-translate';

// The chat engine's whole turn through an OpenAI-compatible provider: the
// engine speaks Anthropic shapes, the client translates, the fake server
// checks every request as OpenAI would.

const MODEL = 'llama3.1:8b';

function tool(server: string, name: string): AvailableTool {
  return {
    server,
    tool: {
      name,
      description: `${name} things`,
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    },
  };
}

class RecordingRunner implements ToolRunner {
  readonly calls: Array<{ server: string; tool: string; args: Record<string, unknown> }> = [];
  constructor(
    private readonly answer: (call: RecordingRunner['calls'][number]) => CallToolResult = (call) => ({
      content: [{ type: 'text', text: `${call.server} says ${JSON.stringify(call.args)}` }],
    }),
  ) {}
  async callTool(server: string, toolName: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const call = { server, tool: toolName, args };
    this.calls.push(call);
    return this.answer(call);
  }
}

describe('ChatEngine through OpenAiCompatibleClient and the fake OpenAI-compatible server', () => {
  let dir: string;
  let fake: FakeOpenAi;
  let store: ConversationStore;
  let log: ChatEventLog;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-openai-chat-'));
    fake = await FakeOpenAi.start({ models: [MODEL, 'gemma:2b'], modelsWithoutTools: ['gemma:2b'] });
    store = await ConversationStore.open({ dir });
    log = new ChatEventLog();
  });
  afterEach(async () => {
    await fake.close();
    await store.flushIndex();
    await rm(dir, { recursive: true, force: true });
  });

  function engine(overrides: Partial<ChatEngineOptions> = {}): ChatEngine {
    return new ChatEngine({
      provider: new OpenAiCompatibleClient({ baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => [tool('web', 'search'), tool('docs', 'search')],
      gate: new ScriptedGate(),
      runner: new RecordingRunner(),
      onEvent: log.onEvent,
      ...overrides,
    });
  }

  it('a tool call with consent, its result back to the model, then the final answer streamed', async () => {
    const gate = new ScriptedGate();
    const runner = new RecordingRunner();
    fake.script([
      { text: 'Let me look.', toolUses: [{ name: 'web__search', input: { q: 'berth' } }] },
      { text: 'The tool said: {{lastToolResult}}' },
    ]);
    const conversation = await store.create({ model: MODEL });
    const handle = await engine({ gate, runner }).send(conversation.id, 'What is Berth?');
    expect(await handle.done).toEqual({ status: 'finished', stopReason: 'end_turn' });

    expect(gate.requests.map((request) => [request.server, request.tool, request.input])).toEqual([
      ['web', 'search', { q: 'berth' }],
    ]);
    expect(runner.calls).toEqual([{ server: 'web', tool: 'search', args: { q: 'berth' } }]);
    expect(log.text()).toBe('Let me look.The tool said: web says {"q":"berth"}');
    expect(fake.requests[0]?.body?.tools?.map((definition) => definition.function.name)).toEqual([
      'web__search',
      'docs__search',
    ]);
    expect(fake.requests[1]?.body?.messages).toEqual([
      { role: 'user', content: 'What is Berth?' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: 'call_fake_1_1', type: 'function', function: { name: 'web__search', arguments: '{"q":"berth"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_fake_1_1', content: 'web says {"q":"berth"}' },
    ]);
    const saved = await store.get(conversation.id);
    expect(saved.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(saved.messages[1]?.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      {
        type: 'tool_use',
        id: 'call_fake_1_1',
        server: 'web',
        tool: 'search',
        apiName: 'web__search',
        input: { q: 'berth' },
      },
    ]);
    expect(saved.messages[3]).toMatchObject({
      content: [{ type: 'text', text: 'The tool said: web says {"q":"berth"}' }],
      stopReason: 'end_turn',
      usage: { inputTokens: expect.any(Number) },
    });
  });

  it('parallel calls run; one with unreadable arguments is answered as an error without asking or running, and the loop goes on', async () => {
    const gate = new ScriptedGate();
    const runner = new RecordingRunner((call) => ({
      content: [{ type: 'text', text: `no hits for ${String(call.args.q)}` }],
      isError: call.server === 'docs',
    }));
    fake.script([
      {
        toolUses: [
          { name: 'web__search', input: { q: 'a' } },
          { name: 'docs__search', input: { q: 'b' } },
          { name: 'web__search', rawArguments: '{"q": "broken' },
        ],
        interleave: true,
      },
      { text: 'Done.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    expect(await (await engine({ gate, runner }).send(conversation.id, 'search')).done).toEqual({
      status: 'finished',
      stopReason: 'end_turn',
    });
    expect(gate.requests.map((request) => request.toolUseId)).toEqual(['call_fake_1_1', 'call_fake_1_2']);
    expect(runner.calls.map((call) => [call.server, call.args])).toEqual([
      ['web', { q: 'a' }],
      ['docs', { q: 'b' }],
    ]);
    const toolMessages = fake.requests[1]?.body?.messages.filter((message) => message.role === 'tool');
    expect(toolMessages).toEqual([
      { role: 'tool', tool_call_id: 'call_fake_1_1', content: 'no hits for a' },
      { role: 'tool', tool_call_id: 'call_fake_1_2', content: `${TOOL_ERROR_PREFIX}\nno hits for b` },
      {
        role: 'tool',
        tool_call_id: 'call_fake_1_3',
        content: expect.stringMatching(
          /^The tool call failed:\nThe arguments were not valid JSON \(.+\): \{"q": "broken\nThe call did not run: call the tool again with its arguments as one JSON object\.$/,
        ),
      },
    ]);
    expect(log.of('tool-call-finished').find((event) => event.toolUseId === 'call_fake_1_3')).toMatchObject({
      isError: true,
      denied: false,
    });
  });

  it('stop while the reply streams: the turn ends as stopped and the partial reply is kept, marked so', async () => {
    fake.script([{ text: 'a reply that is held open', holdOpen: true }]);
    const conversation = await store.create({ model: MODEL });
    const chat = engine();
    const handle = await chat.send(conversation.id, 'talk');
    await log.waitFor('text-delta');
    await chat.stop(conversation.id);
    expect(await handle.done).toEqual({ status: 'stopped' });
    expect(log.of('turn-finished')).toEqual([expect.objectContaining({ stopReason: 'stopped' })]);
    const [, partial, ...rest] = (await store.get(conversation.id)).messages;
    expect(rest).toEqual([]);
    expect(partial?.partial).toEqual({ cause: 'stopped' });
    expect('a reply that is held open'.startsWith(messageText(partial!))).toBe(true);
    expect(chat.isRunning(conversation.id)).toBe(false);
  });

  it('a model that refuses tools is asked once more without them: the reply arrives and the person is told why it has no tools', async () => {
    fake.script([{ text: 'Hello without tools.' }]);
    const conversation = await store.create({ model: 'gemma:2b' });
    const outcome = await (await engine().send(conversation.id, 'hi')).done;
    expect(outcome).toEqual({ status: 'finished', stopReason: 'end_turn' });
    // The fake answered the first request (with tools) with Ollama's 400, the second had none.
    expect(fake.requests.map((request) => request.body?.tools?.length ?? 0)).toEqual([2, 0]);
    expect(log.of('turn-notice').map((event) => event.message)).toEqual([
      'gemma:2b cannot use tools, so this reply has none. Pick another model in the message box to use tools.',
    ]);
    expect(log.types().indexOf('turn-notice')).toBeLessThan(log.types().indexOf('text-delta'));
    expect(log.text()).toBe('Hello without tools.');
    const saved = await store.get(conversation.id);
    expect(saved.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    // No tools went with the answered request: the usage claims no share for them.
    expect(saved.messages[1]?.usage?.toolTokensEstimate).toBeUndefined();
    expect(log.of('turn-failed')).toEqual([]);
  });

  it('a model that refuses tools mid-reply: the half reply is dropped, the notice comes before the new text, and only the new reply is saved', async () => {
    fake.script([
      { text: 'Half a rep', streamError: { message: 'registry.ollama.ai/library/llama3.1:8b does not support tools' } },
      { text: 'Whole reply.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    expect(await (await engine().send(conversation.id, 'hi')).done).toEqual({
      status: 'finished',
      stopReason: 'end_turn',
    });
    expect(fake.requests.map((request) => request.body?.tools?.length ?? 0)).toEqual([2, 0]);
    const types = log.types();
    expect(types.indexOf('turn-notice')).toBeLessThan(types.lastIndexOf('text-delta'));
    const saved = await store.get(conversation.id);
    expect(saved.messages.map((message) => message.content)).toEqual([
      [{ type: 'text', text: 'hi' }],
      [{ type: 'text', text: 'Whole reply.' }],
    ]);
  });

  it('a model marked as taking no tools gets none from the first request on, with the same notice', async () => {
    fake.script([{ text: 'No tools here.' }]);
    const conversation = await store.create({ model: MODEL });
    const outcome = await (await engine({ takesTools: (model) => model !== MODEL }).send(conversation.id, 'hi')).done;
    expect(outcome).toEqual({ status: 'finished', stopReason: 'end_turn' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body?.tools).toBeUndefined();
    expect((await store.get(conversation.id)).messages[1]?.usage?.toolTokensEstimate).toBeUndefined();
    expect(log.of('turn-notice').map((event) => event.message)).toEqual([
      `${MODEL} cannot use tools, so this reply has none. Pick another model in the message box to use tools.`,
    ]);
  });

  it('no notice when the conversation offers no tools, and other errors are not retried', async () => {
    fake.script([{ error: { status: 400, message: 'context length exceeded' } }]);
    const conversation = await store.create({ model: MODEL });
    const outcome = await (await engine({ tools: () => [] }).send(conversation.id, 'hi')).done;
    expect(outcome).toMatchObject({ status: 'failed', message: expect.stringContaining('context length exceeded') });
    expect(fake.requests).toHaveLength(1);
    expect(log.of('turn-notice')).toEqual([]);
    const marked = await store.create({ model: MODEL });
    fake.script([{ text: 'ok' }]);
    await (
      await engine({ tools: () => [], takesTools: () => false }).send(marked.id, 'hi')
    ).done;
    expect(log.of('turn-notice')).toEqual([]);
  });
});
