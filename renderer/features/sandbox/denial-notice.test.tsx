// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail } from '../../../shared/result';
import { serverState } from '../../test-support/fake-transport';
import { HOME, denial, sandboxHandlers, settingsView } from '../../test-support/sandbox-host';
import { ServersView } from '../servers/servers-view';
import { LogDenialAction } from './log-denial-action';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { shownToasts } from '../../test-support/shown-toasts';
import { activateLocale } from '../../i18n/i18n';

afterEach(cleanup);

function mountServers(handlers = sandboxHandlers([settingsView('files', { enabled: true, offered: true })])) {
  const mounted = renderWithBerth(<ServersView />, { handlers });
  mounted.store.getState().applyServersSnapshot([serverState('files', { status: 'ready' })]);
  return mounted;
}

const card = () => document.querySelector<HTMLElement>('.server-card[data-server="files"]')!;

describe('a denial the person can act on', () => {
  it('shows on the card and the detail when the host reports it, with one action that allows the folder after a confirmation', async () => {
    const { transport, store } = mountServers();
    await waitFor(() => expect(within(card()).getByText('Sandboxed')).toBeTruthy());
    act(() => transport.emit('sandbox.denied', denial('files')));
    const onCard = within(card()).getByRole('group', { name: 'Blocked by the sandbox in files' });
    // Read from the server's own output: worded as its claim.
    expect(onCard.textContent).toContain('The server reports the sandbox blocked a write to ~/Documents/x/report.txt');
    const detail = screen.getByRole('region', { name: 'files details' });
    expect(within(detail).getByRole('group', { name: 'Blocked by the sandbox in files' }).textContent).toContain(
      'write to ~/Documents/x/report.txt',
    );

    fireEvent.click(within(onCard).getByRole('button', { name: 'Allow this folder' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(within(confirm).getByRole('heading').textContent).toBe('Let “files” change files in this folder?');
    expect(confirm.textContent).toContain('restarts it');
    expect(confirm.textContent).toContain(`${HOME}/Documents/x`);
    expect(confirm.textContent).toContain('comes from the server’s own output, which it can word as it likes');
    // Nothing is allowed before the confirmation.
    expect(transport.calls.some((c) => c.method === 'sandbox.allow')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Allow and restart' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(transport.calls.filter((c) => c.method === 'sandbox.allow').map((c) => c.input)).toEqual([
      { server: 'files', folder: `${HOME}/Documents/x` },
    ]);
    // Answered: the card no longer asks.
    expect(within(card()).queryByRole('group', { name: 'Blocked by the sandbox in files' })).toBeNull();
    expect(shownToasts(store).at(-1)).toMatchObject({
      tone: 'success',
      title: `“files” may now change ${HOME}/Documents/x`,
    });
  });

  it('offers "Allow this domain" for a blocked connection', async () => {
    const { transport } = mountServers();
    await waitFor(() => expect(within(card()).getByText('Sandboxed')).toBeTruthy());
    act(() =>
      transport.emit(
        'sandbox.denied',
        denial('files', {
          kind: 'network',
          target: 'api.example.com:443',
          source: 'proxy',
          message: 'blocked by the sandbox: connection to api.example.com:443',
          fix: { domain: 'api.example.com' },
        }),
      ),
    );
    fireEvent.click(within(card()).getByRole('button', { name: 'Allow this domain' }));
    const confirm = await screen.findByRole('alertdialog');
    // The sandbox's proxy saw it: Berth's own observation, not a claim.
    expect(confirm.textContent).not.toContain('server’s own output');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Allow and restart' }));
    await waitFor(() =>
      expect(transport.calls.filter((c) => c.method === 'sandbox.allow').map((c) => c.input)).toEqual([
        { server: 'files', domain: 'api.example.com' },
      ]),
    );
  });

  it('a read of a secret is shown without an action: Berth never allows it', async () => {
    const { transport } = mountServers();
    await waitFor(() => expect(within(card()).getByText('Sandboxed')).toBeTruthy());
    act(() =>
      transport.emit(
        'sandbox.denied',
        denial('files', {
          kind: 'read',
          target: `${HOME}/.ssh/id_rsa`,
          message: 'blocked by the sandbox: read of ~/.ssh/id_rsa',
          fix: undefined,
        }),
      ),
    );
    const detail = screen.getByRole('region', { name: 'files details' });
    const notice = within(detail).getByRole('group', { name: 'Blocked by the sandbox in files' });
    expect(notice.textContent).toContain('Blocked by the sandbox: read of ~/.ssh/id_rsa');
    expect(notice.textContent).toContain('Berth never allows this');
    expect(within(notice).queryByRole('button')).toBeNull();
  });

  it("shows a forged denial naming Berth's own folder as the server's claim, with what the folder holds and no Allow button", async () => {
    const { transport } = mountServers();
    await waitFor(() => expect(within(card()).getByText('Sandboxed')).toBeTruthy());
    const noFix =
      "it is inside Berth's own settings folder (~/.config/berth), which holds Berth's settings, secrets and the other servers' files";
    act(() =>
      transport.emit(
        'sandbox.denied',
        denial('files', {
          target: `${HOME}/.config/berth/sandbox.json`,
          message: 'the server reports the sandbox blocked a write to ~/.config/berth/sandbox.json',
          fix: undefined,
          noFix,
        }),
      ),
    );
    const detail = screen.getByRole('region', { name: 'files details' });
    const notice = within(detail).getByRole('group', { name: 'Blocked by the sandbox in files' });
    expect(notice.textContent).toContain(
      'The server reports the sandbox blocked a write to ~/.config/berth/sandbox.json',
    );
    expect(notice.textContent).toContain(`Berth never allows this: ${noFix}.`);
    expect(within(notice).queryByRole('button')).toBeNull();
    expect(within(card()).queryByRole('button', { name: /Allow/ })).toBeNull();
  });

  it('shows denials from before the window opened (the host keeps them), and keeps the confirmation open on a refusal', async () => {
    const handlers = sandboxHandlers([settingsView('files', { enabled: true, offered: true })], undefined, [
      denial('files'),
    ]);
    const english =
      'Berth never lets a sandboxed server write there: it holds credentials (~/.ssh). Pick the one folder it needs, such as a project folder: /home/ann/.ssh';
    handlers['sandbox.allow'] = () =>
      fail('FORBIDDEN', english, 'folder', {
        code: 'sandbox-errors.folder-protected',
        params: { folder: '/home/ann/.ssh', kind: 'secrets', place: '~/.ssh' },
      });
    mountServers(handlers);
    await waitFor(() => expect(card()).not.toBeNull());
    const onCard = await within(card()).findByRole('group', { name: 'Blocked by the sandbox in files' });
    fireEvent.click(within(onCard).getByRole('button', { name: 'Allow this folder' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Allow and restart' }));
    const alert = await within(screen.getByRole('alertdialog')).findByRole('alert');
    expect(alert.textContent).toBe(english);
    // The refusal is kept, not its words: a language switch re-words it from its code.
    await act(() => activateLocale('ko'));
    expect(within(screen.getByRole('alertdialog')).getByRole('alert').textContent).toBe(
      'Berth는 샌드박스 안의 서버가 이곳에 쓰는 것을 절대 허용하지 않습니다. 이 폴더는 자격 증명(~/.ssh)을 포함합니다. 프로젝트 폴더처럼 서버에 필요한 폴더 하나만 고르세요: /home/ann/.ssh',
    );
  });

  it('words why Berth never allows it in the person’s language, from its code, and re-words it on a switch', async () => {
    try {
      const { transport } = mountServers();
      await waitFor(() => expect(within(card()).getByText('Sandboxed')).toBeTruthy());
      act(() =>
        transport.emit(
          'sandbox.denied',
          denial('files', {
            kind: 'read',
            target: `${HOME}/.ssh/id_rsa`,
            message: 'blocked by the sandbox: read of ~/.ssh/id_rsa',
            fix: undefined,
            noFix: 'it holds credentials (~/.ssh)',
            noFixMessage: { code: 'sandbox-errors.no-fix-protected', params: { kind: 'secrets', place: '~/.ssh' } },
          }),
        ),
      );
      const detail = screen.getByRole('region', { name: 'files details' });
      const notice = within(detail).getByRole('group', { name: 'Blocked by the sandbox in files' });
      expect(notice.textContent).toContain('Berth never allows this: it holds credentials (~/.ssh).');
      await act(() => activateLocale('ja'));
      expect(notice.textContent).toContain(
        'Berth はこれを決して許可しません: このフォルダーは認証情報（~/.ssh）を含んでいます。',
      );
    } finally {
      await act(() => activateLocale('en'));
    }
  });

  it('puts the same action beside the denial’s line in the log', async () => {
    const { transport } = renderWithBerth(
      <LogDenialAction
        server="files"
        text="the server reports the sandbox blocked a write to ~/Documents/x/report.txt"
      />,
      { handlers: sandboxHandlers([settingsView('files', { enabled: true })]) },
    );
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'sandbox.denials')).toBe(true));
    expect(screen.queryByRole('button')).toBeNull();
    act(() => transport.emit('sandbox.denied', denial('files')));
    expect(screen.getByRole('button', { name: 'Allow this folder' })).toBeTruthy();
  });
});
