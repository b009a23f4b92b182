import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import type { ChatEvent } from '../../shared/domain/chat';
import type { TaskRecord } from '../../shared/domain/task';
import { AnthropicProvider } from '../providers/llm-provider';
import { BackgroundTasks } from './background-tasks';
import { ChatEngine } from './chat-engine';
import { ChatEventLog, ScriptedGate, closeChatStore, openChatStore } from './chat-test-support';
import type { ConversationStore } from './conversation-store';

const MODEL = 'claude-test-1';

function record(conversationId: string): TaskRecord {
  return {
    id: 'task-1',
    taskId: 'srv-7',
    server: 'jobs',
    side: 'requester',
    kind: 'tool',
    tool: 'crawl',
    conversationId,
    toolUseId: 'tu1',
    status: 'completed',
    createdAt: 1,
    updatedAt: 2,
  };
}

describe('background task results in a conversation', () => {
  let dir: string;
  let fake: FakeAnthropic;
  let store: ConversationStore;
  let log: ChatEventLog;
  let engine: ChatEngine;
  let background: BackgroundTasks;
  const emitted: ChatEvent[] = [];
  const logged: string[] = [];

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-unit' });
    ({ dir, store, log } = await openChatStore('berth-background-tasks-'));
    engine = new ChatEngine({
      provider: new AnthropicProvider({ apiKey: 'sk-unit', baseURL: fake.url, maxRetries: 0 }),
      store,
      tools: () => [],
      gate: new ScriptedGate(),
      runner: { callTool: () => Promise.reject(new Error('no tools here')) },
      onEvent: log.onEvent,
    });
    emitted.length = 0;
    logged.length = 0;
    background = new BackgroundTasks({
      store,
      turns: engine,
      emit: (event) => emitted.push(event),
      log: (_level, text) => logged.push(text),
    });
  });
  afterEach(async () => {
    await fake.close();
    await closeChatStore({ dir, store });
  });

  it('a retry keeps the notice of a task that ended after the retried message; the model reads it only once sent', async () => {
    fake.script([{ text: 'First.' }, { text: 'Again.' }, { text: 'Got the crawl.' }]);
    const { id } = await store.create({ model: MODEL });
    await (
      await engine.send(id, 'Crawl it')
    ).done;
    await background.deliver({ record: record(id), result: { content: [{ type: 'text', text: '214 pages' }] } });
    await background.deliver({ record: record(id), result: { content: [{ type: 'text', text: '214 pages' }] } });
    expect(emitted.map((event) => event.type)).toEqual(['task-finished']);

    await (
      await engine.retry(id)
    ).done;
    const kept = (await store.get(id)).messages.flatMap((message) => message.content);
    expect(kept.filter((block) => block.type === 'task_result')).toHaveLength(1);
    // The notice is never sent as it is.
    expect(JSON.stringify(fake.requests[1]?.body?.messages)).not.toContain('214 pages');

    await (
      await engine.sendTaskResult(id, 'task-1')
    ).done;
    const sent = JSON.stringify(fake.requests[2]?.body?.messages);
    expect(sent.split('214 pages')).toHaveLength(2);
    expect(sent).toContain(
      '[Berth] The background task srv-7 (tool \\"crawl\\" on MCP server \\"jobs\\") has finished.',
    );
    await expect(engine.sendTaskResult(id, 'task-1')).rejects.toMatchObject({
      code: 'CONFLICT',
      hostMessage: { code: 'conversation-errors.task-result-sent', params: {} },
    });
    await expect(engine.sendTaskResult(id, 'task-2')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No background task task-2 has finished in this conversation',
      hostMessage: { code: 'conversation-errors.task-not-finished', params: { taskId: 'task-2' } },
    });
  });

  it("a task whose conversation is gone is dropped with a log line, and a failed task's notice says why", async () => {
    await background.deliver({ record: record('no-such-conversation'), error: 'nothing' });
    expect(emitted).toEqual([]);
    expect(logged.join('\n')).toMatch(/the result of task 'srv-7' \(tool 'crawl' on server 'jobs'\) was dropped/);

    const { id } = await store.create({ model: MODEL });
    await background.deliver({ record: { ...record(id), status: 'failed' }, error: 'the crawler ran out of disk' });
    const [notice] = (await store.get(id)).messages.flatMap((message) => message.content);
    expect(notice).toMatchObject({
      type: 'task_result',
      status: 'failed',
      result: { isError: true, content: [{ type: 'text', text: 'the crawler ran out of disk' }] },
    });
  });
});
