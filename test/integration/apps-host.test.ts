import { afterEach, describe, expect, it } from 'vitest';
import type { AppModelContext, AppUiResource, ServerApp } from '../../shared/domain/app-ui';
import type { ChatToolResultBlock, Conversation } from '../../shared/domain/chat';
import type { AuditPage } from '../../shared/domain/consent';
import type { LogEntry } from '../../shared/domain/log';
import type { ServerState } from '../../shared/domain/server';
import { fixture } from '../../app/servers/test-support';
import { GET_TIME_URI, reactConfig, vanillaConfig } from './apps-support';
import {
  eventAfter,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';
import type { HostHarness } from './host-harness';

// MCP Apps through a real host, with the real example servers and the fake
// Messages API: the model calls a tool with an app, the card gets its
// resource, and the app's own requests go through Berth's rules.

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function addServer(harness: HostHarness, name: string, config: Record<string, unknown>): Promise<ServerState> {
  await harness.call('servers.add', { name, config });
  return harness.waitForEvent('servers.changed', (state) => state.name === name && state.status === 'ready');
}

/** The model calls basic__get-time once (the person allows it), then answers. */
async function modelCallsGetTime(
  harness: HostHarness,
  fake: ChatWorld['fake'],
  conversationId: string,
): Promise<{ toolUseId: string; mark: number }> {
  fake.script([{ toolUses: [{ name: 'basic__get-time', input: {} }] }, { text: 'The time is in the card.' }]);
  const mark = harness.events.length;
  await harness.call('chat.send', { id: conversationId, text: 'What time is it?' });
  const prompt = await pendingAfter(harness, mark, 'tool-call');
  expect(prompt.payload.requestedBy).toBeUndefined();
  await harness.call('pending.answer', { id: prompt.id, response: { decision: 'allow-once' } });
  expect(await turnEndAfter(harness, mark, conversationId)).toMatchObject({ type: 'turn-finished' });
  return { toolUseId: prompt.toolUseId ?? '', mark };
}

describe('MCP Apps through the host (server-basic-vanillajs)', () => {
  it('the model’s call carries the app; the card reads it; the app calls a tool with consent, logs, and adds context to the next turn', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addServer(harness, 'basic', vanillaConfig);
    expect(await harness.call<ServerApp[]>('apps.list', { server: 'basic' })).toEqual([
      expect.objectContaining({ tool: 'get-time', resourceUri: GET_TIME_URI, visibility: ['model', 'app'] }),
    ]);
    const { id } = await newConversation(harness);

    // 1. The model calls get-time: the started event and the saved result name the app.
    const { toolUseId, mark } = await modelCallsGetTime(harness, fake, id);
    const started = await eventAfter(
      harness,
      mark,
      'chat.event',
      (event) => event.type === 'tool-call-started' && event.toolUseId === toolUseId,
    );
    expect(started).toMatchObject({ server: 'basic', tool: 'get-time', app: { resourceUri: GET_TIME_URI } });
    const saved = await harness.call<Conversation>('chat.get', { id });
    const result = saved.messages
      .flatMap((message) => message.content)
      .find((block): block is ChatToolResultBlock => block.type === 'tool_result');
    expect(result).toMatchObject({ toolUseId, app: { resourceUri: GET_TIME_URI }, isError: false });
    // The text result stays the model's view.
    expect(toolResultTexts(fake, 1)).toMatch(/\d{4}-\d{2}-\d{2}T/);

    // 2. The card reads the app's HTML (cached: the second read asks the server nothing).
    const resource = await harness.call<AppUiResource>('apps.resource', { server: 'basic', uri: GET_TIME_URI });
    expect(resource).toMatchObject({ server: 'basic', uri: GET_TIME_URI, csp: {}, permissions: [] });
    expect(resource.html).toContain('<html');
    expect(resource.html.length).toBeGreaterThan(10_000);
    const readsBefore = (
      await harness.call<{ entries: LogEntry[] }>('logs.query', { server: 'basic', sources: ['trace'] })
    ).entries.filter((entry) => entry.method === 'resources/read' && entry.direction === 'out').length;
    expect(await harness.call<AppUiResource>('apps.resource', { server: 'basic', uri: GET_TIME_URI })).toEqual(
      resource,
    );
    const readsAfter = (
      await harness.call<{ entries: LogEntry[] }>('logs.query', { server: 'basic', sources: ['trace'] })
    ).entries.filter((entry) => entry.method === 'resources/read' && entry.direction === 'out').length;
    expect(readsAfter).toBe(readsBefore);

    // 3. The app calls get-time: the person is asked, and the prompt says the app asked.
    const origin = { server: 'basic', conversationId: id, toolUseId };
    let appMark = harness.events.length;
    const call = harness.host.dispatch('apps.callTool', { origin, tool: 'get-time', arguments: {} });
    const prompt = await pendingAfter(harness, appMark, 'tool-call');
    expect(prompt).toMatchObject({
      server: 'basic',
      conversationId: id,
      toolUseId,
      payload: { tool: 'get-time', requestedBy: 'app' },
    });
    await harness.call('pending.answer', { id: prompt.id, response: { decision: 'allow-once' } });
    const answer = await call;
    expect(answer).toMatchObject({
      ok: true,
      value: { content: [{ type: 'text', text: expect.stringMatching(/\d{4}-\d{2}-\d{2}T/) }], isError: false },
    });
    const audit = await harness.call<AuditPage>('consent.audit', {});
    expect(audit.entries[0]).toMatchObject({
      server: 'basic',
      tool: 'get-time',
      decision: 'allow-once',
      decidedBy: 'person',
      requestedBy: 'app',
    });
    expect(audit.entries[1]).not.toHaveProperty('requestedBy');

    // A denial reaches the app as an error result; nothing runs.
    appMark = harness.events.length;
    const denied = harness.host.dispatch('apps.callTool', { origin, tool: 'get-time', arguments: {} });
    const again = await pendingAfter(harness, appMark, 'tool-call');
    await harness.call('pending.answer', { id: again.id, response: { decision: 'deny', reason: 'enough' } });
    expect(await denied).toEqual({
      ok: true,
      value: { content: [{ type: 'text', text: 'The user denied this tool call. Reason: enough' }], isError: true },
    });
    // Not a tool of its server: never reached.
    expect(
      await harness.host.dispatch('apps.callTool', { origin, tool: 'everything__echo', arguments: {} }),
    ).toMatchObject({ ok: false, code: 'NOT_FOUND' });

    // 4. The app's log lands in the server's log with source app.
    await harness.call('apps.log', { origin, level: 'info', logger: 'clock', text: 'the app says hello' });
    const appLogs = await harness.call<{ entries: LogEntry[] }>('logs.query', { server: 'basic', sources: ['app'] });
    expect(appLogs.entries).toEqual([
      expect.objectContaining({
        server: 'basic',
        source: 'app',
        level: 'info',
        logger: 'clock',
        text: 'the app says hello',
      }),
    ]);

    // 5. Context from the app: shown to the renderer, sent with the next turn.
    appMark = harness.events.length;
    await harness.call('apps.setModelContext', {
      origin,
      content: [{ type: 'text', text: 'The person is looking at 12:00 UTC.' }],
    });
    const changed = await eventAfter(
      harness,
      appMark,
      'apps.modelContextChanged',
      (payload) => payload.conversationId === id,
    );
    expect(changed.contexts).toEqual([
      expect.objectContaining({
        toolUseId,
        server: 'basic',
        content: [{ type: 'text', text: 'The person is looking at 12:00 UTC.' }],
      }),
    ]);
    expect(await harness.call<AppModelContext[]>('apps.modelContext', { conversationId: id })).toEqual(
      changed.contexts,
    );
    fake.script([{ text: 'Noted.' }]);
    appMark = harness.events.length;
    await harness.call('chat.send', { id, text: 'And now?' });
    await turnEndAfter(harness, appMark, id);
    const lastRequest = fake.requests.at(-1)?.body?.messages.at(-1);
    expect(lastRequest).toEqual({
      role: 'user',
      content: [
        // The prompt cache's mark goes before the app's context, which the next request does not repeat here.
        { type: 'text', text: 'And now?', cache_control: { type: 'ephemeral' } },
        {
          type: 'text',
          text: `Context from the basic app (card ${toolUseId}), not written by the user:\nThe person is looking at 12:00 UTC.`,
        },
      ],
    });

    // 6. A restart drops the cached UI and tells the cards.
    appMark = harness.events.length;
    await harness.call('servers.restart', { name: 'basic' });
    await eventAfter(harness, appMark, 'apps.resourcesChanged', (payload) => payload.server === 'basic');
  });

  it('says why an app cannot be shown: no sandbox, a server that is not running, one that is gone', async () => {
    world = await startChatWorld();
    const { harness } = world;
    expect(await harness.host.dispatch('apps.sandbox', {})).toMatchObject({
      ok: false,
      code: 'NOT_READY',
      message: expect.stringContaining('MCP Apps cannot be shown in this window'),
    });
    await addServer(harness, 'basic', vanillaConfig);
    await harness.call('servers.stop', { name: 'basic' });
    expect(await harness.host.dispatch('apps.resource', { server: 'basic', uri: GET_TIME_URI })).toMatchObject({
      ok: false,
      code: 'NOT_READY',
      message: expect.stringContaining("server 'basic' is not running"),
    });
    await harness.call('servers.remove', { name: 'basic' });
    expect(await harness.host.dispatch('apps.resource', { server: 'basic', uri: GET_TIME_URI })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
  });
});

describe('MCP Apps through the host (server-basic-react)', () => {
  it('the model’s call names the app and the card reads the React build', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addServer(harness, 'basic', reactConfig);
    const { id } = await newConversation(harness);
    const { toolUseId, mark } = await modelCallsGetTime(harness, fake, id);
    expect(
      await eventAfter(
        harness,
        mark,
        'chat.event',
        (event) => event.type === 'tool-call-started' && event.toolUseId === toolUseId,
      ),
    ).toMatchObject({ app: { resourceUri: GET_TIME_URI } });
    const resource = await harness.call<AppUiResource>('apps.resource', { server: 'basic', uri: GET_TIME_URI });
    expect(resource.html).toContain('<html');
  });
});

