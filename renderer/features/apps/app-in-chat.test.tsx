// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppModelContext } from '../../../shared/domain/app-ui';
import type { ChatMessage } from '../../../shared/domain/chat';
import { fail, ok } from '../../../shared/result';
import { FakeAppBridge, lastBridge } from '../../test-support/fake-app-bridge';
import { createFakeTransport, serverState } from '../../test-support/fake-transport';
import { useMountedAppEnvironment } from '../../test-support/mounted-app';
import { appsStoreFor } from './apps-state';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';

// jsdom cannot run the sandbox proxy: the bridge library is replaced by the recording fake.
vi.mock('@modelcontextprotocol/ext-apps/app-bridge', async () => {
  const fake = await import('../../test-support/fake-app-bridge');
  return { AppBridge: fake.FakeAppBridge, PostMessageTransport: fake.FakePostMessageTransport };
});

useMountedAppEnvironment();

const base = { conversationId: 'c1', turnId: 't1' };
const APP = { resourceUri: 'ui://weather/app.html' };
const USE = {
  type: 'tool_use',
  id: 'tu1',
  server: 'weather',
  tool: 'forecast',
  apiName: 'weather__forecast',
  input: { city: 'Oslo' },
} as const;
const SAVED: ChatMessage[] = [
  { id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Weather in Oslo?' }] },
  { id: 'a1', role: 'assistant', createdAt: 2, content: [USE] },
  {
    id: 'u2',
    role: 'user',
    createdAt: 3,
    content: [
      {
        type: 'tool_result',
        toolUseId: 'tu1',
        content: [{ type: 'text', text: 'Oslo: 12°C' }],
        isError: false,
        app: APP,
      },
    ],
  },
];
const CONTEXT: AppModelContext = {
  conversationId: 'c1',
  toolUseId: 'tu1',
  server: 'weather',
  content: [{ type: 'text', text: 'Selected day: Friday' }],
  updatedAt: 5,
};

function mount(
  messages: ChatMessage[],
  contexts: AppModelContext[] = [],
  resourceAnswer?: () => ReturnType<typeof fail>,
) {
  const transport = createFakeTransport({
    'app.info': () =>
      ok({ version: '9.9.9', shell: 'browser', platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' }),
    'config.status': () => ok({ path: '/c', state: 'ok', problems: [] }),
    'servers.list': () =>
      ok([
        serverState('weather', {
          status: 'ready',
          tools: [
            {
              name: 'forecast',
              title: 'Forecast',
              inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
            },
          ],
        }),
      ]),
    'logs.query': () => ok({ entries: [], dropped: 0 }),
    'settings.get': () =>
      ok({
        apiKey: { source: 'stored', hint: '…wxyz' },
        models: [{ id: 'claude-a', label: 'Claude A' }],
        defaultModel: 'claude-a',
      }),
    'pending.list': () => ok([]),
    'elicitation.awaiting': () => ok([]),
    'chat.list': () =>
      ok([
        { id: 'c1', title: 'Weather', createdAt: 1, updatedAt: 3, model: 'claude-a', messageCount: messages.length },
      ]),
    'chat.get': () =>
      ok({
        id: 'c1',
        title: 'Weather',
        createdAt: 1,
        updatedAt: 3,
        model: 'claude-a',
        messages,
        disabledServers: [],
        disabledTools: [],
      }),
    'chat.tools': () => ok({ tools: [], offeredCount: 0 }),
    'chat.send': () => ok({ accepted: true }),
    'tasks.list': () => ok([]),
    'apps.resource': ({ server, uri }) =>
      resourceAnswer?.() ?? ok({ server, uri, html: '<p>forecast</p>', csp: {}, permissions: [], fetchedAt: 1 }),
    'apps.sandbox': () => ok({ proxyUrl: 'http://127.0.0.1:5999/proxy.html' }),
    'apps.modelContext': () => ok(contexts),
    'apps.setModelContext': () => ok({}),
  });
  return renderAppWithBerth({ transport, prepare: (store) => store.getState().showView('chat') });
}

const findAppFrame = () => screen.findByTitle('App of weather: forecast', undefined, { timeout: 5_000 });

describe('an MCP App in the chat', () => {
  beforeEach(() => {
    FakeAppBridge.instances = [];
  });

  it('re-renders a saved call’s app from the stored result (after a reload), the text result folded under a disclosure', async () => {
    const { transport } = mount(SAVED);
    const frame = await findAppFrame();
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
    expect(transport.calls).toContainEqual({
      method: 'apps.resource',
      input: { server: 'weather', uri: 'ui://weather/app.html' },
    });
    const bridge = lastBridge();
    expect(bridge.hostInfo).toEqual({ name: 'Berth', version: '9.9.9' });
    // At start, or sent as a change if the server's tools arrived after the frame was built.
    const context = {
      ...bridge.options.hostContext,
      ...(bridge.sent.filter(([m]) => m === 'setHostContext').at(-1)?.[1] as object | undefined),
    };
    expect(context).toMatchObject({
      toolInfo: {
        id: 'tu1',
        tool: {
          name: 'forecast',
          title: 'Forecast',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    });
    act(() => void bridge.fire('oninitialized', {}));
    expect(bridge.sent.slice(-2)).toEqual([
      ['sendToolInput', { arguments: { city: 'Oslo' } }],
      ['sendToolResult', { content: [{ type: 'text', text: 'Oslo: 12°C' }], isError: false }],
    ]);
    // The app shows the call: what the model saw is one click away.
    // (The card folds it once the frame reports the app running: an effect, so wait for it.)
    await waitFor(() => expect(screen.queryByText('Oslo: 12°C')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: /Text result/ }));
    expect(screen.getByText('Oslo: 12°C')).toBeTruthy();
  });

  it('shows the text result in full, with a note, when the app cannot run (its server is not running)', async () => {
    mount(SAVED, [], () => fail('NOT_READY', 'weather is not running'));
    expect(
      await screen.findByText(/is not running: showing the text result/, undefined, { timeout: 5_000 }),
    ).toBeTruthy();
    expect(screen.getByText('Oslo: 12°C')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Text result/ })).toBeNull();
  });

  it('renders the app as soon as the live call starts, and sends the result when it comes', async () => {
    const { transport } = mount(SAVED.slice(0, 1));
    await screen.findByText('Weather in Oslo?', undefined, { timeout: 5_000 });
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 1 });
      transport.emit('chat.event', {
        type: 'message-saved',
        ...base,
        message: { id: 'a1', role: 'assistant', createdAt: 2, content: [USE] },
      });
      transport.emit('chat.event', {
        type: 'tool-call-started',
        ...base,
        toolUseId: 'tu1',
        server: 'weather',
        tool: 'forecast',
        input: { city: 'Oslo' },
        app: APP,
      });
    });
    await findAppFrame();
    const bridge = lastBridge();
    act(() => void bridge.fire('oninitialized', {}));
    expect(bridge.sent.at(-1)).toEqual(['sendToolInput', { arguments: { city: 'Oslo' } }]);
    act(() =>
      transport.emit('chat.event', {
        type: 'tool-call-finished',
        ...base,
        toolUseId: 'tu1',
        isError: false,
        denied: false,
        result: {
          type: 'tool_result',
          toolUseId: 'tu1',
          content: [{ type: 'text', text: 'Oslo: 12°C' }],
          isError: false,
          app: APP,
        },
      }),
    );
    await waitFor(() =>
      expect(bridge.sent.at(-1)).toEqual([
        'sendToolResult',
        { content: [{ type: 'text', text: 'Oslo: 12°C' }], isError: false },
      ]),
    );
  });

  it('tells the app a denied call was cancelled', async () => {
    const denied: ChatMessage[] = [
      ...SAVED.slice(0, 2),
      {
        id: 'u2',
        role: 'user',
        createdAt: 3,
        content: [{ type: 'tool_result', toolUseId: 'tu1', content: [], isError: true, denied: {}, app: APP }],
      },
    ];
    mount(denied);
    await findAppFrame();
    act(() => void lastBridge().fire('oninitialized', {}));
    expect(lastBridge().sent.at(-1)).toEqual(['sendToolCancelled', { reason: 'Denied by the person.' }]);
  });

  it('lists what apps added to the context above the composer, each removable, following the host', async () => {
    const { transport } = mount(SAVED, [CONTEXT]);
    const chips = await screen.findByRole('group', { name: 'Added by apps to the next message' }, { timeout: 5_000 });
    expect(within(chips).getByText('Selected day: Friday')).toBeTruthy();
    fireEvent.click(within(chips).getByRole('button', { name: 'Remove what the app of weather added' }));
    await waitFor(() =>
      expect(transport.calls).toContainEqual({
        method: 'apps.setModelContext',
        input: { origin: { server: 'weather', conversationId: 'c1', toolUseId: 'tu1' }, content: [] },
      }),
    );
    act(() => transport.emit('apps.modelContextChanged', { conversationId: 'c1', contexts: [] }));
    expect(screen.queryByRole('group', { name: 'Added by apps to the next message' })).toBeNull();
    act(() =>
      transport.emit('apps.modelContextChanged', {
        conversationId: 'c1',
        contexts: [{ ...CONTEXT, content: [{ type: 'text', text: 'Selected day: Monday' }] }],
      }),
    );
    expect(screen.getByText('Selected day: Monday')).toBeTruthy();
  });

  it("shows an app's proposed message for the person to edit and send, or drop", async () => {
    const { transport, store } = mount(SAVED);
    await findAppFrame();
    await act(async () => {
      await lastBridge().fire('onmessage', { role: 'user', content: [{ type: 'text', text: 'Book Friday' }] });
    });
    const proposal = await screen.findByRole('group', { name: 'Message proposed by the app of weather' });
    expect(transport.calls.some((c) => c.method === 'chat.send')).toBe(false);
    const box = within(proposal).getByRole('textbox', { name: 'Proposed message' });
    fireEvent.change(box, { target: { value: 'Book Friday at 9' } });
    fireEvent.click(within(proposal).getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(
        transport.calls.filter((c) => c.method === 'chat.send').map((c) => (c.input as { text: string }).text),
      ).toEqual(['Book Friday at 9']),
    );
    await waitFor(() =>
      expect(screen.queryByRole('group', { name: 'Message proposed by the app of weather' })).toBeNull(),
    );

    act(() =>
      appsStoreFor(store)
        .getState()
        .propose({ conversationId: 'c1', toolUseId: 'tu1', server: 'weather', tool: 'forecast', text: 'Again' }),
    );
    fireEvent.click(
      within(await screen.findByRole('group', { name: 'Message proposed by the app of weather' })).getByRole('button', {
        name: 'Drop',
      }),
    );
    expect(screen.queryByRole('group', { name: 'Message proposed by the app of weather' })).toBeNull();
    expect(transport.calls.filter((c) => c.method === 'chat.send')).toHaveLength(1);
  });
});
