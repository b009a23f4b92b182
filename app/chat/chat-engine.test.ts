import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { HostError } from '../../shared/result';
import type { ChatToolResultBlock } from '../../shared/domain/chat';
import { messageText } from '../../shared/domain/chat';
import type { CallToolOptions } from '../servers/server-connection';
import { CANCELLED_BY_USER, ChatEngine, STOPPED_TOOL_TEXT } from './chat-engine';
import type { ChatEngineOptions, ToolRunner } from './chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, offeredTool as tool, openChatStore } from './chat-test-support';
import { ConversationStore } from './conversation-store';
import { AnthropicProvider } from '../providers/llm-provider';

const MODEL = 'claude-test-1';

/** Runs tools in-process with a handler per call; records what it was asked. */
class InProcessRunner implements ToolRunner {
  readonly calls: Array<{ server: string; tool: string; args: Record<string, unknown>; options?: CallToolOptions }> =
    [];
  constructor(private readonly handler: (call: InProcessRunner['calls'][number]) => Promise<CallToolResult>) {}
  callTool(
    server: string,
    toolName: string,
    args: Record<string, unknown>,
    options?: CallToolOptions,
  ): Promise<CallToolResult> {
    const call = { server, tool: toolName, args, ...(options !== undefined ? { options } : {}) };
    this.calls.push(call);
    return this.handler(call);
  }
}

const echoRunner = (): InProcessRunner =>
  new InProcessRunner(async (call) => ({
    content: [{ type: 'text', text: `${call.tool}: ${JSON.stringify(call.args)}` }],
  }));

