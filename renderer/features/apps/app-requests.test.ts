import { describe, expect, it } from 'vitest';
import { fail, ok } from '../../../shared/result';
import { createFakeTransport } from '../../test-support/fake-transport';
import { createAppRequestHandlers, type AppRequestDeps } from './app-requests';
import type { DisplayMode } from './display-modes';
import { createRequestGate } from './request-gate';

const CARD = { server: 'weather', conversationId: 'c1', toolUseId: 'tu1' };

function setup(overrides: Partial<AppRequestDeps> = {}) {
  const transport = createFakeTransport({
    'apps.callTool': ({ tool }) => ok({ content: [{ type: 'text', text: `ran ${tool}` }], isError: false }),
    'resources.read': ({ uri }) =>
      ok({
        contents: [
          { kind: 'text', uri, mimeType: 'text/plain', text: 'hello' },
          { kind: 'blob', uri, blob: 'AAEC', size: 3 },
        ],
      }),
    'resources.list': () => ok({ resources: [{ uri: 'file:///a', name: 'a' }], nextCursor: 'n2' }),
    'apps.openExternal': () => ok({}),
    'apps.setModelContext': () => ok({}),
    'apps.log': () => ok({}),
  });
  const proposals: string[] = [];
  const links: { url: string; domain: string }[] = [];
  const closes: [number, number][] = [];
  let mode: DisplayMode = 'inline';
  let time = 0;
  const handlers = createAppRequestHandlers({
    transport,
    origin: CARD,
    gate: createRequestGate(),
    now: () => time,
    confirmLink: (link) => {
      links.push(link);
      return Promise.resolve(true);
    },
    proposeMessage: (text) => proposals.push(text),
    closeForAbuse: (requests, seconds) => closes.push([requests, seconds]),
    displayMode: {
      current: () => mode,
      appModes: () => ['inline', 'fullscreen'],
      hostModes: ['inline', 'fullscreen', 'pip'],
      set: (m) => (mode = m),
    },
    ...overrides,
  });
  return { transport, handlers, proposals, links, closes, mode: () => mode, tick: (ms: number) => (time += ms) };
}

