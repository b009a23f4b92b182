// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppUiResource } from '../../../shared/domain/app-ui';
import { fail, ok } from '../../../shared/result';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { FakeAppBridge, fakeBridgeModule, lastBridge } from '../../test-support/fake-app-bridge';
import { createFakeTransport, type FakeTransport } from '../../test-support/fake-transport';
import { AppFrame } from './app-frame';
import { appsStoreFor } from './apps-state';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';
import { appsError, uiUnusable } from '../../../shared/domain/apps-errors';

const RESOURCE: AppUiResource = {
  server: 'weather',
  uri: 'ui://weather/app.html',
  html: '<p>app</p>',
  csp: {},
  permissions: [],
  fetchedAt: 1,
};
const ORIGIN = { server: 'weather', conversationId: 'c1', toolUseId: 'tu1' };

/** Berth's shown theme (<html data-theme>, set by the shell's ThemeSync) that the test can flip. */
function fakeColorScheme() {
  document.documentElement.dataset.theme = 'light';
  return {
    setDark(next: boolean) {
      document.documentElement.dataset.theme = next ? 'dark' : 'light';
    },
  };
}

function mount(transport: FakeTransport, props: Partial<Parameters<typeof AppFrame>[0]> = {}) {
  return renderWithBerth(
    <AppFrame
      origin={ORIGIN}
      tool="forecast"
      resourceUri={RESOURCE.uri}
      input={{ city: 'Oslo' }}
      outcome={undefined}
      heightKey="c1:tu1"
      loadBridge={() => Promise.resolve(fakeBridgeModule)}
      {...props}
    />,
    { transport },
  );
}

function hostWith(resource: AppUiResource = RESOURCE) {
  return createFakeTransport({
    'apps.resource': () => ok(resource),
    'apps.sandbox': () => ok({ proxyUrl: 'http://127.0.0.1:5999/proxy.html' }),
    'apps.callTool': () => ok({ content: [{ type: 'text', text: 'done' }] }),
    'apps.openExternal': () => ok({}),
  });
}

const iframe = () => document.querySelector('iframe.app-frame-iframe');

