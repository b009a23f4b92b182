// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppUiResource } from '../../../shared/domain/app-ui';
import { ok } from '../../../shared/result';
import { CSP_VIOLATION_LOGGER, type CspRefusal } from '../../sandbox-proxy/csp-violations';
import { activateLocale } from '../../i18n/i18n';
import { createFakeTransport } from '../../test-support/fake-transport';
import { FakeAppBridge, fakeBridgeModule, lastBridge } from '../../test-support/fake-app-bridge';
import { createAppRequestHandlers } from './app-requests';
import { startAppSession, type AppSessionOptions } from './app-session';
import { createRequestGate } from './request-gate';

const RESOURCE: AppUiResource = {
  server: 'weather',
  uri: 'ui://weather/app.html',
  html: '<p>app</p>',
  csp: { connectDomains: ['https://api.example.com'] },
  permissions: ['camera', 'microphone'],
  fetchedAt: 1,
};

function start(overrides: Partial<AppSessionOptions> = {}) {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const heights: number[] = [];
  const errors: string[] = [];
  const refusals: CspRefusal[] = [];
  const transport = createFakeTransport({ 'apps.log': () => ok({}) });
  const handlers = createAppRequestHandlers({
    transport,
    origin: { server: 'weather', conversationId: 'c1', toolUseId: 'tu1' },
    gate: createRequestGate(),
    confirmLink: () => Promise.resolve(false),
    proposeMessage: () => undefined,
    closeForAbuse: () => undefined,
    displayMode: { current: () => 'inline', appModes: () => undefined, hostModes: ['inline'], set: () => undefined },
  });
  const session = startAppSession({
    bridgeModule: fakeBridgeModule,
    container,
    proxyUrl: 'http://127.0.0.1:5999/proxy.html',
    resource: RESOURCE,
    allowedPermissions: [],
    title: 'App of weather: forecast',
    hostVersion: '1.2.3',
    hostContext: { theme: 'dark' },
    handlers,
    toolInput: { city: 'Oslo' },
    onHeight: (h) => heights.push(h),
    onInitialized: () => undefined,
    onRequestTeardown: () => undefined,
    onError: (m) => errors.push(m),
    onCspRefusal: (refusal) => refusals.push(refusal),
    ...overrides,
  });
  return { container, session, heights, errors, refusals, transport, bridge: lastBridge() };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('startAppSession', () => {
  beforeEach(() => {
    FakeAppBridge.instances = [];
  });
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('creates the outer iframe on the proxy, sandboxed and named, and connects the bridge to its window only', async () => {
    const { container, bridge } = start();
    const iframe = container.querySelector('iframe')!;
    expect(iframe.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
    expect(iframe.getAttribute('title')).toBe('App of weather: forecast');
    expect(iframe.hasAttribute('allow')).toBe(false);
    expect(bridge.client).toBeNull();
    expect(bridge.hostInfo).toEqual({ name: 'Berth', version: '1.2.3' });
    expect(bridge.options.hostContext).toEqual({ theme: 'dark' });
    expect(bridge.transport?.target).toBe(iframe.contentWindow);
    expect(bridge.transport?.source).toBe(iframe.contentWindow);
    await flush();
    // The proxy is loaded only once the bridge listens, so its ready message is not missed.
    expect(iframe.getAttribute('src')).toBe('http://127.0.0.1:5999/proxy.html');
  });

  it('sends the resource when the proxy is ready, with none of the permissions the person has not allowed', () => {
    const { bridge } = start();
    bridge.fire('onsandboxready', {});
    expect(bridge.sent).toContainEqual([
      'sendSandboxResourceReady',
      { html: '<p>app</p>', csp: RESOURCE.csp, permissions: {} },
    ]);
    expect(bridge.hostCapabilities.sandbox).toEqual({ permissions: {}, csp: RESOURCE.csp });
  });

  it('passes allowed permissions to the sandbox and the iframe (and only those)', () => {
    const { bridge, container } = start({ allowedPermissions: ['camera'] });
    bridge.fire('onsandboxready', {});
    expect(bridge.sent).toContainEqual([
      'sendSandboxResourceReady',
      { html: '<p>app</p>', csp: RESOURCE.csp, permissions: { camera: {} } },
    ]);
    expect(container.querySelector('iframe')!.getAttribute('allow')).toBe('camera');
  });

  it('sends the input once the app is initialized, then the result (held until then)', () => {
    const { bridge, session } = start();
    session.deliver({
      kind: 'result',
      content: [{ type: 'text', text: '12°C' }],
      structuredContent: { c: 12 },
      isError: false,
    });
    expect(bridge.sent.map(([m]) => m)).toEqual(['connect']);
    bridge.fire('oninitialized', {});
    expect(bridge.sent.slice(1)).toEqual([
      ['sendToolInput', { arguments: { city: 'Oslo' } }],
      ['sendToolResult', { content: [{ type: 'text', text: '12°C' }], structuredContent: { c: 12 }, isError: false }],
    ]);
    // Once only.
    session.deliver({ kind: 'cancelled', reason: 'late' });
    expect(bridge.sent.filter(([m]) => m.startsWith('sendTool'))).toHaveLength(2);
  });

  it('tells the app a denied or stopped call was cancelled', () => {
    const { bridge, session } = start();
    bridge.fire('oninitialized', {});
    session.deliver({ kind: 'cancelled', reason: 'Denied by the person.' });
    expect(bridge.sent.at(-1)).toEqual(['sendToolCancelled', { reason: 'Denied by the person.' }]);
  });

  it('clamps the heights the app asks for', () => {
    const { bridge, heights } = start();
    bridge.fire('onsizechange', { height: 5 });
    bridge.fire('onsizechange', { height: 100_000 });
    bridge.fire('onsizechange', { width: 300 });
    bridge.fire('onsizechange', { height: 333 });
    expect(heights).toEqual([48, 1200, 333]);
  });

  it('an app reporting its size every animation frame keeps running and its newest height applies', () => {
    const { bridge, heights, errors } = start();
    for (let frame = 0; frame < 600; frame += 1) bridge.fire('onsizechange', { height: 300 + (frame % 2) });
    expect(heights).toHaveLength(600);
    expect(heights.at(-1)).toBe(301);
    expect(errors).toEqual([]);
  });

  it("passes the proxy's facts of a CSP refusal to the card, and logs it worded in the person's language", async () => {
    await activateLocale('zh-CN');
    const { bridge, refusals, transport } = start();
    const facts = { directive: 'worker-src', blocked: 'data' };
    bridge.fire('onloggingmessage', { level: 'warning', logger: CSP_VIOLATION_LOGGER, data: facts });
    bridge.fire('onloggingmessage', { level: 'info', logger: 'app', data: 'hello' });
    expect(refusals).toEqual([facts]);
    await flush();
    expect(transport.calls.map((c) => (c.input as { text?: unknown }).text)).toEqual([
      '应用的安全策略（worker-src）阻止了它从 data 启动 worker。',
      'hello',
    ]);
  });

  it('closing tears the resource down, then removes the iframe and closes the bridge', async () => {
    const { bridge, session, container } = start();
    bridge.fire('oninitialized', {});
    await session.close(true);
    const order = bridge.sent.map(([m]) => m);
    expect(order.indexOf('teardownResource')).toBeGreaterThan(-1);
    expect(order.indexOf('teardownResource')).toBeLessThan(order.indexOf('close'));
    expect(container.querySelector('iframe')).toBeNull();
    // Nothing is sent after close.
    session.deliver({ kind: 'cancelled', reason: 'x' });
    session.updateHostContext({ theme: 'light' });
    expect(bridge.sent.at(-1)?.[0]).toBe('close');
  });

  it('routes app requests to the handlers', async () => {
    const { bridge } = start();
    await expect(bridge.fire('onrequestdisplaymode', { mode: 'fullscreen' })).resolves.toEqual({ mode: 'inline' });
    await expect(bridge.fire('onopenlink', { url: 'https://example.com' })).resolves.toEqual({ isError: true });
  });
});
