// @vitest-environment jsdom
import * as bridgeLibrary from '@modelcontextprotocol/ext-apps/app-bridge';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppUiResource } from '../../../shared/domain/app-ui';
import { ok } from '../../../shared/result';
import { createFakeTransport } from '../../test-support/fake-transport';
import { createAppRequestHandlers } from './app-requests';
import { startAppSession, type BridgeModule } from './app-session';
import { createRequestGate } from './request-gate';

// The real ext-apps AppBridge and PostMessageTransport, with the iframe's window
// playing both the sandbox proxy and the app (jsdom loads no proxy page): the
// messages are the protocol's own, so this checks the session's order of
// things and the routing against the library, not against a fake of it. jsdom
// gives an iframe a new window when its src is set (browsers keep the
// WindowProxy), so the test speaks for the window the bridge was connected to.

const RESOURCE: AppUiResource = {
  server: 'weather',
  uri: 'ui://weather/app.html',
  html: '<p>app</p>',
  csp: {},
  permissions: [],
  fetchedAt: 1,
};

type Message = {
  jsonrpc: '2.0';
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
};

function until<T>(find: () => T | undefined, timeoutMs = 2_000): Promise<T> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const poll = () => {
      const found = find();
      if (found !== undefined) resolve(found);
      else if (Date.now() - started > timeoutMs) reject(new Error('timed out'));
      else setTimeout(poll, 5);
    };
    poll();
  });
}

beforeEach(() => {
  // The library traces every message with console.debug.
  vi.spyOn(console, 'debug').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('an app session over the real ext-apps bridge', () => {
  it('hands over the resource, initializes, sends input then result, and routes a tools/call to the contract', async () => {
    const transport = createFakeTransport({
      'apps.callTool': ({ tool }) => ok({ content: [{ type: 'text', text: `ran ${tool}` }] }),
    });
    const container = document.createElement('div');
    document.body.appendChild(container);
    const session = startAppSession({
      bridgeModule: bridgeLibrary as unknown as BridgeModule,
      container,
      proxyUrl: 'about:blank',
      resource: RESOURCE,
      allowedPermissions: [],
      title: 'App of weather: forecast',
      hostVersion: '1.0.0',
      hostContext: { theme: 'dark', platform: 'desktop' },
      handlers: createAppRequestHandlers({
        transport,
        origin: { server: 'weather', conversationId: 'c1', toolUseId: 'tu1' },
        gate: createRequestGate(),
        confirmLink: () => Promise.resolve(false),
        proposeMessage: () => undefined,
        closeForAbuse: () => undefined,
        displayMode: {
          current: () => 'inline',
          appModes: () => undefined,
          hostModes: ['inline'],
          set: () => undefined,
        },
      }),
      toolInput: { city: 'Oslo' },
      onHeight: () => undefined,
      onInitialized: () => undefined,
      onRequestTeardown: () => undefined,
      onError: (message) => {
        throw new Error(message);
      },
      onCspRefusal: () => undefined,
    });
    session.deliver({ kind: 'result', content: [{ type: 'text', text: '12°C' }], isError: false });

    const appWindow = container.querySelector('iframe')!.contentWindow!;
    const received: Message[] = [];
    // What the host posts to the proxy's window (jsdom delivers no cross-window postMessage).
    appWindow.postMessage = ((message: Message) => void received.push(message)) as Window['postMessage'];
    const send = (message: Message) =>
      window.dispatchEvent(new MessageEvent('message', { data: message, source: appWindow }));
    // Let connect() finish before the proxy speaks.
    await new Promise((resolve) => setTimeout(resolve, 10));

    send({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    const ready = await until(() => received.find((m) => m.method === 'ui/notifications/sandbox-resource-ready'));
    expect(ready.params).toEqual({ html: '<p>app</p>', csp: {}, permissions: {} });

    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'ui/initialize',
      params: { appInfo: { name: 'weather-app', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' },
    });
    const init = await until(() => received.find((m) => m.id === 1));
    expect(init.result).toMatchObject({
      hostInfo: { name: 'Berth', version: '1.0.0' },
      hostContext: { theme: 'dark', platform: 'desktop' },
    });

    send({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    await until(() => received.find((m) => m.method === 'ui/notifications/tool-result'));
    const notices = received.filter((m) => m.method?.startsWith('ui/notifications/tool-'));
    expect(notices.map((m) => [m.method, m.params])).toEqual([
      ['ui/notifications/tool-input', { arguments: { city: 'Oslo' } }],
      ['ui/notifications/tool-result', { content: [{ type: 'text', text: '12°C' }], isError: false }],
    ]);

    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'refresh', arguments: { city: 'Bergen' } } });
    const answer = await until(() => received.find((m) => m.id === 2));
    expect(answer.result).toMatchObject({ content: [{ type: 'text', text: 'ran refresh' }] });
    expect(transport.calls).toContainEqual({
      method: 'apps.callTool',
      input: {
        origin: { server: 'weather', conversationId: 'c1', toolUseId: 'tu1' },
        tool: 'refresh',
        arguments: { city: 'Bergen' },
      },
    });

    // A message from any other window is not the app's: ignored.
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'evil', arguments: {} } },
        source: window,
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(transport.calls.filter((c) => c.method === 'apps.callTool')).toHaveLength(1);

    const closing = session.close(true);
    const teardown = await until(() => received.find((m) => m.method === 'ui/resource-teardown'));
    send({ jsonrpc: '2.0', id: teardown.id, result: {} });
    await closing;
    expect(container.querySelector('iframe')).toBeNull();
  });
});
