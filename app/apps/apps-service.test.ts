import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/domain/chat';
import type { ToolCallConsentRequest, ToolCallConsentVerdict } from '../consent/consent-broker';
import { nameToolTwins } from '../../shared/domain/tool-twins';
import { LogCollector } from '../servers/test-support';
import { AppsService, MAX_APP_TOOL_RESULT_BYTES } from './apps-service';
import { APP_URI, FakeAppServers, notRunningState, serverState, uiTool } from './apps-test-support';

const CONVERSATION: Conversation = {
  id: 'c1',
  title: 't',
  model: 'm',
  createdAt: 1,
  updatedAt: 1,
  disabledServers: [],
  disabledTools: [],
  messages: [
    {
      id: 'm1',
      role: 'assistant',
      createdAt: 1,
      content: [
        { type: 'tool_use', id: 'tu1', server: 'basic', tool: 'get-time', apiName: 'basic__get-time', input: {} },
      ],
    },
  ],
} as unknown as Conversation;

function setUp(
  decide: (request: ToolCallConsentRequest) => ToolCallConsentVerdict = (request) => ({
    allowed: true,
    decision: 'allow-once',
    arguments: request.input as never,
    edited: false,
    decidedBy: 'person',
  }),
) {
  const servers = new FakeAppServers();
  servers.set(
    serverState('basic', [
      uiTool('get-time'),
      uiTool('refresh', { visibility: ['app'] }),
      uiTool('model-only', { resourceUri: APP_URI, visibility: ['model'] }),
      uiTool('plain', null),
    ]),
  );
  servers.set(serverState('other', [uiTool('delete-everything', null)]));
  const asked: ToolCallConsentRequest[] = [];
  const events: Array<{ topic: string; payload: unknown }> = [];
  const opened: string[] = [];
  const logs = new LogCollector();
  let proxyUrl: string | undefined;
  const apps = new AppsService({
    servers,
    consent: {
      approveToolCall: async (request) => {
        asked.push(request);
        return decide(request);
      },
    },
    logs,
    events: { emit: (topic, payload) => events.push({ topic, payload }) },
    openExternal: async (url) => {
      opened.push(url);
    },
    sandboxProxyUrl: () => proxyUrl,
    conversation: async (id) => {
      if (id !== 'c1') throw new Error(`no conversation ${id}`);
      return CONVERSATION;
    },
    now: () => 7,
  });
  return { apps, servers, asked, events, opened, logs, setProxy: (url: string | undefined) => (proxyUrl = url) };
}

const ORIGIN = { server: 'basic', conversationId: 'c1', toolUseId: 'tu1' };

describe('AppsService: tool calls from an app', () => {
  it('a name the server listed twice means the twin the app may call, with that twin’s own consent', async () => {
    const { apps, servers, asked } = setUp();
    servers.set(
      serverState(
        'basic',
        nameToolTwins([
          uiTool('search', { resourceUri: APP_URI, visibility: ['model'] }),
          { ...uiTool('search', { resourceUri: APP_URI, visibility: ['app'] }), description: 'the app’s search' },
        ]),
      ),
    );
    await apps.callTool(ORIGIN, 'search', { q: 'x' });
    expect(asked.map((request) => [request.tool, request.description])).toEqual([['search_2', 'the app’s search']]);
    // The supervisor sends search_2 to the server as `search` (ServerConnection.callTool).
    expect(servers.toolCalls).toEqual([{ server: 'basic', tool: 'search_2', args: { q: 'x' } }]);
  });

  it('asks the same consent as the model’s calls, marked as from the app, and returns the bounded result', async () => {
    const { apps, servers, asked } = setUp();
    expect(await apps.callTool(ORIGIN, 'get-time', { zone: 'UTC' })).toEqual({
      content: [{ type: 'text', text: 'get-time ran' }],
      isError: false,
    });
    expect(asked).toEqual([
      expect.objectContaining({
        requestedBy: 'app',
        server: 'basic',
        tool: 'get-time',
        conversationId: 'c1',
        toolUseId: 'tu1',
        input: { zone: 'UTC' },
        serverIdentity: expect.any(String),
      }),
    ]);
    expect(servers.toolCalls).toEqual([{ server: 'basic', tool: 'get-time', args: { zone: 'UTC' } }]);
    // An app-only tool is the app's to call.
    await apps.callTool(ORIGIN, 'refresh', {});
    expect(servers.toolCalls.map((call) => call.tool)).toEqual(['get-time', 'refresh']);
  });

  it('refuses tools the app may not call, and never reaches another server', async () => {
    const { apps, servers, asked } = setUp();
    await expect(apps.callTool(ORIGIN, 'model-only', {})).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: "'model-only' of server 'basic' is for the model only: its app may not call it",
    });
    await expect(apps.callTool(ORIGIN, 'delete-everything', {})).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: "server 'basic' has no tool named 'delete-everything'",
    });
    await expect(apps.callTool({ server: 'gone' }, 'get-time', {})).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // A card that is not this server's call in that conversation cannot borrow its permissions.
    await expect(apps.callTool({ ...ORIGIN, toolUseId: 'tu9' }, 'get-time', {})).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'no tool call tu9 in this conversation',
    });
    servers.set(serverState('other', [uiTool('get-time')]));
    await expect(apps.callTool({ ...ORIGIN, server: 'other' }, 'get-time', {})).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: "tool call tu1 is not one of server 'other'",
    });
    servers.set(notRunningState('basic', 'starting'));
    await expect(apps.callTool(ORIGIN, 'get-time', {})).rejects.toMatchObject({ code: 'NOT_READY' });
    expect(asked).toEqual([]);
    expect(servers.toolCalls).toEqual([]);
  });

  it('runs the person’s edited arguments, tells the app a denial as an error result, and runs nothing then', async () => {
    let deny = false;
    const { apps, servers } = setUp((request) =>
      deny
        ? { allowed: false, decision: 'deny', reason: 'not now', decidedBy: 'person' }
        : {
            allowed: true,
            decision: 'allow-once',
            arguments: { ...(request.input as object), edited: true },
            edited: true,
            decidedBy: 'person',
          },
    );
    await apps.callTool(ORIGIN, 'get-time', { a: 1 });
    expect(servers.toolCalls.at(-1)?.args).toEqual({ a: 1, edited: true });
    deny = true;
    expect(await apps.callTool(ORIGIN, 'get-time', {})).toEqual({
      content: [{ type: 'text', text: 'The user denied this tool call. Reason: not now' }],
      isError: true,
    });
    expect(servers.toolCalls).toHaveLength(1);
  });

  it('bounds what goes back to the app', async () => {
    const { apps, servers } = setUp();
    servers.toolAnswer = () => ({ content: [{ type: 'text', text: 'x'.repeat(MAX_APP_TOOL_RESULT_BYTES) }] });
    await expect(apps.callTool(ORIGIN, 'get-time', {})).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      message: expect.stringContaining('an app gets at most 8 MB'),
    });
    servers.toolAnswer = () =>
      ({ content: [{ type: 'hologram', data: 1 }], structuredContent: { time: 't' } }) as never;
    expect(await apps.callTool(ORIGIN, 'get-time', {})).toEqual({
      content: [
        { type: 'text', text: "[The tool returned a 'hologram' content block that Berth cannot show to the model]" },
      ],
      structuredContent: { time: 't' },
      isError: false,
    });
  });
});

