// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerApp } from '../../../shared/domain/app-ui';
import { fail, ok } from '../../../shared/result';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { FakeAppBridge, lastBridge } from '../../test-support/fake-app-bridge';
import { createFakeTransport, serverState, type FakeTransport } from '../../test-support/fake-transport';
import { ServerApps } from './server-apps';
import { renderWithBerth } from '../../test-support/render-with-berth';

vi.mock('@modelcontextprotocol/ext-apps/app-bridge', async () => {
  const fake = await import('../../test-support/fake-app-bridge');
  return { AppBridge: fake.FakeAppBridge, PostMessageTransport: fake.FakePostMessageTransport };
});

const APPS: ServerApp[] = [
  {
    tool: 'forecast',
    title: 'Forecast',
    description: 'The week ahead',
    resourceUri: 'ui://weather/app.html',
    visibility: ['model', 'app'],
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string', examples: ['Oslo'] }, days: { type: 'integer', default: 3 } },
      required: ['city'],
    },
  },
  { tool: 'refresh', resourceUri: 'ui://weather/app.html', visibility: ['app'], inputSchema: { type: 'object' } },
];

function mount(transport: FakeTransport, status: 'ready' | 'stopped' = 'ready') {
  renderWithBerth(<ServerApps server={serverState('weather', { status })} />, { transport });
}

function host() {
  return createFakeTransport({
    'apps.list': () => ok(APPS),
    'apps.resource': ({ server, uri }) => ok({ server, uri, html: '<p/>', csp: {}, permissions: [], fetchedAt: 1 }),
    'apps.sandbox': () => ok({ proxyUrl: 'http://127.0.0.1:5999/proxy.html' }),
  });
}

describe('ServerApps', () => {
  beforeAll(stubResizeObserver);
  beforeEach(() => {
    FakeAppBridge.instances = [];
  });
  afterEach(cleanup);

  it('lists the tools with an app, marking those only the app may call', async () => {
    mount(host());
    const list = await screen.findByRole('list', { name: 'Apps of weather' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringContaining('Forecast'),
      expect.stringContaining('only for its app'),
    ]);
    expect(items[0]!.textContent).toContain('The week ahead');
  });

  it('says why there is nothing when the server is not ready, or cannot list', async () => {
    const transport = host();
    mount(transport, 'stopped');
    expect(screen.getByText('Apps are listed once the server is ready.')).toBeTruthy();
    expect(transport.calls.some((c) => c.method === 'apps.list')).toBe(false);
    cleanup();
    mount(createFakeTransport({ 'apps.list': () => fail('INTERNAL', 'boom') }));
    expect((await screen.findByRole('alert')).textContent).toContain('Could not list the apps: boom');
  });

  it('previews an app with sample arguments from the schema, checked as typed, without a conversation', async () => {
    const transport = host();
    mount(transport);
    fireEvent.click(await screen.findByRole('button', { name: 'Preview Forecast' }));
    const dialog = await screen.findByRole('dialog');
    const box = within(dialog).getByRole('textbox', { name: 'Sample arguments (JSON)' }) as HTMLTextAreaElement;
    expect(JSON.parse(box.value)).toEqual({ city: 'Oslo', days: 3 });

    fireEvent.change(box, { target: { value: '{"city": ' } });
    expect(within(dialog).getByRole('alert').textContent).toContain('Not valid JSON');
    expect((within(dialog).getByRole('button', { name: 'Show the app' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(box, { target: { value: '{"city": "Bergen"}' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show the app' }));
    await waitFor(() => expect(dialog.querySelector('iframe')).not.toBeNull());
    expect(dialog.querySelector('iframe')!.getAttribute('title')).toBe('App of weather: forecast');
    const bridge = lastBridge();
    expect(bridge.options.hostContext).toMatchObject({ availableDisplayModes: ['inline'] });
    act(() => void bridge.fire('oninitialized', {}));
    expect(bridge.sent.at(-1)).toEqual(['sendToolInput', { arguments: { city: 'Bergen' } }]);
    // A preview belongs to no conversation: a message from it has nowhere to go.
    await expect(bridge.fire('onmessage', { role: 'user', content: [{ type: 'text', text: 'hi' }] })).rejects.toThrow(
      /preview/,
    );
  });
});
