// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../shared/result';
import { createFakeTransport, serverState, type FakeHandlers } from './test-support/fake-transport';
import { preloadLazyChunks } from './test-support/preload-lazy-chunks';
import { stubResizeObserver } from './test-support/dom-stubs';
import { renderAppWithBerth } from './test-support/render-app-with-berth';

// Views, dialogs and the Markdown renderer load on demand; have them ready before the first test waits for one.
beforeAll(preloadLazyChunks);

beforeAll(() => {
  // jsdom lacks these; Radix and the virtualizer probe for them.
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

const APP_INFO = {
  version: '0.1.0',
  shell: 'browser' as const,
  platform: 'linux',
  configPath: '/c/config.json',
  configDir: '/c',
  logsDir: '/c/logs',
};

function mount(handlers: FakeHandlers) {
  const transport = createFakeTransport({
    'app.info': () => ok(APP_INFO),
    'config.status': () => ok({ path: '/c/config.json', state: 'ok', problems: [] }),
    'servers.list': () => ok([]),
    'logs.query': () => ok({ entries: [], dropped: 0 }),
    ...handlers,
  });
  return renderAppWithBerth({ transport });
}

describe('<App>', () => {
  it('explains MCP servers when there are none and prefills the example', async () => {
    mount({});
    expect(await screen.findByText('Connect your first MCP server')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add an example server' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('everything');
    expect((within(dialog).getByLabelText('Command') as HTMLInputElement).value).toBe('npx');
    expect((within(dialog).getByLabelText('Argument 2') as HTMLInputElement).value).toBe(
      '@modelcontextprotocol/server-everything',
    );
  });

  it('shows client-side errors under fields without calling the host', async () => {
    const { transport } = mount({});
    fireEvent.click(await screen.findByRole('button', { name: 'Add your own' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add server' }));
    expect(await within(dialog).findByText('Give the server a name')).toBeTruthy();
    expect(within(dialog).getByText(/Enter the command that starts the server/)).toBeTruthy();
    // The cursor goes to the first field with a problem.
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'ok' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add server' }));
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText('Command')));
    expect(within(dialog).queryByText('Give the server a name')).toBeNull();
    expect(transport.calls.some((c) => c.method === 'servers.add')).toBe(false);
  });

  it('shows a host conflict inline under the name and keeps the form open', async () => {
    const { transport } = mount({
      'servers.add': () => ({ ok: false, code: 'CONFLICT', message: 'A server named “a” already exists' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add your own' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'a' } });
    fireEvent.change(within(dialog).getByLabelText('Command'), { target: { value: 'node' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add server' }));
    expect(await within(dialog).findByText('A server named “a” already exists')).toBeTruthy();
    expect(transport.calls.find((c) => c.method === 'servers.add')?.input).toMatchObject({
      name: 'a',
      config: { command: 'node', args: [] },
    });
  });

  it('lists servers with status words and the restart countdown', async () => {
    const { transport } = mount({
      'servers.list': () =>
        ok([
          serverState('alpha', { status: 'ready', protocolVersion: '2025-11-25', era: 'legacy' }),
          serverState('beta', {
            status: 'restarting',
            nextRestartAt: Date.now() + 9_500,
            reason: 'exited with code 1',
          }),
        ]),
    });
    const sidebar = await screen.findByRole('list', { name: 'Your servers' });
    await waitFor(() => expect(within(sidebar).getByText('Ready')).toBeTruthy());
    expect(within(sidebar).getByText(/Restarting in \d+s/)).toBeTruthy();
    act(() =>
      transport.emit('servers.changed', serverState('alpha', { status: 'crashed', reason: 'killed by SIGKILL' })),
    );
    expect(within(sidebar).getByText('Crashed')).toBeTruthy();
  });

  it('opens the fix-it editor for an invalid config and keeps the text when saving fails', async () => {
    const broken = '{\n  "mcpServers": {\n    "a": { "command": 1 }\n  }\n}';
    mount({
      'config.status': () =>
        ok({
          path: '/c/config.json',
          state: 'invalid',
          problems: [{ message: 'Expected a string', field: 'mcpServers.a.command' }],
          text: broken,
        }),
      'config.saveText': () =>
        ok({ path: '/c/config.json', state: 'invalid', problems: [{ message: 'Unexpected end', line: 2, column: 5 }] }),
    });
    const banner = await screen.findByTestId('config-banner');
    expect(within(banner).getByText('mcpServers.a.command: Expected a string')).toBeTruthy();
    fireEvent.click(within(banner).getByRole('button', { name: 'Fix it' }));
    const editor = (await screen.findByLabelText('Config file text')) as HTMLTextAreaElement;
    expect(editor.value).toBe(broken);
    fireEvent.change(editor, { target: { value: '{ "mcpServers": ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Line 2, column 5: Unexpected end')).toBeTruthy();
    expect((screen.getByLabelText('Config file text') as HTMLTextAreaElement).value).toBe('{ "mcpServers": ');
  });
});
