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

// Focus on the Close button opens its tooltip, which measures itself.
beforeAll(stubResizeObserver);
afterEach(cleanup);

function Example({ focusSelf = false }: { focusSelf?: boolean }) {
  const [open, setOpen] = useState(true);
  return (
    <BerthI18nProvider>
      <Tooltip.Provider>
        <Dialog
          open={open}
          onOpenChange={setOpen}
          className="dialog-wide"
          aria-describedby="example-description"
          focusSelf={focusSelf}
        >
          <DialogHeader title="Example" />
          <DialogDescription id="example-description">What it is for.</DialogDescription>
          <DialogBody className="extra-body">
            <input aria-label="First field" />
          </DialogBody>
          <DialogFooter>
            <DialogClose>
              <Button>Done</Button>
            </DialogClose>
          </DialogFooter>
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

  it('focusSelf puts focus on the dialog itself instead of its first control', async () => {
    render(<Example focusSelf />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('dialog')));
    cleanup();
    render(<Example />);
    await waitFor(() => expect(document.activeElement).not.toBe(screen.getByRole('dialog')));
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
