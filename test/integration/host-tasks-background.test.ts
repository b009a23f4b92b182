import { spawn } from 'node:child_process';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent, ChatTaskResultBlock, Conversation } from '../../shared/domain/chat';
import type { LogEntry } from '../../shared/domain/log';
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
import { waitFor } from './host-harness';
import type { HostHarness } from './host-harness';

/** The task-http fixture (tasks that outlive a Berth run) on a free port. */
async function startTaskHttp(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [resolve(__dirname, '../../e2e/fixtures/servers/task-http.mjs')], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stopHttp = () => child.kill('SIGKILL');
  const port = await new Promise<string>((done, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match?.[1] !== undefined) done(match[1]);
    });
    child.once('exit', (code) => fail(new Error(`task-http exited with ${code}: ${output}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill('SIGKILL') };
}

const FIXTURE = resolve(__dirname, '../../e2e/fixtures/servers/task-background.mjs');
const SERVER = 'jobs';
/** Short, so the tests do not wait Berth's default few seconds before the turn goes on. */
const AFTER_MS = 400;

let world: ChatWorld | undefined;
let files: string | undefined;
let stopHttp: (() => void) | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
  stopHttp?.();
  stopHttp = undefined;
  if (files !== undefined) await rm(files, { recursive: true, force: true });
  files = undefined;
});

async function setup(): Promise<{
  harness: HostHarness;
  fake: ChatWorld['fake'];
  release: (name: string, text: string) => Promise<void>;
  file: (name: string) => string;
}> {
  world = await startChatWorld({ backgroundTaskAfterMs: AFTER_MS });
  files = await mkdtemp(join(tmpdir(), 'berth-task-release-'));
  const dir = files;
  const { harness, fake } = world;
  await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
  await harness.call('servers.add', { name: SERVER, config: { command: process.execPath, args: [FIXTURE] } });
  await harness.waitForEvent('servers.changed', (state) => state.name === SERVER && state.status === 'ready');
  return {
    harness,
    fake,
    file: (name) => join(dir, name),
    // Whole at once: the server must not see the file before its text.
    release: async (name, text) => {
      await writeFile(join(dir, `${name}.part`), text);
      await rename(join(dir, `${name}.part`), join(dir, name));
    },
  };
}

/** Every text the model read in the last user message of request `index` (tool results' included). */
function lastUserTexts(fake: ChatWorld['fake'], index: number): string {
  const last = fake.requests[index]?.body?.messages.at(-1);
  if (last === undefined || typeof last.content === 'string') return String(last?.content ?? '');
  return (last.content as Array<{ type: string; text?: string }>)
    .flatMap((block) => (block.type === 'text' ? [block.text ?? ''] : []))
    .join('\n');
}

/** Request `index` as the model got it, whole: what it read up to then. */
function everythingRead(fake: ChatWorld['fake'], index: number): string {
  return JSON.stringify(fake.requests[index]?.body?.messages ?? []);
}

/** The person allows the next `count` tool calls asked at or after `mark`, once each. */
async function allowCalls(harness: HostHarness, mark: number, count = 1): Promise<void> {
  const answered = new Set<string>();
  while (answered.size < count) {
    const consent = await eventAfter(
      harness,
      mark,
      'pending.changed',
      ({ change }) =>
        change.type === 'opened' && change.request.kind === 'tool-call' && !answered.has(change.request.id),
    );
    if (consent.change.type !== 'opened') continue;
    answered.add(consent.change.request.id);
    await harness.call('pending.answer', { id: consent.change.request.id, response: { decision: 'allow-once' } });
  }
}

function turnsEnded(harness: HostHarness, from: number, id: string): number {
  return harness.events
    .slice(from)
    .filter(
      ({ topic, payload }) =>
        topic === 'chat.event' &&
        (payload as ChatEvent).conversationId === id &&
        (payload as ChatEvent).type === 'turn-finished',
    ).length;
}

async function notices(harness: HostHarness, id: string): Promise<ChatTaskResultBlock[]> {
  const conversation = await harness.call<Conversation>('chat.get', { id });
  return conversation.messages.flatMap((message) =>
    message.content.flatMap((block) => (block.type === 'task_result' && block.forModel !== true ? [block] : [])),
  );
}

describe('a tool call whose task runs on does not hold its conversation (task-background fixture)', () => {
  it("the turn ends with Berth's answer, the chat goes on, the result comes in as a notice, and Send to the model sends it once", async () => {
    const { harness, fake, release, file } = await setup();
    const { id } = await newConversation(harness);
    fake.script([
      { toolUses: [{ name: `${SERVER}__until-released`, input: { file: file('one') } }] },
      { text: 'It runs in the background.' },
      { text: 'Still here while it runs.' },
      { text: 'The job said 42.' },
    ]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Start the job' });
    await allowCalls(harness, mark);
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(toolResultTexts(fake, 1)).toMatch(
      /^The task background-1 started on jobs and runs in the background; its result will come into the conversation when it finishes\.$/,
    );
    const started = (await harness.call<Conversation>('chat.get', { id })).messages
      .flatMap((message) => message.content)
      .find((block) => block.type === 'tool_result');
    expect(started).toMatchObject({ backgroundTask: { taskId: expect.any(String) } });

    // The person goes on chatting while the task runs.
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Anything else?' });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(fake.requests).toHaveLength(3);
    expect(await notices(harness, id)).toEqual([]);

    mark = harness.events.length;
    await release('one', '42');
    const arrived = (await eventAfter(
      harness,
      mark,
      'chat.event',
      (event) => event.type === 'task-finished' && event.conversationId === id,
    )) as Extract<ChatEvent, { type: 'task-finished' }>;
    expect(arrived.message.content[0]).toMatchObject({
      type: 'task_result',
      status: 'completed',
      tool: 'until-released',
      server: SERVER,
      serverTaskId: 'background-1',
      result: { content: [{ type: 'text', text: 'released: 42' }], isError: false },
    });
    // Told, not sent: the model has not been asked again.
    expect(fake.requests).toHaveLength(3);

    const [notice] = await notices(harness, id);
    mark = harness.events.length;
    await harness.call('chat.sendTaskResult', { id, taskId: notice?.taskId });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    const read = lastUserTexts(fake, 3);
    expect(read).toContain(
      '[Berth] The background task background-1 (tool "until-released" on MCP server "jobs") has finished.',
    );
    expect(read).toContain("the server's words, not the user's");
    expect(read).toContain('released: 42');
    // Once only: a second send is refused, and the model never read the result twice.
    const again = await harness.host.dispatch('chat.sendTaskResult', { id, taskId: notice?.taskId });
    expect(again).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(everythingRead(fake, 3).split('released: 42')).toHaveLength(2);
  }, 60_000);

  it("the model reads the server's immediate response when it gives one", async () => {
    const { harness, fake, release, file } = await setup();
    const { id } = await newConversation(harness);
    fake.script([
      {
        toolUses: [
          {
            name: `${SERVER}__until-released`,
            input: { file: file('two'), immediate: 'Crawl queued; about 10 minutes.' },
          },
        ],
      },
      { text: 'Queued.' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Crawl it' });
    await allowCalls(harness, mark);
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(toolResultTexts(fake, 1)).toBe('Crawl queued; about 10 minutes.');
    await release('two', 'done');
    await waitFor(async () => (await notices(harness, id)).length === 1, 10_000);
  }, 60_000);

  it('set to continue, two tasks ending together make two notices and two follow-up turns, one after the other', async () => {
    const { harness, fake, release, file } = await setup();
    const { id } = await newConversation(harness);
    await harness.call('chat.setBackgroundTasks', { id, mode: 'continue' });
    fake.script([
      {
        toolUses: [
          { name: `${SERVER}__until-released`, input: { file: file('a') } },
          { name: `${SERVER}__until-released`, input: { file: file('b') } },
        ],
      },
      { text: 'Both run.' },
      { text: 'First one back.' },
      { text: 'Second one back.' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Run both' });
    await allowCalls(harness, mark, 2);
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    await Promise.all([release('a', 'alpha'), release('b', 'beta')]);
    await waitFor(() => fake.requests.length === 4, 20_000);
    // The first turn and the two follow-ups have ended.
    await waitFor(() => turnsEnded(harness, mark, id) === 3, 20_000);
    expect(await notices(harness, id)).toHaveLength(2);
    const followUps = [lastUserTexts(fake, 2), lastUserTexts(fake, 3)];
    // One result per turn, each once.
    expect(followUps.filter((text) => text.includes('released: alpha'))).toHaveLength(1);
    expect(followUps.filter((text) => text.includes('released: beta'))).toHaveLength(1);
    expect(followUps.every((text) => !(text.includes('alpha') && text.includes('beta')))).toBe(true);
    expect(everythingRead(fake, 3).split('released: alpha')).toHaveLength(2);
  }, 60_000);

  it('a conversation deleted while its task ran drops the result with a log line', async () => {
    const { harness, fake, release, file } = await setup();
    const { id } = await newConversation(harness);
    fake.script([{ toolUses: [{ name: `${SERVER}__until-released`, input: { file: file('gone') } }] }, { text: 'ok' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Start' });
    await allowCalls(harness, mark);
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    await harness.call('chat.delete', { id });
    await release('gone', 'late');
    await waitFor(async () => {
      const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', { limit: 10_000 });
      return entries.some(
        (entry) => entry.text.includes("the result of task 'background-1'") && entry.text.includes('was dropped'),
      );
    }, 10_000);
  }, 60_000);

  it('a task picked up again after a restart still brings its result into its conversation', async () => {
    const http = await startTaskHttp();
    world = await startChatWorld({ backgroundTaskAfterMs: AFTER_MS });
    let harness = world.harness;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await harness.call('servers.add', { name: 'remote', config: { url: http.url } });
    await harness.waitForEvent('servers.changed', (state) => state.name === 'remote' && state.status === 'ready');
    const { id } = await newConversation(harness);
    world.fake.script([{ toolUses: [{ name: 'remote__slow-task', input: { ms: 4_000 } }] }, { text: 'Started.' }]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Go' });
    await allowCalls(harness, mark);
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(toolResultTexts(world.fake, 1)).toContain('runs in the background');
    await harness.host.shutdown();

    harness = await world.restart();
    await waitFor(async () => (await notices(harness, id)).length === 1, 30_000);
    expect((await notices(harness, id))[0]).toMatchObject({
      status: 'completed',
      tool: 'slow-task',
      result: { content: [{ type: 'text', text: 'slow-task finished after 4000 ms' }] },
    });
    http.stop();
  }, 90_000);

  it("time a task waits for the person's answer does not count: after the answer the turn still gets its result", async () => {
    world = await startChatWorld({ backgroundTaskAfterMs: 4_000 });
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addEverything(harness);
    const { id } = await newConversation(harness);
    fake.script([
      { toolUses: [{ name: 'everything__simulate-research-query', input: { topic: 'python', ambiguous: true } }] },
      { text: 'Found it.' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Research python' });
    await allowCalls(harness, mark);
    const form = await pendingAfter(harness, mark, 'elicitation');
    // The person takes a while: the answer comes shortly before the wait would end, the task's last stages after it.
    await new Promise((resolveWait) => setTimeout(resolveWait, 1_500));
    await harness.call('pending.answer', {
      id: form.id,
      response: { action: 'accept', content: { interpretation: 'snake' } },
    });
    expect((await turnEndAfter(harness, mark, id)).type).toBe('turn-finished');
    expect(toolResultTexts(fake, 1)).toContain('# Research Report: python (snake)');
  }, 60_000);
});
