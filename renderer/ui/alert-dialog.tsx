import clsx from 'clsx';
import { AlertDialog as RadixAlertDialog } from 'radix-ui';
import type { ComponentPropsWithoutRef, ReactElement, ReactNode } from 'react';
import { CLOSE_CHOICE, useDialogFocus } from './dialog-focus';

type ContentProps = ComponentPropsWithoutRef<typeof RadixAlertDialog.Content>;

export interface AlertDialogProps extends Omit<ContentProps, 'className' | 'children'> {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The button that opens it, when the dialog owns its own open state. */
  trigger?: ReactElement;
  /** Size and feature classes added to `dialog`. */
  className?: string;
  children: ReactNode;
}

/**
 * A question that must be answered before going on (remove, revoke, open):
 * no close button and no click outside, only its own Cancel and action.
 * Kept apart from dialog.tsx so a chunk that asks nothing does not carry it.
 */
export function AlertDialog({ open, onOpenChange, trigger, className, children, ...content }: AlertDialogProps) {
  // Radix starts on Cancel already; the shared hook gives the focus back where no trigger is.
  const focus = useDialogFocus(open);
  return (
    <RadixAlertDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <RadixAlertDialog.Trigger asChild>{trigger}</RadixAlertDialog.Trigger> : null}
      <RadixAlertDialog.Portal>
        <RadixAlertDialog.Overlay className="dialog-overlay" />
        <RadixAlertDialog.Content
          className={clsx('dialog', className)}
          onCloseAutoFocus={focus.onCloseAutoFocus}
          {...content}
        >
          {children}
        </RadixAlertDialog.Content>
      </RadixAlertDialog.Portal>
    </RadixAlertDialog.Root>
  );
}

export function AlertDialogTitle({ children }: { children: ReactNode }) {
  return <RadixAlertDialog.Title className="dialog-title">{children}</RadixAlertDialog.Title>;
}

export function AlertDialogDescription({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <RadixAlertDialog.Description id={id} className="dialog-description">
      {children}
    </RadixAlertDialog.Description>
  );
}

/** Makes its one child (a button) dismiss the question. */
export function AlertDialogCancel({ children }: { children: ReactNode }) {
  return (
    <RadixAlertDialog.Cancel asChild {...CLOSE_CHOICE}>
      {children}
    </RadixAlertDialog.Cancel>
  );
}

/** Makes its one child answer and close at once; use a plain button when a failure must stay visible. */
export function AlertDialogAction({ children }: { children: ReactNode }) {
  return <RadixAlertDialog.Action asChild>{children}</RadixAlertDialog.Action>;
}
