// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerConfigSchema, type ServerState } from '../../../shared/domain';
import { ok } from '../../../shared/result';
import { createFakeTransport, serverState, type FakeHandlers } from '../../test-support/fake-transport';
import { signedInDetail } from './sign-in-button';
import { ServersView } from './servers-view';
import { statusLabel } from './status-badge';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';
import { serverStateReason } from '../../../shared/domain/server-state-reasons';

afterEach(cleanup);

const remote = ServerConfigSchema.parse({ url: 'https://mcp.example/mcp' });
const REASON = "https://mcp.example/mcp needs you to sign in (OAuth): press Sign in in the server's details";
const waiting = serverState('notes', {
  config: remote,
  status: 'error',
  reason: REASON,
  auth: { state: 'needs-sign-in' },
});
const signedIn = serverState('journal', {
  config: remote,
  status: 'ready',
  auth: { state: 'signed-in', renews: true, expiresAt: Date.now() + 3_600_000 },
});
const broken = serverState('broken', {
  status: 'error',
  reason: 'the server answered with something that is not JSON-RPC',
});

function mount(servers: ServerState[], selected: string, handlers: FakeHandlers = {}) {
  const transport = createFakeTransport(handlers);
  renderWithBerth(<ServersView />, {
    transport,
    prepare: (store) => {
      store.getState().applyServersSnapshot(servers);
      store.setState({ selectedServer: selected });
    },
  });
  return transport;
}

const row = (name: string) => document.querySelector<HTMLElement>(`.server-card[data-server="${name}"]`)!;
const detail = (name: string) => screen.getByRole('region', { name: `${name} details` });

describe('a remote server that needs a sign-in', () => {
  it('reads "Needs sign-in", not the red Error, in its row and its header; the status itself stays error', () => {
    mount([waiting, broken], 'notes');
    for (const place of [row('notes'), detail('notes')]) {
      // The badge is a status: screen readers hear it change, e2e page objects find it by role.
      const badge = within(place).getByRole('status');
      expect(badge.textContent).toBe('Needs sign-in');
      expect(badge.classList).toContain('status-needs-sign-in');
      expect(badge.classList).not.toContain('status-error');
      expect(badge.getAttribute('data-status')).toBe('error');
    }
    expect(screen.getByTestId('server-reason').classList).not.toContain('trouble');
    // A server that is really broken keeps the Error treatment.
    expect(within(row('broken')).getByRole('status').textContent).toBe('Error');
    expect(within(row('broken')).getByRole('status').classList).toContain('status-error');
  });

  it('offers Sign in in its row and its header, as buttons of their own that take the keyboard focus', () => {
    mount([waiting], 'notes');
    for (const place of [row('notes'), detail('notes')]) {
      const button = within(place).getByRole('button', { name: 'Sign in' });
      // Not nested in the row's own button, where it could not be reached or pressed on its own.
      expect(button.parentElement?.closest('button')).toBeNull();
      button.focus();
      expect(document.activeElement).toBe(button);
    }
  });
});

