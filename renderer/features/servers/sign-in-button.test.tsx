// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppInfo } from '../../../shared/domain/config';
import { ServerConfigSchema } from '../../../shared/domain';
import { fail, ok } from '../../../shared/result';
import { createFakeTransport, serverState, type FakeHandlers } from '../../test-support/fake-transport';
import { SignInButton, usesOAuth } from './sign-in-button';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { shownToasts } from '../../test-support/shown-toasts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const PAGE = 'https://login.example/authorize?client_id=c&state=s';
const remote = serverState('notes', { config: ServerConfigSchema.parse({ url: 'https://mcp.example/mcp' }) });

function mount(shell: AppInfo['shell'], handlers: FakeHandlers) {
  const transport = createFakeTransport(handlers);
  const { store } = renderWithBerth(<SignInButton server={remote} />, {
    transport,
    prepare: (store) => {
      store.setState({
        appInfo: {
          version: '0',
          shell,
          platform: 'linux',
          configPath: '/c/config.json',
          configDir: '/c',
          logsDir: '/c/logs',
        },
      });
    },
  });
  return { store, transport };
}

describe('SignInButton', () => {
  it('is for remote servers without an Authorization header of their own', () => {
    expect(usesOAuth(remote)).toBe(true);
    expect(usesOAuth(serverState('local', { config: ServerConfigSchema.parse({ command: 'node' }) }))).toBe(false);
    expect(
      usesOAuth(
        serverState('keyed', {
          config: ServerConfigSchema.parse({ url: 'https://a.example/mcp', headers: { authorization: 'x' } }),
        }),
      ),
    ).toBe(false);
    const robot = ServerConfigSchema.parse({
      url: 'https://a.example/mcp',
      oauth: { grant: 'client_credentials', clientId: 'ci', clientSecret: 's' },
    });
    expect(usesOAuth(serverState('robot', { config: robot }))).toBe(false);
  });

  it('browser mode: opens a tab inside the click and points it at the page the host returns', async () => {
    const tab = { opener: {} as unknown, location: { href: 'about:blank' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { store, transport } = mount('browser', {
      'servers.signIn': () => ok({ authorizationUrl: PAGE, opened: false }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(tab.location.href).toBe(PAGE));
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    expect(tab.opener).toBeNull();
    expect(transport.calls).toEqual([{ method: 'servers.signIn', input: { name: 'notes' } }]);
    expect(shownToasts(store).at(-1)?.title).toBe('Signing in to “notes”');
  });

  it('browser mode: a failed sign-in closes the tab and says why', async () => {
    const tab = { opener: null, location: { href: 'about:blank' }, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { store } = mount('browser', {
      'servers.signIn': () =>
        fail('SERVER_ERROR', 'sign-in failed while finding the authorization server (discovery): HTTP 404'),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(tab.close).toHaveBeenCalled());
    expect(shownToasts(store).at(-1)).toMatchObject({ tone: 'error', title: 'Could not sign in to “notes”' });
  });

  it('desktop app: the host opened the system browser, the page opens nothing', async () => {
    const open = vi.spyOn(window, 'open');
    const { store } = mount('electron', { 'servers.signIn': () => ok({ authorizationUrl: PAGE, opened: true }) });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(shownToasts(store).at(-1)?.title).toBe('Signing in to “notes”'));
    expect(open).not.toHaveBeenCalled();
  });
});