describe('ChatEngine with the fake Messages API', () => {
  let dir: string;
  let fake: FakeAnthropic;
  let store: ConversationStore;
  let log: ChatEventLog;

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-unit' });
    ({ dir, store, log } = await openChatStore('berth-chat-engine-'));
  });
  afterEach(async () => {
    await fake.close();
    await closeChatStore({ dir, store });
  });

  function engine(overrides: Partial<ChatEngineOptions> = {}): ChatEngine {
    return new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'sk-unit', baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => [tool('web', 'search'), tool('docs', 'search')],
      gate: new ScriptedGate(),
      runner: echoRunner(),
      onEvent: log.onEvent,
      ...overrides,
    });
  }

  it('streams a plain answer, saves both messages and reports the turn in order', async () => {
    fake.script([{ text: 'Hello! How can I help you today?' }]);
    const conversation = await store.create({ model: MODEL });
    const handle = await engine().send(conversation.id, 'Hi there', { model: 'claude-other' });
    expect(await handle.done).toEqual({ status: 'finished', stopReason: 'end_turn' });
    expect(log.types()).toEqual(['turn-started', 'message-saved', 'text-delta', 'message-saved', 'turn-finished']);
    expect(log.text()).toBe('Hello! How can I help you today?');
    const saved = await store.get(conversation.id);
    expect(saved.model).toBe('claude-other');
    expect(saved.title).toBe('Hi there');
    expect(saved.messages.map((message) => [message.role, message.content])).toEqual([
      ['user', [{ type: 'text', text: 'Hi there' }]],
      ['assistant', [{ type: 'text', text: 'Hello! How can I help you today?' }]],
    ]);
    expect(saved.messages[1]).toMatchObject({
      model: 'claude-other',
      stopReason: 'end_turn',
      usage: { inputTokens: expect.any(Number) },
    });
    const request = fake.requests[0]?.body;
    expect(request?.model).toBe('claude-other');
    expect(request?.tools?.map((definition) => definition.name)).toEqual(['web__search', 'docs__search']);
    expect(request?.tools?.[1]?.description).toBe('search things\n\n(MCP server "docs", tool "search")');
  });

  it('runs parallel tool calls concurrently, each with consent, and returns all results in order', async () => {
    const releases: Array<() => void> = [];
    const runner = new InProcessRunner(
      (call) =>
        new Promise((resolve) => {
          releases.push(() => resolve({ content: [{ type: 'text', text: `result from ${call.server}` }] }));
        }),
    );
    const gate = new ScriptedGate((request) =>
      request.server === 'docs' ? { allow: true, input: { q: 'edited' } } : { allow: true, input: request.input },
    );
    fake.script([
      {
        text: 'Searching both.',
        toolUses: [
          { name: 'web__search', input: { q: 'a' } },
          { name: 'docs__search', input: { q: 'b' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    const handle = await engine({ runner, gate }).send(conversation.id, 'search');
    // Both calls are running at the same time before either finishes.
    await waitFor(() => releases.length === 2);
    releases[1]?.();
    releases[0]?.();
    expect(await handle.done).toEqual({ status: 'finished', stopReason: 'end_turn' });
    expect(gate.requests.map((request) => [request.server, request.tool, request.input])).toEqual([
      ['web', 'search', { q: 'a' }],
      ['docs', 'search', { q: 'b' }],
    ]);
    expect(runner.calls.map((call) => call.args)).toEqual([{ q: 'a' }, { q: 'edited' }]);
    const second = fake.requests[1]?.body?.messages;
    expect(second?.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_fake_1_1', content: [{ type: 'text', text: 'result from web' }] },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_fake_1_2',
          // The person edited this call's arguments: the model is told, with what ran.
          content: [
            {
              type: 'text',
              text: 'The user edited the arguments before this tool call ran, so the result below is for these arguments, not the ones you wrote:\n{"q":"edited"}',
            },
            { type: 'text', text: 'result from docs' },
          ],
        },
      ],
    });
    const saved = await store.get(conversation.id);
    expect(saved.messages[1]?.content).toEqual([
      { type: 'text', text: 'Searching both.' },
      {
        type: 'tool_use',
        id: 'toolu_fake_1_1',
        server: 'web',
        tool: 'search',
        apiName: 'web__search',
        input: { q: 'a' },
      },
      {
        type: 'tool_use',
        id: 'toolu_fake_1_2',
        server: 'docs',
        tool: 'search',
        apiName: 'docs__search',
        input: { q: 'b' },
      },
    ]);
    expect((saved.messages[2]?.content[1] as ChatToolResultBlock).sentInput).toEqual({ q: 'edited' });
    expect(log.of('tool-call-pending')).toHaveLength(2);
    expect(
      log
        .of('tool-call-finished')
        .map((event) => event.toolUseId)
        .sort(),
    ).toEqual(['toolu_fake_1_1', 'toolu_fake_1_2']);
  });

  it('a call that finishes first reports its result at once, before the slowest call ends and the results are saved', async () => {
    let releaseSlow: () => void = () => undefined;
    const runner = new InProcessRunner((call) =>
      call.server === 'web'
        ? new Promise((resolve) => (releaseSlow = () => resolve({ content: [{ type: 'text', text: 'slow answer' }] })))
        : Promise.resolve({ content: [{ type: 'text', text: 'fast answer' }], isError: true }),
    );
    fake.script([
      {
        toolUses: [
          { name: 'web__search', input: { q: 'slow' } },
          { name: 'docs__search', input: { q: 'fast' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    const handle = await engine({ runner }).send(conversation.id, 'both');
    const fast = await log.waitFor('tool-call-finished', (event) => event.toolUseId === 'toolu_fake_1_2');
    expect(fast.result).toEqual({
      type: 'tool_result',
      toolUseId: 'toolu_fake_1_2',
      content: [{ type: 'text', text: 'fast answer' }],
      isError: true,
    });
    // The slow call still runs, and no result message is saved yet.
    expect(log.of('tool-call-finished')).toHaveLength(1);
    expect(
      log.of('message-saved').filter((event) => event.message.content.some((block) => block.type === 'tool_result')),
    ).toHaveLength(0);
    releaseSlow();
    expect(await handle.done).toEqual({ status: 'finished', stopReason: 'end_turn' });
    const slow = log.of('tool-call-finished').find((event) => event.toolUseId === 'toolu_fake_1_1');
    expect(slow?.result?.content).toEqual([{ type: 'text', text: 'slow answer' }]);
    // What the event carried is exactly what was saved.
    const saved = (await store.get(conversation.id)).messages[2]?.content;
    expect(saved).toEqual([slow?.result, fast.result]);
  });

  it('denial, tool errors, thrown errors and unknown tools all go back to the model as errors and the loop goes on', async () => {
    const gate = new ScriptedGate((request) =>
      request.tool === 'search' && request.server === 'web'
        ? { allow: false, reason: 'not now' }
        : { allow: true, input: request.input },
    );
    const runner = new InProcessRunner(async (call) => {
      if (call.tool === 'fail') return { content: [{ type: 'text', text: 'disk full' }], isError: true };
      throw new HostError('TIMEOUT', "tools/call tool 'crash' on server 'docs' did not answer within 60 s");
    });
    fake.script([
      {
        toolUses: [
          { name: 'web__search', input: {} },
          { name: 'docs__fail', input: {} },
          { name: 'docs__crash', input: {} },
          { name: 'made_up', input: {} },
        ],
      },
      { text: 'Sorry, none of that worked.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    const handle = await engine({
      gate,
      runner,
      tools: () => [tool('web', 'search'), tool('docs', 'fail'), tool('docs', 'crash')],
    }).send(conversation.id, 'go');
    expect(await handle.done).toEqual({ status: 'finished', stopReason: 'end_turn' });
    expect(fake.requests[1]?.body?.messages.at(-1)?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_fake_1_1',
        is_error: true,
        content: [{ type: 'text', text: 'The user denied this tool call. Reason: not now' }],
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_fake_1_2',
        is_error: true,
        content: [{ type: 'text', text: 'disk full' }],
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_fake_1_3',
        is_error: true,
        content: [{ type: 'text', text: "tools/call tool 'crash' on server 'docs' did not answer within 60 s" }],
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_fake_1_4',
        is_error: true,
        content: [
          { type: 'text', text: 'There is no tool named "made_up" in this conversation. Use only the tools offered.' },
        ],
      },
    ]);
    expect(log.of('tool-call-finished').find((event) => event.toolUseId === 'toolu_fake_1_1')).toMatchObject({
      denied: true,
      isError: true,
    });
    // The unknown tool was never put to the person.
    expect(gate.requests.map((request) => request.tool)).toEqual(['search', 'fail', 'crash']);
  });

  it('offers only the tools this conversation has switched on, and warns when there are many', async () => {
    const many = Array.from({ length: 5 }, (_, index) => tool('bulk', `t${index}`));
    fake.script([{ text: 'ok' }]);
    const conversation = await store.create({ model: MODEL });
    await store.updateSettings(conversation.id, { disabledServers: ['web'], disabledTools: ['bulk/t0'] });
    const chat = engine({
      tools: () => [tool('web', 'search'), tool('docs', 'search'), ...many],
      toolCountWarningAt: 3,
    });
    const offered = await chat.offeredTools(conversation.id);
    expect(offered.tools.map((entry) => entry.apiName).sort()).toEqual([
      'bulk__t1',
      'bulk__t2',
      'bulk__t3',
      'bulk__t4',
      'docs__search',
    ]);
    expect(offered.toolCountWarning).toMatch(/^5 tools are offered to the model/);
    const view = await chat.toolsView(conversation.id);
    expect(view.offeredCount).toBe(5);
    expect(view.warning).toBe(offered.toolCountWarning);
    expect(view.tools.filter((entry) => !entry.enabled).map((entry) => `${entry.server}/${entry.tool}`)).toEqual([
      'web/search',
      'bulk/t0',
    ]);
    expect(view.tools[1]).toEqual({ server: 'docs', tool: 'search', description: 'search things', enabled: true });
    await (
      await chat.send(conversation.id, 'hi')
    ).done;
    expect(fake.requests[0]?.body?.tools).toHaveLength(5);
    expect(log.of('turn-started')[0]).toMatchObject({
      toolCount: 5,
      toolCountWarning: expect.stringContaining('5 tools'),
    });
  });

  it('a call whose MCP task was cancelled is saved as an error for the model, marked taskCancelled for the card', async () => {
    const runner = new InProcessRunner(async (call) => {
      call.options?.onTask?.({ taskId: 'task-1', status: 'working' });
      call.options?.onTask?.({ taskId: 'task-1', status: 'cancelled', statusMessage: 'cancelled by you' });
      throw new Error("the task of tool 'search' on server 'web' was cancelled (cancelled by you)");
    });
    fake.script([
      { text: 'Searching.', toolUses: [{ name: 'web__search', input: { q: 'x' } }] },
      { text: 'It was cancelled.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    await (
      await engine({ runner }).send(conversation.id, 'search')
    ).done;
    const saved = await store.get(conversation.id);
    const result = saved.messages[2]?.content[0];
    expect(result).toMatchObject({ type: 'tool_result', isError: true, taskCancelled: true });
    expect(log.of('tool-task').map((event) => event.status)).toEqual(['working', 'cancelled']);
  });

  it('stop while consent is pending: the prompt is withdrawn, the call is answered as stopped, nothing else runs', async () => {
    const gate = ScriptedGate.waitingForever();
    const runner = echoRunner();
    fake.script([{ text: 'Let me check.', toolUses: [{ name: 'web__search', input: { q: 'x' } }] }]);
    const conversation = await store.create({ model: MODEL });
    const chat = engine({ gate, runner });
    const handle = await chat.send(conversation.id, 'check');
    await log.waitFor('tool-call-pending');
    await chat.stop(conversation.id);
    expect(await handle.done).toEqual({ status: 'stopped' });
    expect(gate.requests[0]?.signal.aborted).toBe(true);
    expect(runner.calls).toHaveLength(0);
    expect(fake.requests).toHaveLength(1);
    expect(log.of('turn-finished')).toEqual([expect.objectContaining({ stopReason: 'stopped' })]);
    const saved = await store.get(conversation.id);
    expect(saved.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(saved.messages[2]?.content).toEqual([
      {
        type: 'tool_result',
        toolUseId: 'toolu_fake_1_1',
        content: [{ type: 'text', text: STOPPED_TOOL_TEXT }],
        isError: true,
        stopped: true,
      },
    ]);
    expect(log.of('tool-call-finished')[0]?.result?.stopped).toBe(true);
    expect(chat.isRunning(conversation.id)).toBe(false);
  });

  it('stop while a tool runs aborts its signal with "cancelled by the user", marks the result stopped and drops later progress', async () => {
    const runner = new InProcessRunner(
      (call) =>
        new Promise((_resolve, reject) => {
          call.options?.onProgress?.({ progress: 1, total: 4 });
          call.options?.signal?.addEventListener('abort', () => {
            // A server that keeps reporting after the cancel: nothing of it may reach the card.
            call.options?.onProgress?.({ progress: 2, total: 4 });
            reject(new HostError('SERVER_ERROR', 'cancelled'));
          });
        }),
    );
    fake.script([{ toolUses: [{ name: 'web__search', input: {} }] }]);
    const conversation = await store.create({ model: MODEL });
    const chat = engine({ runner });
    const handle = await chat.send(conversation.id, 'go');
    await log.waitFor('tool-progress');
    await chat.stop(conversation.id);
    expect(await handle.done).toEqual({ status: 'stopped' });
    const signal = runner.calls[0]?.options?.signal;
    expect(signal?.aborted).toBe(true);
    // The SDK sends String(signal.reason) as the notifications/cancelled reason.
    expect(signal?.reason).toBe(CANCELLED_BY_USER);
    expect(log.of('tool-progress').map((event) => event.progress)).toEqual([1]);
    const stopped = {
      type: 'tool_result',
      toolUseId: 'toolu_fake_1_1',
      content: [{ type: 'text', text: STOPPED_TOOL_TEXT }],
      isError: true,
      stopped: true,
    };
    expect((await store.get(conversation.id)).messages.at(-1)?.content).toEqual([stopped]);
    expect(log.of('tool-call-finished')).toEqual([
      expect.objectContaining({ isError: true, denied: false, result: stopped }),
    ]);
  });

  it('caps the tool loop with a clear message and keeps a valid history', async () => {
    const looping = await FakeAnthropic.start({ fallback: { toolUses: [{ name: 'web__search', input: {} }] } });
    try {
      const conversation = await store.create({ model: MODEL });
      const chat = engine({
        provider: new AnthropicProvider({ apiKey: 'k', baseURL: looping.url, maxRetries: 0 }),
        maxIterations: 3,
      });
      const outcome = await (await chat.send(conversation.id, 'loop')).done;
      expect(outcome).toEqual({
        status: 'failed',
        message: expect.stringMatching(/still calling tools after 3 rounds/),
        hostMessage: { code: 'chat-error.too-many-rounds', params: { rounds: 3 } },
      });
      expect(looping.requests).toHaveLength(3);
      expect(log.of('turn-failed')).toHaveLength(1);
      expect((await store.get(conversation.id)).messages).toHaveLength(7);
    } finally {
      await looping.close();
    }
  });

  it('a model error fails the turn but keeps the message; retry runs it again; edit-and-resend replaces it', async () => {
    fake.script([
      { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } },
      { text: 'First answer.' },
      { text: 'Second answer.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    // One attempt: the waits and retries after an overload are model-call-retries' (and host-chat-waits') tests.
    const chat = engine({ retryPolicy: { maxAttempts: 1 } });
    const failed = await (await chat.send(conversation.id, 'question one')).done;
    expect(failed).toEqual({
      status: 'failed',
      message: 'The API is overloaded right now (529: Overloaded). Wait a moment, then retry.',
      hostMessage: {
        code: 'chat-error.api-overloaded',
        params: { status: 529, detail: 'Overloaded', retryAfter: 0 },
      },
    });
    expect((await store.get(conversation.id)).messages).toHaveLength(1);

    expect(await (await chat.retry(conversation.id)).done).toMatchObject({ status: 'finished' });
    expect((await store.get(conversation.id)).messages.map((message) => message.content)).toEqual([
      [{ type: 'text', text: 'question one' }],
      [{ type: 'text', text: 'First answer.' }],
    ]);

    expect(await (await chat.editAndResend(conversation.id, 'question two')).done).toMatchObject({
      status: 'finished',
    });
    const saved = await store.get(conversation.id);
    expect(saved.messages.map((message) => message.content)).toEqual([
      [{ type: 'text', text: 'question two' }],
      [{ type: 'text', text: 'Second answer.' }],
    ]);
    expect(fake.requests[2]?.body?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'question two' }] },
    ]);
  });

  it('refuses a second turn while one runs, empty text, and unknown conversations', async () => {
    fake.script([{ text: 'slow reply that is held open', holdOpen: true }]);
    const conversation = await store.create({ model: MODEL });
    const chat = engine();
    const handle = await chat.send(conversation.id, 'one');
    await expect(chat.send(conversation.id, 'two')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'A reply is still being written in this conversation: stop it first',
      hostMessage: { code: 'conversation-errors.reply-running', params: {} },
    });
    await expect(chat.send(conversation.id, '  ')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      hostMessage: { code: 'conversation-errors.message-empty', params: {} },
    });
    await expect(chat.send('no-such-conversation', 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(chat.retry((await store.create({ model: MODEL })).id)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: 'There is no message to retry in this conversation',
      hostMessage: { code: 'conversation-errors.nothing-to-retry', params: {} },
    });
    await log.waitFor('text-delta');
    await chat.stop(conversation.id);
    expect(await handle.done).toEqual({ status: 'stopped' });
    // What had streamed is kept, marked as stopped by the person.
    const [, partial, ...rest] = (await store.get(conversation.id)).messages;
    expect(rest).toEqual([]);
    expect(partial?.partial).toEqual({ cause: 'stopped' });
    expect('slow reply that is held open'.startsWith(messageText(partial!))).toBe(true);
  });

  it('a reply cut by max_tokens does not run its half-written tool call', async () => {
    fake.script([
      { text: 'I will call', toolUses: [{ name: 'web__search', input: { q: 'partial' } }], stopReason: 'max_tokens' },
    ]);
    const conversation = await store.create({ model: MODEL });
    const runner = echoRunner();
    const outcome = await (await engine({ runner }).send(conversation.id, 'go')).done;
    expect(outcome).toEqual({ status: 'finished', stopReason: 'max_tokens' });
    expect(runner.calls).toHaveLength(0);
    expect((await store.get(conversation.id)).messages[1]?.content).toEqual([{ type: 'text', text: 'I will call' }]);
  });
});

async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
