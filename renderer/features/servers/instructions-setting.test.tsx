// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail, ok } from '../../../shared/result';
import { connectStore } from '../../store';
import { serverState, type FakeHandlers } from '../../test-support/fake-transport';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { foldedInstructions, ServerInstructionsSection } from './instructions-setting';
import { shownToasts } from '../../test-support/shown-toasts';

afterEach(cleanup);

function mount(instructions: string | undefined, handlers: FakeHandlers = {}) {
  const view = renderWithBerth(
    <ServerInstructionsSection
      server={serverState('everything', { status: 'ready', ...(instructions !== undefined ? { instructions } : {}) })}
    />,
    { handlers },
  );
  return { transport: view.transport, store: view.store, view };
}

const theSwitch = () => screen.getByRole('switch', { name: 'Send its instructions to the model' });

describe("the Overview's server instructions", () => {
  it('shows nothing for a server without instructions', () => {
    const { view } = mount(undefined);
    expect(view.container.textContent).toBe('');
    cleanup();
    expect(mount('   ').view.container.textContent).toBe('');
  });

  it('shows short instructions whole, with the switch on by default and what it means', () => {
    mount('Use echo to test.');
    expect(screen.getByRole('region', { name: 'Instructions from the server' })).toBeTruthy();
    expect(screen.getByTestId('instructions-text').textContent).toBe('Use echo to test.');
    expect(screen.queryByRole('button', { name: 'Show all of it' })).toBeNull();
    expect(theSwitch().getAttribute('aria-checked')).toBe('true');
    expect(document.getElementById(theSwitch().getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'In conversations that offer its tools, they go into the system prompt, marked as this server’s words.',
    );
  });

  it('folds long instructions, unfolds them from the keyboard-reachable button, and says when the model gets only the start', () => {
    const long = Array.from({ length: 1_000 }, (_, i) => `line ${i} ${'x'.repeat(8)}`).join('\n');
    mount(long);
    const text = screen.getByTestId('instructions-text');
    expect(text.textContent).toBe(foldedInstructions(long));
    expect(text.textContent?.endsWith('…')).toBe(true);
    const more = screen.getByRole('button', { name: 'Show all of it' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(more.getAttribute('aria-controls')).toBe(text.id);
    fireEvent.click(more);
    expect(text.textContent).toBe(long);
    expect(screen.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('instructions-cut').textContent).toBe(
      `They are ${long.length.toLocaleString()} characters long: the model gets the first 8,192 and a note that Berth cut the rest.`,
    );
  });

  it('asks the host to switch it off, follows other windows, and puts it back when the host refuses', async () => {
    const { transport, store } = mount('Use echo.', {
      'servers.instructionsSettings': () => ok([{ server: 'everything', sendInstructions: true }]),
      'servers.setSendInstructions': ({ server, sendInstructions }) => ok({ server, sendInstructions }),
    });
    const disconnect = connectStore(store, transport);
    fireEvent.click(theSwitch());
    await waitFor(() => expect(theSwitch().getAttribute('aria-checked')).toBe('false'));
    expect(transport.calls.filter((c) => c.method === 'servers.setSendInstructions').map((c) => c.input)).toEqual([
      { server: 'everything', sendInstructions: false },
    ]);
    expect(screen.getByText('Off: the model never sees them.')).toBeTruthy();
    act(() => transport.emit('servers.instructionsSettingChanged', { server: 'everything', sendInstructions: true }));
    expect(theSwitch().getAttribute('aria-checked')).toBe('true');

    transport.handlers['servers.setSendInstructions'] = () =>
      fail('IO_ERROR', 'Could not save settings.json: disk full');
    fireEvent.click(theSwitch());
    const refused = () =>
      shownToasts(store).filter(
        (toast) => toast.title === 'Could not change whether the model gets the instructions of “everything”',
      );
    await waitFor(() => expect(refused()).toHaveLength(1));
    expect(refused()[0]).toMatchObject({ tone: 'error', message: expect.stringContaining('disk full') });
    expect(theSwitch().getAttribute('aria-checked')).toBe('true');
    disconnect();
  });
});
