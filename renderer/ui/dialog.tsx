import clsx from 'clsx';
import { Dialog as RadixDialog } from 'radix-ui';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { IconButton } from './controls';
import { useT } from '../i18n/use-t';
import { CloseIcon } from './icons';
import { CLOSE_CHOICE, useDialogFocus } from './dialog-focus';

type ContentProps = ComponentPropsWithoutRef<typeof RadixDialog.Content>;

export interface DialogProps extends Omit<ContentProps, 'className' | 'children'> {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Size and feature classes added to `dialog` (dialog-wide, dialog-narrow…). */
  className?: string;
  /** Where the focus goes on closing when the element that had it at opening is gone or was none. */
  returnFocus?: () => Element | null | undefined;
  children: ReactNode;
}

/**
 * A modal dialog: overlay, content and focus trap; its parts (header, description, body, footer) go inside.
 * It opens on its safest button (one marked SAFE_CHOICE, else its Cancel or Close: dialog-focus.ts),
 * unless a field of its own took the focus first (autoFocus), and gives the focus back on closing.
 */
export function Dialog({
  open,
  onOpenChange,
  className,
  returnFocus,
  children,
  onOpenAutoFocus,
  ...content
}: DialogProps) {
  const focus = useDialogFocus(open, returnFocus);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={clsx('dialog', className)}
          onOpenAutoFocus={onOpenAutoFocus ?? focus.onOpenAutoFocus}
          onCloseAutoFocus={focus.onCloseAutoFocus}
          {...content}
        >
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** A dialog's title row: the title, and a Close button (Escape does the same). */
export function DialogHeader({ title }: { title: ReactNode }) {
  const t = useT();
  return (
    <header className="dialog-header">
      <DialogTitle>{title}</DialogTitle>
      <DialogClose>
        <IconButton label={t('ui.dialog.close')} icon={<CloseIcon />} />
      </DialogClose>
    </header>
  );
}

/** The dialog's accessible name, for dialogs whose title row holds more than a title. */
export function DialogTitle({ children }: { children: ReactNode }) {
  return <RadixDialog.Title className="dialog-title">{children}</RadixDialog.Title>;
}

/** What the dialog is about; its id is what the dialog's `aria-describedby` names. */
export function DialogDescription({
  id,
  className = 'dialog-description',
  children,
}: {
  id?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Description id={id} className={className}>
      {children}
    </RadixDialog.Description>
  );
}

/** Makes its one child (a button) close the dialog. */
export function DialogClose({ children }: { children: ReactNode }) {
  return (
    <RadixDialog.Close asChild {...CLOSE_CHOICE}>
      {children}
    </RadixDialog.Close>
  );
}

export function DialogBody({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={clsx('dialog-body', className)}>{children}</div>;
}

export function DialogFooter({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={clsx('dialog-footer', className)}>{children}</div>;
}
