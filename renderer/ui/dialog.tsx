import clsx from 'clsx';
import { Dialog as RadixDialog } from 'radix-ui';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { IconButton } from './controls';
import { useT } from '../i18n/use-t';
import { CloseIcon } from './icons';

type ContentProps = ComponentPropsWithoutRef<typeof RadixDialog.Content>;

export interface DialogProps extends Omit<ContentProps, 'className' | 'children'> {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Size and feature classes added to `dialog` (dialog-wide, dialog-narrow…). */
  className?: string;
  /**
   * Focus the dialog itself when it opens, not its first control: on the
   * close button its tooltip would open and take the first Escape, and on an
   * answer button Enter would answer for the person.
   */
  focusSelf?: boolean;
  children: ReactNode;
}

/** Focuses the dialog's own element instead of letting Radix pick its first control. */
function focusContent(event: Event): void {
  event.preventDefault();
  (event.currentTarget as HTMLElement | null)?.focus();
}

/** A modal dialog: overlay, content and focus trap; its parts (header, description, body, footer) go inside. */
export function Dialog({
  open,
  onOpenChange,
  className,
  focusSelf = false,
  children,
  onOpenAutoFocus,
  ...content
}: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={clsx('dialog', className)}
          onOpenAutoFocus={focusSelf ? focusContent : onOpenAutoFocus}
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
  return <RadixDialog.Close asChild>{children}</RadixDialog.Close>;
}

export function DialogBody({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={clsx('dialog-body', className)}>{children}</div>;
}

export function DialogFooter({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={clsx('dialog-footer', className)}>{children}</div>;
}