describe('AppFrame', () => {
  beforeAll(stubResizeObserver);
  beforeEach(() => {
    FakeAppBridge.instances = [];
  });
  afterEach(cleanup);

  it("names the person's language to the sandbox proxy, whose page words its own notes in it", async () => {
    await activateLocale('ko');
    try {
      mount(hostWith());
      await waitFor(() => expect(iframe()?.getAttribute('src') ?? '').toContain('lang=ko'));
      expect(new URL(iframe()?.getAttribute('src') ?? '').searchParams.get('csp')).not.toBeNull();
    } finally {
      await activateLocale('en');
    }
  });

  it('says the server is not running (and builds no frame) when the host answers NOT_READY', async () => {
    const transport = createFakeTransport({
      'apps.resource': () => fail('NOT_READY', 'weather is stopped'),
      'apps.sandbox': () => ok({ proxyUrl: 'http://x/' }),
    });
    mount(transport);
    expect((await screen.findByRole('note')).textContent).toContain(
      'The server “weather” is not running: showing the text result.',
    );
    expect(iframe()).toBeNull();
    expect(FakeAppBridge.instances).toEqual([]);
  });

  it('says the server is gone on NOT_FOUND', async () => {
    const transport = createFakeTransport({
      'apps.resource': () => fail('NOT_FOUND', 'no server weather'),
      'apps.sandbox': () => ok({ proxyUrl: 'http://x/' }),
    });
    mount(transport);
    expect((await screen.findByRole('note')).textContent).toContain('The server “weather” is no longer configured');
  });

  it('words an app UI the server sent that Berth cannot show in Chinese, its reason too, and again after a switch to Japanese', async () => {
    await activateLocale('zh-CN');
    const refusal = uiUnusable('weather', RESOURCE.uri, appsError('apps-errors.ui-empty', {}));
    const transport = createFakeTransport({
      'apps.resource': () => fail('SERVER_ERROR', refusal.text, undefined, refusal.hostMessage),
      'apps.sandbox': () => ok({ proxyUrl: 'http://x/' }),
    });
    mount(transport);
    expect((await screen.findByRole('note')).textContent?.trim()).toBe(
      '无法加载应用：服务器“weather”发送的应用界面（ui://weather/app.html）Berth 无法显示：内容为空',
    );
    await act(() => activateLocale('ja'));
    expect(screen.getByRole('note').textContent?.trim()).toBe(
      'アプリを読み込めませんでした: サーバー「weather」が送ったアプリ UI（ui://weather/app.html）は Berth では表示できません：空です',
    );
    await activateLocale('en');
  });

  it('renders the app, and on unmount tears it down and removes its iframe', async () => {
    const transport = hostWith();
    const { unmount } = mount(transport);
    await waitFor(() => expect(iframe()).not.toBeNull());
    const bridge = lastBridge();
    act(() => void bridge.fire('oninitialized', {}));
    expect(bridge.sent).toContainEqual(['sendToolInput', { arguments: { city: 'Oslo' } }]);
    const frame = iframe()!;
    unmount();
    expect(bridge.sent.map(([m]) => m)).toContain('teardownResource');
    expect(frame.isConnected).toBe(false);
  });

  it('sends the saved result after a reload, and re-reads the resource when its server says it changed', async () => {
    const transport = hostWith();
    mount(transport, { outcome: { kind: 'result', content: [{ type: 'text', text: '12°C' }], isError: false } });
    await waitFor(() => expect(iframe()).not.toBeNull());
    act(() => void lastBridge().fire('oninitialized', {}));
    expect(lastBridge().sent.at(-1)).toEqual([
      'sendToolResult',
      { content: [{ type: 'text', text: '12°C' }], isError: false },
    ]);

    const reads = () => transport.calls.filter((c) => c.method === 'apps.resource').length;
    act(() => transport.emit('apps.resourcesChanged', { server: 'other' }));
    expect(reads()).toBe(1);
    act(() => transport.emit('apps.resourcesChanged', { server: 'weather' }));
    await waitFor(() => expect(reads()).toBe(2));
  });

  it("names its running app in each tool call, and tells the host when the card goes (the app's questions end)", async () => {
    const transport = hostWith();
    transport.handlers['apps.appGone'] = () => ok({});
    const view = mount(transport);
    await waitFor(() => expect(iframe()).not.toBeNull());
    await act(async () => {
      await lastBridge().fire('oncalltool', { name: 'refresh' }, { mcpReq: { signal: new AbortController().signal } });
    });
    const sent = transport.calls.find((c) => c.method === 'apps.callTool')?.input as { call?: { instance: string } };
    expect(sent.call?.instance).toMatch(/^[0-9a-f-]{36}$/);
    view.unmount();
    expect(transport.calls.filter((c) => c.method === 'apps.appGone').map((c) => c.input)).toEqual([
      { instance: sent.call?.instance },
    ]);
  });

  it('keeps its last height when it comes back (so the list does not jump)', async () => {
    const transport = hostWith();
    const first = mount(transport);
    await waitFor(() => expect(iframe()).not.toBeNull());
    act(() => void lastBridge().fire('onsizechange', { height: 420 }));
    // The frame's 1px border is added back around the 420 px the app asked for.
    expect((document.querySelector('.app-frame-slot') as HTMLElement).style.height).toBe('422px');
    expect((document.querySelector('.app-frame-host') as HTMLElement).style.height).toBe('422px');
    first.unmount();
    mount(transport);
    expect((document.querySelector('.app-frame-loading') as HTMLElement).style.height).toBe('422px');
  });

  it('asks before passing the permissions the resource declares; allowing re-creates the frame with them', async () => {
    const transport = hostWith({ ...RESOURCE, permissions: ['camera', 'geolocation'] });
    mount(transport);
    const ask = await screen.findByRole('group', { name: 'Permissions the app asks for' });
    expect(ask.textContent).toContain('This app asks for: camera and your location');
    // The question shows as soon as the resource is read; the frame's bridge comes with the frame, a moment later.
    await waitFor(() => expect(FakeAppBridge.instances.length).toBeGreaterThan(0));
    act(() => void lastBridge().fire('onsandboxready', {}));
    expect(lastBridge().sent).toContainEqual([
      'sendSandboxResourceReady',
      expect.objectContaining({ permissions: {} }),
    ]);
    const before = FakeAppBridge.instances.length;
    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(FakeAppBridge.instances.length).toBe(before + 1));
    act(() => void lastBridge().fire('onsandboxready', {}));
    expect(lastBridge().sent).toContainEqual([
      'sendSandboxResourceReady',
      expect.objectContaining({ permissions: { camera: {}, geolocation: {} } }),
    ]);
    expect(screen.queryByRole('group', { name: 'Permissions the app asks for' })).toBeNull();
  });

  it('"Not now" keeps the app running without the permissions', async () => {
    const transport = hostWith({ ...RESOURCE, permissions: ['microphone'] });
    mount(transport);
    fireEvent.click(await screen.findByRole('button', { name: 'Not now' }));
    expect(screen.queryByText(/This app asks for/)).toBeNull();
    expect(FakeAppBridge.instances).toHaveLength(1);
  });

  it('closes an app that floods Berth with requests, says why, and can reload it', async () => {
    const transport = hostWith();
    mount(transport);
    await waitFor(() => expect(iframe()).not.toBeNull());
    const bridge = lastBridge();
    await act(async () => {
      await Promise.allSettled(
        Array.from(
          { length: 200 },
          () => bridge.fire('oncalltool', { name: 'spam', arguments: {} }) as Promise<unknown>,
        ),
      );
    });
    expect(screen.getByRole('note').textContent).toMatch(
      /This app was closed: it sent 140 requests in 1 second\. The text result is below\./,
    );
    expect(iframe()).toBeNull();
    expect(transport.calls.filter((c) => c.method === 'apps.callTool')).toHaveLength(40);
    fireEvent.click(screen.getByRole('button', { name: 'Reload app' }));
    await waitFor(() => expect(iframe()).not.toBeNull());
    expect(lastBridge()).not.toBe(bridge);
  });

  it('asks before opening a link, showing the domain and the full address', async () => {
    const transport = hostWith();
    mount(transport);
    await waitFor(() => expect(iframe()).not.toBeNull());
    let answer: Promise<unknown> | undefined;
    act(() => {
      answer = lastBridge().fire('onopenlink', { url: 'https://docs.example.org/guide?x=1' }) as Promise<unknown>;
    });
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('docs.example.org');
    expect(dialog.textContent).toContain('https://docs.example.org/guide?x=1');
    expect(transport.calls.some((c) => c.method === 'apps.openExternal')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Open docs.example.org' }));
    await expect(answer).resolves.toEqual({});
    expect(transport.calls).toContainEqual({
      method: 'apps.openExternal',
      input: { origin: ORIGIN, url: 'https://docs.example.org/guide?x=1' },
    });
  });

  it("proposes the app's message above the composer, never sending it", async () => {
    const transport = hostWith();
    const { store } = mount(transport);
    await waitFor(() => expect(iframe()).not.toBeNull());
    await act(async () => {
      await lastBridge().fire('onmessage', { role: 'user', content: [{ type: 'text', text: 'Book it' }] });
    });
    expect(appsStoreFor(store).getState().proposals).toEqual([
      expect.objectContaining({
        conversationId: 'c1',
        toolUseId: 'tu1',
        server: 'weather',
        tool: 'forecast',
        text: 'Book it',
      }),
    ]);
    expect(transport.calls.some((c) => c.method === 'chat.send')).toBe(false);
  });

  it('goes full screen when the app declared it, tells it so, and Escape brings it back', async () => {
    const transport = hostWith();
    mount(transport);
    await waitFor(() => expect(iframe()).not.toBeNull());
    const bridge = lastBridge();
    bridge.appCapabilities = { availableDisplayModes: ['inline', 'fullscreen'] };
    act(() => void bridge.fire('oninitialized', {}));
    let answer: unknown;
    await act(async () => {
      answer = await bridge.fire('onrequestdisplaymode', { mode: 'pip' });
    });
    expect(answer).toEqual({ mode: 'inline' });
    await act(async () => {
      answer = await bridge.fire('onrequestdisplaymode', { mode: 'fullscreen' });
    });
    expect(answer).toEqual({ mode: 'fullscreen' });
    expect(document.querySelector('.app-frame-host')?.classList.contains('app-frame-fullscreen')).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Exit full screen (Esc)' }));
    expect(bridge.sent.filter(([m]) => m === 'setHostContext').at(-1)?.[1]).toMatchObject({
      displayMode: 'fullscreen',
    });
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(document.querySelector('.app-frame-host')?.classList.contains('app-frame-inline')).toBe(true);
    expect(bridge.sent.filter(([m]) => m === 'setHostContext').at(-1)?.[1]).toMatchObject({ displayMode: 'inline' });
    // The same frame all along: moving an iframe would reload the app.
    expect(FakeAppBridge.instances).toHaveLength(1);
  });

  it("sends Berth's theme at start and again when it switches (the setting, or the system on System)", async () => {
    const scheme = fakeColorScheme();
    const transport = hostWith();
    mount(transport);
    await waitFor(() => expect(iframe()).not.toBeNull());
    const bridge = lastBridge();
    expect(bridge.options.hostContext).toMatchObject({
      theme: 'light',
      platform: 'desktop',
      displayMode: 'inline',
      availableDisplayModes: ['inline', 'fullscreen', 'pip'],
    });
    act(() => scheme.setDark(true));
    await waitFor(() =>
      expect(bridge.sent.filter(([m]) => m === 'setHostContext').at(-1)?.[1]).toMatchObject({ theme: 'dark' }),
    );
  });
});

vi.setConfig({ testTimeout: 15_000 });