describe('app request routing', () => {
  it("tools/call goes to apps.callTool with the card's origin (consent happens in the host)", async () => {
    const { transport, handlers } = setup();
    await expect(handlers.callTool({ name: 'refresh', arguments: { city: 'Oslo' } })).resolves.toEqual({
      content: [{ type: 'text', text: 'ran refresh' }],
      isError: false,
    });
    await handlers.callTool({ name: 'noargs' });
    expect(transport.calls).toEqual([
      { method: 'apps.callTool', input: { origin: CARD, tool: 'refresh', arguments: { city: 'Oslo' } } },
      { method: 'apps.callTool', input: { origin: CARD, tool: 'noargs', arguments: {} } },
    ]);
  });

  it('names the running app and each call, tells the host when the app gives up on a call, and when it goes', async () => {
    let ids = 0;
    const { transport, handlers } = setup({ instance: 'app-1', newCallId: () => `k${++ids}` });
    let release: (value: ReturnType<typeof ok>) => void = () => undefined;
    transport.handlers['apps.callTool'] = () => new Promise((resolve) => (release = resolve)) as never;
    transport.handlers['apps.cancelCall'] = () => ok({});
    transport.handlers['apps.appGone'] = () => ok({});
    const gaveUp = new AbortController();
    const waiting = handlers.callTool({ name: 'stats' }, gaveUp.signal);
    gaveUp.abort();
    release(ok({ content: [{ type: 'text', text: 'not made' }], isError: true }));
    await waiting;
    handlers.gone();
    expect(transport.calls).toEqual([
      {
        method: 'apps.callTool',
        input: { origin: CARD, tool: 'stats', arguments: {}, call: { instance: 'app-1', callId: 'k1' } },
      },
      { method: 'apps.cancelCall', input: { instance: 'app-1', callId: 'k1' } },
      { method: 'apps.appGone', input: { instance: 'app-1' } },
    ]);
  });

  it("a denied or forbidden call is an error answer to the app, in the host's words", async () => {
    const { transport, handlers } = setup();
    transport.handlers['apps.callTool'] = () => fail('FORBIDDEN', 'You denied this call.');
    await expect(handlers.callTool({ name: 'refresh' })).rejects.toThrow('You denied this call.');
  });

  it("resources/read and resources/list are bound to the card's server, whatever the app asks", async () => {
    const { transport, handlers } = setup();
    await expect(handlers.readResource({ uri: 'file:///x' })).resolves.toEqual({
      contents: [
        { uri: 'file:///x', mimeType: 'text/plain', text: 'hello' },
        { uri: 'file:///x', blob: 'AAEC' },
      ],
    });
    await expect(handlers.listResources({ cursor: 'n1' })).resolves.toEqual({
      resources: [{ uri: 'file:///a', name: 'a' }],
      nextCursor: 'n2',
    });
    await handlers.readResource({ uri: 'file:///y', server: 'other' } as never);
    expect(transport.calls.map((c) => c.input)).toEqual([
      { server: 'weather', uri: 'file:///x' },
      { server: 'weather', cursor: 'n1' },
      { server: 'weather', uri: 'file:///y' },
    ]);
  });

  it('ui/open-link asks the person with the domain, and opens only after yes', async () => {
    const yes = setup();
    await expect(yes.handlers.openLink({ url: 'https://docs.example.org/page' })).resolves.toEqual({});
    expect(yes.links).toEqual([{ url: 'https://docs.example.org/page', domain: 'docs.example.org' }]);
    expect(yes.transport.calls).toEqual([
      { method: 'apps.openExternal', input: { origin: CARD, url: 'https://docs.example.org/page' } },
    ]);

    const no = setup({ confirmLink: () => Promise.resolve(false) });
    await expect(no.handlers.openLink({ url: 'https://docs.example.org/' })).resolves.toEqual({ isError: true });
    expect(no.transport.calls).toEqual([]);
  });

  it('ui/open-link in browser mode opens the tab only after the host accepted the link', async () => {
    const opened: string[] = [];
    const ok = setup({ openInBrowser: (url) => opened.push(url) });
    await ok.handlers.openLink({ url: 'https://docs.example.org/page' });
    expect(opened).toEqual(['https://docs.example.org/page']);

    const refused = setup({ openInBrowser: (url) => opened.push(url), confirmLink: () => Promise.resolve(false) });
    await refused.handlers.openLink({ url: 'https://other.example.org/' });
    expect(opened).toEqual(['https://docs.example.org/page']);
  });

  it('ui/open-link refuses non-web links without asking', async () => {
    const { handlers, links, transport } = setup();
    await expect(handlers.openLink({ url: 'file:///etc/passwd' })).rejects.toThrow(/only http and https/);
    expect(links).toEqual([]);
    expect(transport.calls).toEqual([]);
  });

  it('ui/message becomes a proposal (never sent): text only, and only in a conversation', async () => {
    const { handlers, proposals, transport } = setup();
    await expect(
      handlers.message({
        role: 'user',
        content: [
          { type: 'text', text: 'Plan my' },
          { type: 'image', data: 'x' },
          { type: 'text', text: 'trip' },
        ],
      }),
    ).resolves.toEqual({});
    expect(proposals).toEqual(['Plan my\n\ntrip']);
    expect(transport.calls.some((c) => c.method === 'chat.send')).toBe(false);
    await expect(handlers.message({ role: 'user', content: [{ type: 'image', data: 'x' }] })).rejects.toThrow(
      /only text/,
    );

    const preview = setup({ origin: { server: 'weather' } });
    await expect(preview.handlers.message({ role: 'user', content: [{ type: 'text', text: 'hi' }] })).rejects.toThrow(
      /preview/,
    );
    expect(preview.proposals).toEqual([]);
  });

  it("ui/update-model-context goes to apps.setModelContext for this card; a preview cannot add to a model's context", async () => {
    const { handlers, transport } = setup();
    await handlers.updateModelContext({
      content: [{ type: 'text', text: 'Selected: Oslo' }],
      structuredContent: { city: 'Oslo' },
    });
    await handlers.updateModelContext({});
    expect(transport.calls).toEqual([
      {
        method: 'apps.setModelContext',
        input: {
          origin: CARD,
          content: [{ type: 'text', text: 'Selected: Oslo' }],
          structuredContent: { city: 'Oslo' },
        },
      },
      { method: 'apps.setModelContext', input: { origin: CARD, content: [] } },
    ]);
    const preview = setup({ origin: { server: 'weather' } });
    await expect(preview.handlers.updateModelContext({ content: [] })).rejects.toThrow(/conversation/);
  });

  it('notifications/message goes to apps.log: strings as they are, anything else as JSON, unknown levels as info', async () => {
    const { handlers, transport } = setup();
    await handlers.log({ level: 'warning', logger: 'ui', data: 'low battery' });
    await handlers.log({ level: 'loud', data: { a: [1, 2] } });
    expect(transport.calls).toEqual([
      { method: 'apps.log', input: { origin: CARD, level: 'warning', logger: 'ui', text: 'low battery' } },
      { method: 'apps.log', input: { origin: CARD, level: 'info', text: '{"a":[1,2]}' } },
    ]);
  });

  it('ui/request-display-mode answers the mode actually set', async () => {
    const { handlers, mode } = setup();
    await expect(handlers.requestDisplayMode({ mode: 'pip' })).resolves.toEqual({ mode: 'inline' });
    await expect(handlers.requestDisplayMode({ mode: 'fullscreen' })).resolves.toEqual({ mode: 'fullscreen' });
    expect(mode()).toBe('fullscreen');
  });

  it('refuses a request over 1 MB of JSON before it reaches the host', async () => {
    const { handlers, transport } = setup();
    await expect(handlers.callTool({ name: 'upload', arguments: { blob: 'x'.repeat(1_100_000) } })).rejects.toThrow(
      /too big.*1 MB/,
    );
    expect(transport.calls).toEqual([]);
  });

  it('over the rate limit an app gets error answers; kept up, it is closed with what it sent', async () => {
    const { handlers, transport, closes } = setup();
    const answers = await Promise.allSettled(Array.from({ length: 60 }, () => handlers.callTool({ name: 'spam' })));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(40);
    expect(
      answers.filter((a) => a.status === 'rejected').map((a) => String((a as PromiseRejectedResult).reason)),
    ).toContain('Error: Too many requests from this app (tools/call): slow down.');
    expect(transport.calls).toHaveLength(40);
    expect(closes).toEqual([]);
    await Promise.allSettled(Array.from({ length: 100 }, () => handlers.callTool({ name: 'spam' })));
    // 40 admitted, then the 100th refusal closes it: 140 requests, all within a second.
    expect(closes).toEqual([[140, 1]]);
    // Closed: nothing more reaches the host, not even logs or size changes.
    await handlers.log({ level: 'info', data: 'still here' });
    expect(handlers.admitSizeChange()).toBe(false);
    expect(transport.calls).toHaveLength(40);
  });

  it('an app that logs and reports its size every frame is never closed for it: extra logs are dropped', async () => {
    const { handlers, transport, closes } = setup();
    for (let frame = 0; frame < 1_000; frame += 1) {
      expect(handlers.admitSizeChange()).toBe(true);
      await handlers.log({ level: 'debug', data: `frame ${frame}` });
    }
    expect(closes).toEqual([]);
    // The log budget's burst reached the host, the rest was dropped; requests keep their whole budget.
    expect(transport.calls.filter((c) => c.method === 'apps.log')).toHaveLength(100);
    await expect(handlers.callTool({ name: 'poll' })).resolves.toEqual({
      content: [{ type: 'text', text: 'ran poll' }],
      isError: false,
    });
  });
});
