// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '../../../shared/domain';
import { serverState } from '../../test-support/fake-transport';
import { MISSING, sandboxHandlers, settingsView } from '../../test-support/sandbox-host';
import { SandboxOffer, shouldOffer } from './sandbox-offer';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { shownToasts } from '../../test-support/shown-toasts';

afterEach(cleanup);

const local = serverState('files', { status: 'ready' });

describe('the one-time sandbox offer for an existing server', () => {
  it('asks an unsandboxed local server once; "Not now" is remembered by the host and the offer goes', async () => {
    const handlers = sandboxHandlers([settingsView('files')]);
    const { transport, unmount } = renderWithBerth(<SandboxOffer server={local} />, { handlers });
    const offer = await screen.findByRole('complementary', { name: 'Sandbox offer' });
    expect(offer.textContent).toContain('Run “files” in the OS sandbox?');
    expect(offer.textContent).toContain('It restarts now.');
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Sandbox offer' })).toBeNull());
    expect(transport.calls.filter((c) => c.method === 'sandbox.setServerSettings').map((c) => c.input)).toEqual([
      { server: 'files', offered: true },
    ]);
    // Remembered where it matters: a new window (a fresh model) asks the host, which says it was offered.
    unmount();
    renderWithBerth(<SandboxOffer server={local} />, { handlers });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('complementary', { name: 'Sandbox offer' })).toBeNull();
  });

  it('"Turn on the sandbox" turns it on and marks it offered in one change', async () => {
    const { transport, store } = renderWithBerth(<SandboxOffer server={local} />, {
      handlers: sandboxHandlers([settingsView('files')]),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on the sandbox' }));
    await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Sandbox offer' })).toBeNull());
    expect(transport.calls.filter((c) => c.method === 'sandbox.setServerSettings').map((c) => c.input)).toEqual([
      { server: 'files', enabled: true, offered: true },
    ]);
    expect(shownToasts(store)[0]).toMatchObject({ tone: 'success', title: '“files” runs in the sandbox' });
  });

  it.each([
    ['already offered', settingsView('files', { offered: true }), true, local],
    ['already sandboxed', settingsView('files', { enabled: true }), true, local],
    ['on a machine without the sandbox', settingsView('files'), false, local],
    [
      'an HTTP server',
      settingsView('web', { applies: false }),
      true,
      serverState('web', { config: ServerConfigSchema.parse({ url: 'https://mcp.example/mcp' }) }),
    ],
  ])('is not shown for a server %s', (_label, settings, available, server) => {
    expect(shouldOffer(server, settings, available)).toBe(false);
  });

  it('is not shown where the sandbox is unavailable (rendered)', async () => {
    renderWithBerth(<SandboxOffer server={local} />, { handlers: sandboxHandlers([settingsView('files')], MISSING) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('complementary', { name: 'Sandbox offer' })).toBeNull();
  });
});
