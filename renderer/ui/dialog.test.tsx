// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Tooltip } from 'radix-ui';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BerthI18nProvider } from '../i18n/provider';
import { stubResizeObserver } from '../test-support/dom-stubs';
import { AlertDialog, AlertDialogCancel, AlertDialogDescription, AlertDialogTitle } from './alert-dialog';
import { Button } from './controls';
import { Dialog, DialogBody, DialogClose, DialogDescription, DialogFooter, DialogHeader } from './dialog';
import { SAFE_CHOICE } from './dialog-focus';

// Focus on the Close button opens its tooltip, which measures itself.
beforeAll(stubResizeObserver);
afterEach(cleanup);

function Example({ footer = true }: { footer?: boolean }) {
  const [open, setOpen] = useState(true);
  return (
    <BerthI18nProvider>
      <Tooltip.Provider>
        <Dialog open={open} onOpenChange={setOpen} className="dialog-wide" aria-describedby="example-description">
          <DialogHeader title="Example" />
          <DialogDescription id="example-description">What it is for.</DialogDescription>
          <DialogBody className="extra-body">
            <input aria-label="First field" />
          </DialogBody>
          {footer ? (
            <DialogFooter>
              <DialogClose>
                <Button>Done</Button>
              </DialogClose>
            </DialogFooter>
          ) : null}
        </Dialog>
      </Tooltip.Provider>
    </BerthI18nProvider>
  );
}

describe('Dialog', () => {
  it('is a named, described modal with the classes the stylesheet targets', () => {
    render(<Example />);
    const dialog = screen.getByRole('dialog', { name: 'Example' });
    expect(dialog.className).toBe('dialog dialog-wide');
    expect(dialog.getAttribute('aria-describedby')?.split(' ')).toContain('example-description');
    expect(screen.getByText('What it is for.').className).toBe('dialog-description');
    expect(document.querySelector('.dialog-overlay')).not.toBeNull();
    expect(screen.getByRole('heading', { name: 'Example' }).className).toBe('dialog-title');
    expect(dialog.querySelector('.dialog-body.extra-body')).not.toBeNull();
    expect(dialog.querySelector('.dialog-footer')).not.toBeNull();
  });

  it('the header’s Close button and a DialogClose child both close it', async () => {
    render(<Example />);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    cleanup();
    render(<Example />);
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens on its footer’s Close, not on the dialog itself, its first field or the header’s Close', async () => {
    render(<Example />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Done' })));
  });

  it('with only the header’s Close, opens on it with its tooltip shut, so the first Escape closes the dialog', async () => {
    render(<Example footer={false} />);
    const close = screen.getByRole('button', { name: 'Close' });
    await waitFor(() => expect(document.activeElement).toBe(close));
    // The tooltip would open after its delay and take the Escape.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.keyDown(close, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

function Opener({
  safe,
  autoFocusField = false,
  dropOpener = false,
}: {
  safe?: boolean;
  autoFocusField?: boolean;
  dropOpener?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [answered, setAnswered] = useState('');
  return (
    <BerthI18nProvider>
      <Tooltip.Provider>
        <button type="button" id="elsewhere">
          Elsewhere
        </button>
        {dropOpener && open ? null : (
          <button type="button" onClick={() => setOpen(true)}>
            Open
          </button>
        )}
        <output>{answered}</output>
        <Dialog
          open={open}
          onOpenChange={setOpen}
          aria-describedby={undefined}
          returnFocus={() => document.getElementById('elsewhere')}
        >
          <DialogHeader title="Question" />
          <DialogBody>
            <input aria-label="Reason" autoFocus={autoFocusField} />
          </DialogBody>
          <DialogFooter>
            <Button
              variant="danger"
              {...(safe ? SAFE_CHOICE : {})}
              onClick={() => {
                setAnswered('denied');
                setOpen(false);
              }}
            >
              Deny
            </Button>
            <DialogClose>
              <Button>Cancel</Button>
            </DialogClose>
          </DialogFooter>
        </Dialog>
      </Tooltip.Provider>
    </BerthI18nProvider>
  );
}

describe('Dialog focus', () => {
  it('starts on the button marked as the safe choice, before its Cancel', async () => {
    render(<Opener safe />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Deny' })));
  });

  it('leaves the focus in a field that took it (autoFocus): a form to fill starts in it', async () => {
    render(<Opener autoFocusField />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Reason' })));
  });

  it('gives the focus back to the button that opened it, on Escape and on an answer', async () => {
    render(<Opener safe />);
    const open = screen.getByRole('button', { name: 'Open' });
    open.focus();
    fireEvent.click(open);
    const deny = await screen.findByRole('button', { name: 'Deny' });
    await waitFor(() => expect(document.activeElement).toBe(deny));
    fireEvent.keyDown(deny, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(open);

    fireEvent.click(open);
    fireEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('denied')).toBeTruthy();
    expect(document.activeElement).toBe(open);
  });

  it('gives the focus to its fallback when the opener is gone, never to the page’s body', async () => {
    render(<Opener dropOpener />);
    const open = screen.getByRole('button', { name: 'Open' });
    open.focus();
    fireEvent.click(open);
    const cancel = await screen.findByRole('button', { name: 'Cancel' });
    await waitFor(() => expect(document.activeElement).toBe(cancel));
    fireEvent.keyDown(cancel, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Elsewhere' }));
  });
});

describe('AlertDialog', () => {
  it('opens from its trigger as an alertdialog and Cancel dismisses it', async () => {
    render(
      <AlertDialog className="dialog-narrow" trigger={<Button>Remove</Button>}>
        <AlertDialogTitle>Remove it?</AlertDialogTitle>
        <AlertDialogDescription>It goes for good.</AlertDialogDescription>
        <AlertDialogCancel>
          <Button>Cancel</Button>
        </AlertDialogCancel>
      </AlertDialog>,
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    const question = await screen.findByRole('alertdialog', { name: 'Remove it?' });
    expect(question.className).toBe('dialog dialog-narrow');
    expect(screen.getByText('It goes for good.').className).toBe('dialog-description');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });
});

describe('AlertDialog focus', () => {
  function Question() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <Button onClick={() => setOpen(true)}>Remove</Button>
        <AlertDialog open={open} onOpenChange={setOpen}>
          <AlertDialogTitle>Remove it?</AlertDialogTitle>
          <AlertDialogDescription>It goes for good.</AlertDialogDescription>
          <Button variant="danger">Remove for good</Button>
          <AlertDialogCancel>
            <Button>Keep it</Button>
          </AlertDialogCancel>
        </AlertDialog>
      </>
    );
  }

  it('opened by the store (no trigger), starts on Cancel and gives the focus back on Escape', async () => {
    render(<Question />);
    const remove = screen.getByRole('button', { name: 'Remove' });
    remove.focus();
    fireEvent.click(remove);
    const keep = await screen.findByRole('button', { name: 'Keep it' });
    await waitFor(() => expect(document.activeElement).toBe(keep));
    fireEvent.keyDown(keep, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(document.activeElement).toBe(remove);
  });
});
