import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/domain/chat';
import { ConsentBroker } from '../consent/consent-broker';
import { nextPrompt } from '../consent/consent-test-support';
import { PendingRequests } from '../pending/pending-requests';
import { LogCollector, tempDir } from '../servers/test-support';
import { APP_CALL_WORDS } from './app-call-consent';
import { AppsService } from './apps-service';
import { FakeAppServers, serverState, uiTool } from './apps-test-support';

// An app polling its own app-only tool, through the real consent broker and
// pending queue: one question at a time, "while the card is open", withdrawn
// when the app gives up or goes away, never run for an app that is gone.

const CONVERSATION = {
  id: 'c1',
  messages: [
    {
      id: 'm1',
      role: 'assistant',
      createdAt: 1,
      content: [{ type: 'tool_use', id: 'tu1', server: 'monitor', tool: 'show', apiName: 'monitor__show', input: {} }],
    },
  ],
} as unknown as Conversation;
const ORIGIN = { server: 'monitor', conversationId: 'c1', toolUseId: 'tu1' };

describe('an app calling its own tool again and again', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let pending: PendingRequests;
  let servers: FakeAppServers;
  let apps: AppsService;

  beforeEach(async () => {
    dir = await tempDir('berth-app-calls-');
    pending = new PendingRequests();
    servers = new FakeAppServers();
    servers.set(serverState('monitor', [uiTool('show'), uiTool('stats', { visibility: ['app'] }), uiTool('other')]));
    const consent = new ConsentBroker({ stateDir: dir.path, pending, logs: new LogCollector() });
    apps = new AppsService({
      servers,
      consent,
      logs: new LogCollector(),
      events: { emit: () => undefined },
      openExternal: async () => undefined,
      conversation: async () => CONVERSATION,
    });
  });
  afterEach(() => dir.cleanup());

  const poll = (callId: string, instance = 'app-1', tool = 'stats') =>
    apps.callTool(ORIGIN, tool, { n: callId }, { instance, callId });
  const textOf = (result: { content: Array<{ type: string; text?: unknown }> }) => result.content[0]?.text;

  it('asks once per tool: later calls while the question is open are answered in words, with no new question', async () => {
    const asked = nextPrompt(pending);
    const first = poll('1');
    const prompt = await asked;
    expect(prompt.payload).toMatchObject({ requestedBy: 'app', appCard: true, tool: 'stats' });
    for (const id of ['2', '3', '4']) {
      const later = await poll(id);
      expect(later.isError).toBe(true);
      expect(textOf(later)).toBe(APP_CALL_WORDS.asking('stats'));
    }
    expect(pending.list()).toHaveLength(1);
    pending.answer(prompt.id, { decision: 'allow-once' });
    expect(textOf(await first)).toBe('stats ran');
    expect(servers.toolCalls.map((c) => c.args)).toEqual([{ n: '1' }]);
  });

  it("'while the card is open' covers this app's later calls to that tool only, until the app goes away", async () => {
    const asked = nextPrompt(pending);
    const first = poll('1');
    pending.answer((await asked).id, { decision: 'allow-app-card' });
    await first;
    for (const id of ['2', '3']) expect(textOf(await poll(id))).toBe('stats ran');
    expect(pending.list()).toEqual([]);
    // Another tool, or another card's app, is asked about.
    const otherTool = nextPrompt(pending);
    void poll('4', 'app-1', 'other');
    expect((await otherTool).payload.tool).toBe('other');
    const otherApp = nextPrompt(pending);
    void poll('5', 'app-2');
    expect((await otherApp).payload.tool).toBe('stats');
    // Gone: its open question is withdrawn and its calls are refused without asking.
    apps.appGone('app-1');
    expect(pending.list().map((r) => r.payload)).toMatchObject([{ tool: 'stats' }]);
    const late = await poll('6');
    expect(textOf(late)).toBe(APP_CALL_WORDS.gone);
    expect(servers.toolCalls.map((c) => c.args)).toEqual([{ n: '1' }, { n: '2' }, { n: '3' }]);
  });

  it("a person's deny covers the app's later calls to that tool while the card is open: no new question", async () => {
    const asked = nextPrompt(pending);
    const first = poll('1');
    pending.answer((await asked).id, { decision: 'deny', reason: 'too often' });
    expect(textOf(await first)).toBe('The user denied this tool call. Reason: too often');
    expect(textOf(await poll('2'))).toBe(APP_CALL_WORDS.denied('stats'));
    expect(pending.list()).toEqual([]);
    // Reopened (a new instance), the app is asked about again.
    const again = nextPrompt(pending);
    void poll('3', 'app-2');
    expect((await again).payload.tool).toBe('stats');
    expect(servers.toolCalls).toEqual([]);
  });

  it('withdraws the question when the app gives up on the call, and never runs it', async () => {
    const asked = nextPrompt(pending);
    const first = poll('1');
    const prompt = await asked;
    apps.cancelCall('app-1', '1');
    expect(textOf(await first)).toBe(APP_CALL_WORDS.withdrawn);
    expect(pending.list()).toEqual([]);
    expect(() => pending.answer(prompt.id, { decision: 'allow-once' })).toThrow(/answered or withdrawn/);
    expect(servers.toolCalls).toEqual([]);
    // The next call asks again: the question belonged to the call that gave up.
    const again = nextPrompt(pending);
    void poll('2');
    expect((await again).payload.arguments).toEqual({ n: '2' });
  });

  it('runs nothing for an app that went away while the person was answering', async () => {
    const asked = nextPrompt(pending);
    const first = poll('1');
    const prompt = await asked;
    // The answer and the card closing arrive together: the answer is taken, the app is gone before the call runs.
    pending.answer(prompt.id, { decision: 'allow-once' });
    apps.appGone('app-1');
    expect(textOf(await first)).toBe(APP_CALL_WORDS.gone);
    expect(servers.toolCalls).toEqual([]);
  });
});
