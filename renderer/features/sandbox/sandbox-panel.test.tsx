// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '../../../shared/domain';
import { CLOSED_IN_HOME_WORDS } from '../../../shared/domain/sandbox';
import { fail, ok } from '../../../shared/result';
import { serverState } from '../../test-support/fake-transport';
import { HOME, MISSING, policyView, sandboxHandlers, settingsView } from '../../test-support/sandbox-host';
import { SandboxFact } from './sandbox-fact';
import { SandboxPanel } from './sandbox-panel';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';

afterEach(cleanup);

const running = serverState('files', { status: 'ready' });
const theSwitch = () => screen.getByRole('switch', { name: 'Run in the OS sandbox' });

describe("a server's Sandbox tab", () => {
  it('shows a sandboxed server’s policy in plain words: where it may write, what it may not read, its network', async () => {
    renderWithBerth(<SandboxPanel server={running} />, {
      handlers: sandboxHandlers([
        settingsView('files', {
          enabled: true,
          allowedFolders: [`${HOME}/Documents/reports`],
          allowedDomains: ['api.github.com'],
        }),
      ]),
    });
    await waitFor(() =>
      expect(screen.getByTestId('sandbox-policy-write').textContent).toContain('~/Documents/reports'),
    );
    expect(screen.getByTestId('sandbox-state').textContent).toContain('Sandboxed');
    expect(theSwitch().getAttribute('aria-checked')).toBe('true');
    expect([...screen.getByTestId('sandbox-policy-write').querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '~/Projects/site',
      '~/Documents/reports',
      'its own folders (data, temporary files, cache)',
    ]);
    expect(screen.getByTestId('sandbox-policy-read').textContent).toBe(
      "the system and its own program, but not: SSH and GPG keys, cloud and package-manager credentials, browser profiles, Berth's settings and secrets",
    );
    expect(screen.getByTestId('sandbox-policy-network').textContent).toBe('api.github.com');
    // Nothing changed yet: nothing to save.
    expect(screen.queryByRole('button', { name: 'Save and restart' })).toBeNull();
  });

  it('says what stays closed when home itself is one of its roots', async () => {
    const handlers = sandboxHandlers([settingsView('files', { enabled: true })]);
    renderWithBerth(<SandboxPanel server={running} />, {
      handlers: {
        ...handlers,
        'sandbox.policy': ({ server }) =>
          ok({
            ...policyView(settingsView(server, { enabled: true }), HOME),
            words: {
              ...policyView(settingsView(server, { enabled: true }), HOME).words,
              closedInside: CLOSED_IN_HOME_WORDS,
            },
          }),
      },
    });
    await waitFor(() =>
      expect(screen.getByTestId('sandbox-policy-closed-inside').textContent).toBe(CLOSED_IN_HOME_WORDS),
    );
    expect([...screen.getByTestId('sandbox-policy-write').querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      HOME,
      'its own folders (data, temporary files, cache)',
      CLOSED_IN_HOME_WORDS,
    ]);
  });

  it('turns the sandbox on for a running server only after saying that saving restarts it', async () => {
    const handlers = sandboxHandlers([settingsView('files')]);
    const { transport } = renderWithBerth(<SandboxPanel server={running} />, { handlers });
    await waitFor(() =>
      expect(theSwitch().getAttribute('aria-disabled') ?? theSwitch().hasAttribute('disabled')).toBeFalsy(),
    );
    expect(screen.getByTestId('sandbox-state').textContent).toContain('Not sandboxed');
    fireEvent.click(theSwitch());
    expect(screen.getByRole('note').textContent).toBe(
      'Saving restarts “files”: a sandbox applies from a process’s start.',
    );
    expect(screen.getByTestId('sandbox-policy-network').textContent).toBe('None');
    fireEvent.click(screen.getByRole('button', { name: 'Add domain' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Domain 1' }), { target: { value: 'API.example.com' } });
    expect(screen.getByTestId('sandbox-policy-network').textContent).toBe('api.example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Save and restart' }));
    await waitFor(() => expect(screen.getByTestId('sandbox-state').textContent).toContain('Sandboxed'));
    expect(transport.calls.filter((c) => c.method === 'sandbox.setServerSettings').map((c) => c.input)).toEqual([
      { server: 'files', enabled: true, allowedFolders: [], allowedDomains: ['api.example.com'], offered: true },
    ]);
    expect(screen.queryByRole('button', { name: 'Save and restart' })).toBeNull();
  });

  it('keeps a wrong folder or domain from being sent, saying what is wrong at its row', async () => {
    const { transport } = renderWithBerth(<SandboxPanel server={serverState('files')} />, {
      handlers: sandboxHandlers([settingsView('files', { enabled: true })]),
    });
    await waitFor(() => expect(theSwitch().getAttribute('aria-checked')).toBe('true'));
    fireEvent.click(screen.getByRole('button', { name: 'Add folder' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Folder 1' }), { target: { value: 'Documents' } });
    // A stopped server: saving only stores it.
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Folder 1: Enter an absolute folder path (starting with /)',
    );
    expect(screen.getByRole('textbox', { name: 'Folder 1' }).getAttribute('aria-invalid')).toBe('true');
    expect(transport.calls.some((c) => c.method === 'sandbox.setServerSettings')).toBe(false);
  });

  it('keeps the keyboard focus in the list when rows are added (Enter) and removed', async () => {
    renderWithBerth(<SandboxPanel server={serverState('files')} />, {
      handlers: sandboxHandlers([settingsView('files', { enabled: true, allowedDomains: ['a.example.com'] })]),
    });
    const first = await screen.findByRole('textbox', { name: 'Domain 1' });
    fireEvent.keyDown(first, { key: 'Enter' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Domain 2' })));
    fireEvent.click(screen.getByRole('button', { name: 'Remove domain 2' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Domain 1' })));
    fireEvent.click(screen.getByRole('button', { name: 'Remove domain 1' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add domain' })));
  });

  it('shows the host’s refusal and keeps the change to fix', async () => {
    const handlers = sandboxHandlers([settingsView('files')]);
    handlers['sandbox.setServerSettings'] = () => fail('IO_ERROR', 'Could not save sandbox.json: disk full');
    renderWithBerth(<SandboxPanel server={running} />, { handlers });
    await waitFor(() => expect(theSwitch().hasAttribute('disabled')).toBe(false));
    fireEvent.click(theSwitch());
    fireEvent.click(screen.getByRole('button', { name: 'Save and restart' }));
    expect((await screen.findByRole('alert')).textContent).toContain('disk full');
    expect(theSwitch().getAttribute('aria-checked')).toBe('true');
  });

  it('where the platform cannot sandbox: the switch is disabled, with the reason and what to install — never silently off', async () => {
    renderWithBerth(<SandboxPanel server={running} />, { handlers: sandboxHandlers([settingsView('files')], MISSING) });
    await waitFor(() =>
      expect(screen.getByTestId('sandbox-unavailable').textContent).toBe(
        'The sandbox is unavailable here: bubblewrap (bwrap) is not installed. Install it with: sudo apt-get install bubblewrap socat ripgrep',
      ),
    );
    expect(theSwitch().hasAttribute('disabled')).toBe(true);
  });

  it('a server set to run sandboxed on a machine without it says it will not start, and can still be turned off', async () => {
    renderWithBerth(<SandboxPanel server={running} />, {
      handlers: sandboxHandlers([settingsView('files', { enabled: true })], MISSING),
    });
    await waitFor(() =>
      expect(screen.getByTestId('sandbox-unavailable').textContent).toContain('so it does not start until then'),
    );
    expect(theSwitch().hasAttribute('disabled')).toBe(false);
  });

  it('follows a change made elsewhere (another window, an allowed denial)', async () => {
    const { transport } = renderWithBerth(<SandboxPanel server={running} />, {
      handlers: sandboxHandlers([settingsView('files')]),
    });
    await waitFor(() => expect(screen.getByTestId('sandbox-state').textContent).toContain('Not sandboxed'));
    act(() => transport.emit('sandbox.serverSettingsChanged', settingsView('files', { enabled: true, offered: true })));
    expect(screen.getByTestId('sandbox-state').textContent).toContain('Sandboxed');
  });

  it('says an HTTP server has no local process to sandbox', () => {
    renderWithBerth(
      <SandboxPanel
        server={serverState('web', { config: ServerConfigSchema.parse({ url: 'https://mcp.example/mcp' }) })}
      />,
      { handlers: sandboxHandlers([]) },
    );
    expect(screen.getByTestId('sandbox-not-applicable').textContent).toContain('no local process to sandbox');
    expect(within(document.body).queryByRole('switch')).toBeNull();
  });
});

describe("the Overview's sandbox line", () => {
  it('says whether it is sandboxed and its network, and leads to the Sandbox tab', async () => {
    const shown: string[] = [];
    renderWithBerth(
      <dl>
        <SandboxFact server={running} onShowSandbox={() => shown.push('sandbox')} />
      </dl>,
      { handlers: sandboxHandlers([settingsView('files', { enabled: true, allowedDomains: ['api.github.com'] })]) },
    );
    await waitFor(() => expect(screen.getByTestId('sandbox-fact').textContent).toContain('Sandboxed'));
    expect(screen.getByTestId('sandbox-fact').textContent).toContain('network only to api.github.com');
    fireEvent.click(screen.getByRole('button', { name: 'Sandbox settings' }));
    expect(shown).toEqual(['sandbox']);
  });
});

describe('the Sandbox tab in the person’s language', () => {
  it('words the tab, its lists and the restart note in Korean, and the server’s name stays as it is', async () => {
    await activateLocale('ko');
    renderWithBerth(<SandboxPanel server={running} />, { handlers: sandboxHandlers([settingsView('files')]) });
    const koSwitch = () => screen.getByRole('switch', { name: 'OS 샌드박스에서 실행' });
    await waitFor(() =>
      expect(koSwitch().getAttribute('aria-disabled') ?? koSwitch().hasAttribute('disabled')).toBeFalsy(),
    );
    expect(screen.getByTestId('sandbox-state').textContent).toContain('샌드박스 미적용');
    fireEvent.click(koSwitch());
    expect(screen.getByRole('note').textContent).toBe(
      '저장하면 “files”이(가) 다시 시작됩니다. 샌드박스는 프로세스가 시작될 때부터 적용됩니다.',
    );
    fireEvent.click(screen.getByRole('button', { name: '도메인 추가' }));
    expect(screen.getByRole('textbox', { name: '도메인 1' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '저장 후 다시 시작' })).toBeTruthy();
  });

  it('words the Overview line in Simplified Chinese, the domains as the host gave them', async () => {
    await activateLocale('zh-CN');
    renderWithBerth(
      <dl>
        <SandboxFact server={running} onShowSandbox={() => undefined} />
      </dl>,
      { handlers: sandboxHandlers([settingsView('files', { enabled: true, allowedDomains: ['api.github.com'] })]) },
    );
    await waitFor(() => expect(screen.getByTestId('sandbox-fact').textContent).toContain('已沙箱隔离'));
    expect(screen.getByTestId('sandbox-fact').textContent).toContain('仅可访问 api.github.com');
    expect(screen.getByRole('button', { name: '沙箱设置' })).toBeTruthy();
  });
});
