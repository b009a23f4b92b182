// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stubResizeObserver } from '../test-support/dom-stubs';
import { LazyPopover } from './lazy-popover';

// The popper measures the content it places.
beforeAll(stubResizeObserver);
afterEach(cleanup);

/** Radix listens for a press outside from the task after the content mounts. */
const listening = () => new Promise((resolve) => setTimeout(resolve, 0));

function Example() {
  return (
    <>
      <LazyPopover
        className="popover"
        trigger={(props) => (
          <button type="button" {...props}>
            Tools
          </button>
        )}
      >
        <label>
          Search
          <input />
        </label>
      </LazyPopover>
      <button type="button">Elsewhere</button>
    </>
  );
}

describe('LazyPopover', () => {
  it('opens from its button as Popover.Trigger would, and Escape puts focus back on the button', async () => {
    render(<Example />);
    const trigger = screen.getByRole('button', { name: 'Tools' });
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(trigger.getAttribute('aria-haspopup')).toBe('dialog');
    trigger.focus();
    fireEvent.click(trigger);
    const search = await screen.findByRole('textbox', { name: 'Search' });
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(trigger.getAttribute('aria-controls') ?? '')?.contains(search)).toBe(true);
    await waitFor(() => expect(document.activeElement).toBe(search));
    fireEvent.keyDown(search, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Search' })).toBeNull());
    // The same button (never remounted when the popover loaded) has the focus again.
    expect(screen.getByRole('button', { name: 'Tools' })).toBe(trigger);
    expect(document.activeElement).toBe(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
  });

  it('a press on its button closes it (not closed as "outside" then opened again)', async () => {
    render(<Example />);
    const trigger = screen.getByRole('button', { name: 'Tools' });
    fireEvent.click(trigger);
    await screen.findByRole('textbox', { name: 'Search' });
    await listening();
    fireEvent.pointerDown(trigger);
    fireEvent.click(trigger);
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Search' })).toBeNull());
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
  });

  it('a click elsewhere closes it without pulling the focus back to its button', async () => {
    render(<Example />);
    const trigger = screen.getByRole('button', { name: 'Tools' });
    fireEvent.click(trigger);
    await screen.findByRole('textbox', { name: 'Search' });
    await listening();
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    fireEvent.pointerDown(elsewhere);
    elsewhere.focus();
    fireEvent.pointerUp(elsewhere);
    fireEvent.click(elsewhere);
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Search' })).toBeNull());
    expect(document.activeElement).toBe(elsewhere);
  });
});