describe('MCP Apps: visibility', () => {
  it('hides app-only tools from the model and refuses model-only tools to apps', async () => {
    world = await startChatWorld();
    const { harness } = world;
    await addServer(harness, 'caps', { command: process.execPath, args: [fixture('app-capabilities.mjs')] });
    const { id } = await newConversation(harness);
    const tools = await harness.call<{ tools: Array<{ tool: string }> }>('chat.tools', { id });
    expect(tools.tools.map((tool) => tool.tool).sort()).toEqual(['show-time', 'whisper']);
    const origin = { server: 'caps', conversationId: id };
    expect(await harness.host.dispatch('apps.callTool', { origin, tool: 'whisper', arguments: {} })).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
      message: expect.stringContaining('for the model only'),
    });
    const mark = harness.events.length;
    const poke = harness.host.dispatch('apps.callTool', { origin, tool: 'poke', arguments: {} });
    const prompt = await pendingAfter(harness, mark, 'tool-call');
    expect(prompt.payload).toMatchObject({ tool: 'poke', requestedBy: 'app' });
    await harness.call('pending.answer', { id: prompt.id, response: { decision: 'allow-once' } });
    expect(await poke).toMatchObject({ ok: true, value: { content: [{ type: 'text', text: 'poked' }] } });
  });
});
