import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, REPO_ROOT, StateRecorder, serverConfig, tempDir } from '../../app/servers/test-support';
import { CANCELLED_BY_USER, ChatEngine, STOPPED_TOOL_TEXT } from '../../app/chat/chat-engine';
import type { AvailableTool } from '../../app/chat/chat-engine';
import { ChatEventLog, ScriptedGate } from '../../app/chat/chat-test-support';
import { ConversationStore } from '../../app/chat/conversation-store';
import { AnthropicProvider } from '../../app/providers/llm-provider';
import type { ToolCallGateAnswer, ToolCallGateRequest } from '../../app/chat/chat-engine';

const MODEL = 'claude-test-1';

function everythingEntry(): string {
  const dir = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol/server-everything');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  if (bin === undefined) throw new Error('server-everything has no bin');
  return join(dir, bin);
}

type RequestMessages = NonNullable<FakeAnthropic['requests'][number]['body']>['messages'];

/** The last user message of a recorded request. */
function lastUserContent(messages: RequestMessages | undefined): unknown {
  return messages?.at(-1)?.content;
}

// One server-everything for the whole file: spawning it costs more than the tests.
describe('chat engine with a real server-everything over stdio and the fake Messages API', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let supervisor: ServerSupervisor;
  let logs: LogCollector;
  let fake: FakeAnthropic;
  let store: ConversationStore;
  let log: ChatEventLog;
  let decide: (request: ToolCallGateRequest) => ToolCallGateAnswer | Promise<ToolCallGateAnswer>;
  let engine: ChatEngine;

  beforeAll(async () => {
    dir = await tempDir('berth-chat-int-');
    logs = new LogCollector();
    supervisor = new ServerSupervisor({ logs, stateDir: dir.path, onState: new StateRecorder().onState });
    await supervisor.sync({
      everything: serverConfig({ command: process.execPath, args: [everythingEntry(), 'stdio'] }),
    });
    expect(supervisor.get('everything')?.status).toBe('ready');
    fake = await FakeAnthropic.start({ apiKey: 'sk-int' });
  });
  afterAll(async () => {
    await supervisor.shutdown();
    await fake.close();
    await dir.cleanup();
  });

  beforeEach(async () => {
    fake.reset();
    store = await ConversationStore.open({ dir: dir.path });
    log = new ChatEventLog();
    decide = (request) => ({ allow: true, input: request.input });
    engine = new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'sk-int', baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: (): AvailableTool[] =>
        supervisor
          .list()
          .flatMap((state) =>
            state.status === 'ready' ? state.tools.map((tool) => ({ server: state.name, tool })) : [],
          ),
      gate: new ScriptedGate((request) => decide(request)),
      runner: supervisor,
      onEvent: log.onEvent,
    });
  });

  it('the model asks for echo, the gate allows it, the result reaches the model and the reply is saved', async () => {
    fake.script([
      { text: 'I will echo that.', toolUses: [{ name: 'everything__echo', input: { message: 'hello berth' } }] },
      { text: 'The server said: {{lastToolResult}}' },
    ]);
    const conversation = await store.create({ model: MODEL });
    const outcome = await (await engine.send(conversation.id, 'Echo hello berth')).done;
    expect(outcome).toEqual({ status: 'finished', stopReason: 'end_turn' });
    const offered = fake.requests[0]?.body?.tools?.map((tool) => tool.name) ?? [];
    expect(offered).toEqual(
      expect.arrayContaining(['everything__echo', 'everything__get-sum', 'everything__trigger-long-running-operation']),
    );
    expect(lastUserContent(fake.requests[1]?.body?.messages)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_fake_1_1', content: [{ type: 'text', text: 'Echo: hello berth' }] },
    ]);
    expect(log.text()).toContain('The server said: Echo: hello berth');
    expect(log.of('tool-call-started')[0]).toMatchObject({
      server: 'everything',
      tool: 'echo',
      input: { message: 'hello berth' },
    });

    // A new store instance reads the same conversation back from disk.
    const reopened = await ConversationStore.open({ dir: dir.path });
    const saved = await reopened.get(conversation.id);
    expect(saved.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(saved.messages[2]?.content).toEqual([
      {
        type: 'tool_result',
        toolUseId: 'toolu_fake_1_1',
        content: [{ type: 'text', text: 'Echo: hello berth' }],
        isError: false,
      },
    ]);
    expect(saved.messages[3]?.content).toEqual([{ type: 'text', text: 'The server said: Echo: hello berth' }]);
    expect(reopened.list().find((summary) => summary.id === conversation.id)).toMatchObject({
      title: 'Echo hello berth',
      messageCount: 4,
    });
  });

  it('a denial reaches the model with the reason, and the server is never called', async () => {
    decide = () => ({ allow: false, reason: 'I do not want that' });
    fake.script([{ toolUses: [{ name: 'everything__get-env', input: {} }] }, { text: 'Understood.' }]);
    const conversation = await store.create({ model: MODEL });
    await (
      await engine.send(conversation.id, 'show env')
    ).done;
    expect(lastUserContent(fake.requests[1]?.body?.messages)).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_fake_1_1',
        is_error: true,
        content: [{ type: 'text', text: 'The user denied this tool call. Reason: I do not want that' }],
      },
    ]);
    expect(log.of('tool-call-started')).toHaveLength(0);
  });

  it('two parallel tool_uses run and both results go back in one message, in order', async () => {
    fake.script([
      {
        toolUses: [
          { name: 'everything__get-sum', input: { a: 2, b: 3 } },
          { name: 'everything__echo', input: { message: 'second' } },
        ],
      },
      { text: 'Both done.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    await (
      await engine.send(conversation.id, 'two things')
    ).done;
    expect(lastUserContent(fake.requests[1]?.body?.messages)).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_fake_1_1',
        content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }],
      },
      { type: 'tool_result', tool_use_id: 'toolu_fake_1_2', content: [{ type: 'text', text: 'Echo: second' }] },
    ]);
  });

  it('a fast call’s result is reported while a slow parallel call still runs', async () => {
    fake.script([
      {
        toolUses: [
          { name: 'everything__trigger-long-running-operation', input: { duration: 1.5, steps: 3 } },
          { name: 'everything__get-sum', input: { a: 2, b: 3 } },
        ],
      },
      { text: 'Both done.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    const handle = await engine.send(conversation.id, 'slow and fast');
    const fast = await log.waitFor('tool-call-finished', (event) => event.toolUseId === 'toolu_fake_1_2');
    expect(fast.result?.content).toEqual([{ type: 'text', text: 'The sum of 2 and 3 is 5.' }]);
    // The slow one has not finished, and nothing is saved yet.
    expect(log.of('tool-call-finished').map((event) => event.toolUseId)).toEqual(['toolu_fake_1_2']);
    expect(
      log.of('message-saved').some((event) => event.message.content.some((block) => block.type === 'tool_result')),
    ).toBe(false);
    expect(await handle.done).toEqual({ status: 'finished', stopReason: 'end_turn' });
    const finished = log.of('tool-call-finished').map((event) => event.toolUseId);
    expect(finished).toEqual(['toolu_fake_1_2', 'toolu_fake_1_1']);
  });

  it('a server error goes back to the model as is_error and the loop continues', async () => {
    fake.script([
      { toolUses: [{ name: 'everything__get-sum', input: { a: 'not a number' } }] },
      { text: 'That failed.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    const outcome = await (await engine.send(conversation.id, 'bad sum')).done;
    expect(outcome).toEqual({ status: 'finished', stopReason: 'end_turn' });
    const [result] = lastUserContent(fake.requests[1]?.body?.messages) as [
      { type: string; is_error?: boolean; content: Array<{ text: string }> },
    ];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_fake_1_1', is_error: true });
    expect(result.content[0]?.text.length).toBeGreaterThan(0);
    expect(log.of('tool-call-finished')[0]).toMatchObject({ isError: true, denied: false });
  });

  it('progress of a long tool call is reported while it runs', async () => {
    fake.script([
      { toolUses: [{ name: 'everything__trigger-long-running-operation', input: { duration: 1, steps: 3 } }] },
      { text: 'Finished.' },
    ]);
    const conversation = await store.create({ model: MODEL });
    await (
      await engine.send(conversation.id, 'long one')
    ).done;
    const progress = log.of('tool-progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ toolUseId: 'toolu_fake_1_1', total: 3 });
    expect(log.events.findIndex((event) => event.type === 'tool-progress')).toBeLessThan(
      log.events.findIndex((event) => event.type === 'tool-call-finished'),
    );
  });

  it('Stop during a long call tells the server "cancelled by the user", saves the call as stopped, and its late progress is ignored quietly', async () => {
    // 4 steps of 0.4 s: the server keeps reporting after the cancel (it does not watch for one).
    fake.script([
      { toolUses: [{ name: 'everything__trigger-long-running-operation', input: { duration: 1.6, steps: 4 } }] },
    ]);
    const conversation = await store.create({ model: MODEL });
    const handle = await engine.send(conversation.id, 'long one, then stop');
    await log.waitFor('tool-progress');
    const stoppedAt = logs.entries.length;
    await engine.stop(conversation.id);
    expect(await handle.done).toEqual({ status: 'stopped' });

    const cancels = logs
      .for('everything', 'trace')
      .filter((entry) => entry.direction === 'out' && entry.text.includes('notifications/cancelled'))
      .map((entry) => JSON.parse(entry.body ?? '{}') as { params?: { reason?: string } });
    expect(cancels.map((message) => message.params?.reason)).toEqual([CANCELLED_BY_USER]);
    const stopped = {
      type: 'tool_result',
      toolUseId: 'toolu_fake_1_1',
      content: [{ type: 'text', text: STOPPED_TOOL_TEXT }],
      isError: true,
      stopped: true,
    };
    expect((await store.get(conversation.id)).messages.at(-1)?.content).toEqual([stopped]);

    // The server's next steps still arrive: they are seen in the trace, and nothing else happens.
    const progressAfterStop = () =>
      logs.entries
        .slice(stoppedAt)
        .filter((entry) => entry.direction === 'in' && entry.text.includes('notifications/progress'));
    const deadline = Date.now() + 5_000;
    while (progressAfterStop().length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(progressAfterStop().length).toBeGreaterThan(0);
    const loud = logs.entries
      .slice(stoppedAt)
      .filter((entry) => entry.server === 'everything' && (entry.level === 'warning' || entry.level === 'error'));
    expect(loud.map((entry) => entry.text)).toEqual([]);
    expect(
      log.events
        .slice(log.events.findIndex((event) => event.type === 'tool-call-finished'))
        .filter((event) => event.type === 'tool-progress'),
    ).toEqual([]);
    expect(supervisor.get('everything')?.status).toBe('ready');
  });

  it('stop mid-stream keeps the completed messages and what streamed, marked stopped, on disk too', async () => {
    fake.script([
      { toolUses: [{ name: 'everything__echo', input: { message: 'kept' } }] },
      { text: 'This second reply is streaming and will be cut off by the stop button', holdOpen: true },
    ]);
    const conversation = await store.create({ model: MODEL });
    const handle = await engine.send(conversation.id, 'stop test');
    await log.waitFor('text-delta');
    await engine.stop(conversation.id);
    expect(await handle.done).toEqual({ status: 'stopped' });
    expect(log.of('turn-finished').at(-1)).toMatchObject({ stopReason: 'stopped' });
    const reopened = await ConversationStore.open({ dir: dir.path });
    const saved = await reopened.get(conversation.id);
    expect(saved.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    // What streamed before Stop is kept as the reply's start, marked stopped (never a tool call half made).
    expect(saved.messages[3]).toMatchObject({ partial: { cause: 'stopped' } });
    expect(JSON.stringify(saved.messages[3]?.content)).toContain('This second reply');
    expect(saved.messages[2]?.content).toEqual([
      {
        type: 'tool_result',
        toolUseId: 'toolu_fake_1_1',
        content: [{ type: 'text', text: 'Echo: kept' }],
        isError: false,
      },
    ]);

    // The next turn sends a valid history: the fake checks it like the real API.
    fake.script([{ text: 'Resumed.' }]);
    const next = await (await engine.send(conversation.id, 'continue')).done;
    expect(next).toEqual({ status: 'finished', stopReason: 'end_turn' });
  });
});
