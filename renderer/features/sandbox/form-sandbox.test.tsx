// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../../shared/result';
import { serverState } from '../../test-support/fake-transport';
import { HOME, MISSING, sandboxHandlers, settingsView } from '../../test-support/sandbox-host';
import { ServerFormDialog } from '../servers/server-form-dialog';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

const dialog = () => screen.getByRole('dialog');
const sandboxSwitch = () => within(dialog()).getByRole('switch', { name: 'Run in the OS sandbox' });

describe('the sandbox in the server form', () => {
  it('adds a server with the sandbox on, its folders and domains sent with servers.add so it never starts without them', async () => {
    const handlers = sandboxHandlers([]);
    handlers['servers.add'] = ({ name, config }) =>
      ok(serverState(name, { config: { ...serverState(name).config, command: config.command ?? '' } }));
    const { transport, store } = renderWithBerth(<ServerFormDialog />, { handlers });
    act(() => store.getState().openServerForm({ mode: 'add' }));
    await waitFor(() => expect(sandboxSwitch().hasAttribute('disabled')).toBe(false));
    // Off by default for a server the person types in, and saying what off means.
    expect(sandboxSwitch().getAttribute('aria-checked')).toBe('false');
    expect(dialog().textContent).toContain('Off: it runs with every right of your account');
    fireEvent.change(within(dialog()).getByLabelText('Name', { exact: true }), { target: { value: 'files' } });
    fireEvent.change(within(dialog()).getByLabelText('Command', { exact: true }), { target: { value: 'node' } });
    fireEvent.click(sandboxSwitch());
    // A new server's roots are not known yet: said so in words.
    expect(screen.getByTestId('sandbox-policy-write').textContent).toContain('the roots you give it');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Add folder' }));
    fireEvent.change(within(dialog()).getByRole('textbox', { name: 'Folder 1' }), {
      target: { value: `${HOME}/Documents/reports/` },
    });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Add domain' }));
    fireEvent.change(within(dialog()).getByRole('textbox', { name: 'Domain 1' }), {
      target: { value: 'api.github.com' },
    });
    expect(screen.getByTestId('sandbox-policy-network').textContent).toBe('api.github.com');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Add server' }));
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'servers.add')).toBe(true));
    expect(transport.calls.find((c) => c.method === 'servers.add')?.input).toMatchObject({
      name: 'files',
      sandbox: { enabled: true, allowedFolders: [`${HOME}/Documents/reports`], allowedDomains: ['api.github.com'] },
    });
  });

  it('refuses to submit a wrong domain, marking its row', async () => {
    const { transport, store } = renderWithBerth(<ServerFormDialog />, { handlers: sandboxHandlers([]) });
    act(() => store.getState().openServerForm({ mode: 'add' }));
    await waitFor(() => expect(sandboxSwitch().hasAttribute('disabled')).toBe(false));
    fireEvent.change(within(dialog()).getByLabelText('Name', { exact: true }), { target: { value: 'files' } });
    fireEvent.change(within(dialog()).getByLabelText('Command', { exact: true }), { target: { value: 'node' } });
    fireEvent.click(sandboxSwitch());
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Add domain' }));
    fireEvent.change(within(dialog()).getByRole('textbox', { name: 'Domain 1' }), {
      target: { value: 'https://api.github.com/repos' },
    });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Add server' }));
    expect((await within(dialog()).findByRole('alert')).textContent).toBe(
      'Domain 1: Enter a domain without http:// or a path (example.com)',
    );
    expect(transport.calls.some((c) => c.method === 'servers.add')).toBe(false);
  });

  it('editing shows the saved setting and stores a change after the config, saying a running server restarts', async () => {
    const files = serverState('files', { status: 'ready' });
    const handlers = sandboxHandlers([settingsView('files', { offered: true })]);
    handlers['servers.update'] = () => ok(files);
    const { transport, store } = renderWithBerth(<ServerFormDialog />, { handlers });
    act(() => store.getState().applyServersSnapshot([files]));
    act(() => store.getState().openServerForm({ mode: 'edit', name: 'files' }));
    await waitFor(() => expect(sandboxSwitch().hasAttribute('disabled')).toBe(false));
    fireEvent.click(sandboxSwitch());
    expect(within(dialog()).getByRole('note').textContent).toBe(
      'Saving restarts “files”: a sandbox applies from a process’s start.',
    );
    // The derived policy of the saved server: its root is listed.
    await waitFor(() => expect(screen.getByTestId('sandbox-policy-write').textContent).toContain('~/Projects/site'));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'sandbox.setServerSettings')).toBe(true));
    const methods = transport.calls
      .map((c) => c.method)
      .filter((m) => m === 'servers.update' || m === 'sandbox.setServerSettings');
    expect(methods).toEqual(['servers.update', 'sandbox.setServerSettings']);
    expect(transport.calls.find((c) => c.method === 'sandbox.setServerSettings')?.input).toEqual({
      server: 'files',
      enabled: true,
      allowedFolders: [],
      allowedDomains: [],
      offered: true,
    });
  });

  it('an edit that leaves the sandbox alone does not touch it', async () => {
    const files = serverState('files', { status: 'ready' });
    const handlers = sandboxHandlers([settingsView('files', { enabled: true, offered: true })]);
    handlers['servers.update'] = () => ok(files);
    const { transport, store } = renderWithBerth(<ServerFormDialog />, { handlers });
    act(() => store.getState().applyServersSnapshot([files]));
    act(() => store.getState().openServerForm({ mode: 'edit', name: 'files' }));
    await waitFor(() => expect(sandboxSwitch().getAttribute('aria-checked')).toBe('true'));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'servers.update')).toBe(true));
    expect(transport.calls.some((c) => c.method === 'sandbox.setServerSettings')).toBe(false);
  });

  it('where the sandbox is unavailable, the form says why and the switch cannot be turned on', async () => {
    const { store } = renderWithBerth(<ServerFormDialog />, { handlers: sandboxHandlers([], MISSING) });
    act(() => store.getState().openServerForm({ mode: 'add' }));
    await waitFor(() =>
      expect(within(dialog()).getByTestId('sandbox-unavailable').textContent).toContain(
        'bubblewrap (bwrap) is not installed',
      ),
    );
    expect(sandboxSwitch().hasAttribute('disabled')).toBe(true);
  });
});