describe('a signed-in server', () => {
  it('shows "Signed in" in its row and its header (a renewing token says so in the tooltip); no Sign in button', () => {
    mount([signedIn], 'journal');
    expect(within(row('journal')).getByText('Signed in')).toBeTruthy();
    expect(within(detail('journal')).getByText('Signed in').getAttribute('title')).toBe(
      'Signed in: renews automatically',
    );
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    expect(row('journal').querySelector('.status-badge')?.textContent).toBe('Ready');
  });

  it('a token that will lapse says when, in the header', () => {
    const lapsing = serverState('journal', {
      config: remote,
      status: 'ready',
      auth: { state: 'signed-in', renews: false, expiresAt: Date.now() + 3_600_000 },
    });
    mount([lapsing], 'journal');
    expect(within(detail('journal')).getByText(/^Signed in · until /)).toBeTruthy();
    expect(within(row('journal')).getByText('Signed in')).toBeTruthy();
  });

  it('its Overview says so in words and offers Sign out, which asks the host', async () => {
    const transport = mount([signedIn], 'journal', { 'servers.signOut': () => ok(signedIn) });
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Overview' }));
    expect(screen.getByText('Signed in with OAuth · the token renews automatically')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() =>
      expect(transport.calls).toContainEqual({ method: 'servers.signOut', input: { name: 'journal' } }),
    );
  });

  it('a server Berth does not sign in to shows neither', () => {
    mount([broken], 'broken');
    expect(screen.queryByText(/Signed in/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });
});

describe("a server's reason, coded by the host", () => {
  it("reads in the person's language with the facts in place, and in the host's English for a code the catalog lacks", async () => {
    await activateLocale('zh-CN');
    const unreachable = serverStateReason('server-state.unreachable', {
      where: 'https://mcp.example/mcp',
      detail: 'connection refused',
    });
    const servers = [
      serverState('away', {
        config: remote,
        status: 'restarting',
        reason: unreachable.text,
        reasonMessage: unreachable.hostMessage,
        nextRestartAt: Date.now() + 60_000,
      }),
      serverState('idle', { status: 'stopped', reason: 'stopped', reasonMessage: { code: 'server-state.stopped' } }),
      serverState('newer', { status: 'stopped', reason: 'paused', reasonMessage: { code: 'server-state.paused' } }),
    ];
    mount(servers, 'away');
    const reasonIn = (name: string) => row(name).querySelector('.server-card-reason');
    expect(reasonIn('away')?.textContent).toBe('无法连接到 https://mcp.example/mcp：connection refused');
    expect(reasonIn('away')?.getAttribute('title')).toBe('无法连接到 https://mcp.example/mcp：connection refused');
    expect(reasonIn('away')?.querySelector('code')?.textContent).toBe('https://mcp.example/mcp');
    expect(screen.getByTestId('server-reason').textContent).toContain('无法连接到 https://mcp.example/mcp');
    expect(reasonIn('idle')?.textContent).toBe('已由你停止');
    expect(reasonIn('newer')?.textContent).toBe('paused');
  });
});

describe('labels', () => {
  it('words the status, the restart countdown and the empty list in the person’s language', async () => {
    await activateLocale('ja');
    expect(statusLabel({ status: 'restarting', nextRestartAt: 5_000 }, 0)).toBe('5 秒後に再起動');
    expect(statusLabel({ status: 'error', auth: { state: 'needs-sign-in' } }, 0)).toBe('サインインが必要');
    renderWithBerth(<ServersView />, { prepare: (store) => store.getState().applyServersSnapshot([]) });
    expect(await screen.findByRole('heading', { name: '最初の MCP サーバーを接続' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'サンプルサーバーを追加' })).toBeTruthy();
  });

  it('"Needs sign-in" only for the error a sign-in fixes', () => {
    expect(statusLabel({ status: 'error', auth: { state: 'needs-sign-in' } }, 0)).toBe('Needs sign-in');
    expect(statusLabel({ status: 'stopped', auth: { state: 'needs-sign-in' } }, 0)).toBe('Stopped');
    expect(statusLabel({ status: 'error' }, 0)).toBe('Error');
  });

  it('the token detail: renews, an expiry time, expired, or nothing known', () => {
    const now = new Date(2026, 10, 23, 12, 0).getTime();
    expect(signedInDetail({ state: 'signed-in', renews: true, expiresAt: now + 60_000 }, now)).toBe(
      'renews automatically',
    );
    expect(signedInDetail({ state: 'signed-in', renews: false, expiresAt: now + 3_600_000 }, now)).toMatch(
      /^until \S*1:00/,
    );
    expect(signedInDetail({ state: 'signed-in', expiresAt: now - 1 }, now)).toBe('token expired');
    expect(signedInDetail({ state: 'signed-in' }, now)).toBeUndefined();
  });
});

describe('the command line of a local server', () => {
  it('is the same shell-quoted line in its row and its Overview: quotes, $ and control characters shown, never dropped', () => {
    const config = ServerConfigSchema.parse({ command: 'node', args: ['my server.js', '$(id)', 'a\nb', 'x\u001b[2J'] });
    mount([serverState('odd', { config, status: 'ready' })], 'odd');
    const line = "node 'my server.js' '$(id)' 'a'$'\\n''b' 'x'$'\\e''[2J'";
    expect(row('odd').querySelector('.server-card-command')?.textContent).toBe(line);
    // Radix tabs switch on mousedown.
    fireEvent.mouseDown(within(detail('odd')).getByRole('tab', { name: /Overview/ }), { button: 0 });
    expect(detail('odd').querySelector('code.wrap')?.textContent).toBe(line);
  });
});