describe('AppsService: the rest of an app’s requests', () => {
  it('lists a ready server’s tools with a UI', () => {
    const { apps } = setUp();
    expect(apps.list('basic').map((app) => [app.tool, app.visibility])).toEqual([
      ['get-time', ['model', 'app']],
      ['model-only', ['model']],
    ]);
    expect(apps.toolApp('basic', 'get-time')).toEqual({ resourceUri: APP_URI });
    expect(apps.toolApp('basic', 'plain')).toBeUndefined();
    expect(apps.toolApp('gone', 'get-time')).toBeUndefined();
  });

  it('opens http(s) links only', async () => {
    const { apps, opened, logs } = setUp();
    await apps.openExternal(ORIGIN, 'https://example.com/a?b=1');
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'berth://app/',
      'not a url',
      'https://user:pw@example.com/',
    ]) {
      await expect(apps.openExternal(ORIGIN, url)).rejects.toMatchObject({ code: 'INVALID_INPUT', path: 'url' });
    }
    expect(opened).toEqual(['https://example.com/a?b=1']);
    expect(logs.texts('basic', 'host')).toEqual(['its app opened a link to example.com']);
  });

  it('logs into the server’s log with source app', () => {
    const { apps, logs } = setUp();
    apps.log(ORIGIN, 'warning', 'clock', 'tick');
    expect(logs.for('basic', 'app')).toEqual([
      expect.objectContaining({ server: 'basic', source: 'app', level: 'warning', logger: 'clock', text: 'tick' }),
    ]);
    expect(() => apps.log({ server: 'gone' }, 'info', undefined, 'x')).toThrow(/no server named 'gone'/);
  });

  it('keeps each card’s model context, checks the card is the server’s, and labels it for the next turn', async () => {
    const { apps, events } = setUp();
    expect(apps.turnContext('c1')).toBeUndefined();
    await apps.setModelContext(ORIGIN, [{ type: 'text', text: 'The clock shows 12:00' }], { time: '12:00' });
    expect(apps.modelContext('c1')).toEqual([
      {
        conversationId: 'c1',
        toolUseId: 'tu1',
        server: 'basic',
        content: [{ type: 'text', text: 'The clock shows 12:00' }],
        structuredContent: { time: '12:00' },
        updatedAt: 7,
      },
    ]);
    expect(events.at(-1)).toEqual({
      topic: 'apps.modelContextChanged',
      payload: { conversationId: 'c1', contexts: apps.modelContext('c1') },
    });
    expect(apps.turnContext('c1')).toBe(
      'Context from the basic app (card tu1), not written by the user:\nThe clock shows 12:00\n{"time":"12:00"}',
    );
    await expect(
      apps.setModelContext({ ...ORIGIN, server: 'other' }, [{ type: 'text', text: 'x' }]),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      apps.setModelContext({ ...ORIGIN, toolUseId: 'tu9' }, [{ type: 'text', text: 'x' }]),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(apps.setModelContext(ORIGIN, [{ type: 'text', text: 'x'.repeat(70_000) }])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await apps.setModelContext(ORIGIN, []);
    expect(apps.modelContext('c1')).toEqual([]);
    expect(apps.turnContext('c1')).toBeUndefined();
  });

  it('gives the sandbox URL only when the shell has one, and says why not otherwise', () => {
    const { apps, setProxy } = setUp();
    expect(() => apps.sandbox()).toThrow(/MCP Apps cannot be shown in this window/);
    setProxy('http://127.0.0.1:5555/sandbox.html');
    expect(apps.sandbox()).toEqual({ proxyUrl: 'http://127.0.0.1:5555/sandbox.html' });
  });
});
