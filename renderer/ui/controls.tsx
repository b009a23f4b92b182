import clsx from 'clsx';
import { Tooltip } from 'radix-ui';
import {
  forwardRef,
  useId,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type ReactElement,
  type ReactNode,
} from 'react';
import { QUIET_FOCUS } from './quiet-focus';
import { WarningIcon } from './icons';

type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  icon?: ReactNode;
}

/** The one button style of the app; `type="button"` unless said otherwise so forms never submit by accident. */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'secondary', size = 'md', icon, className, children, type = 'button', ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={clsx('btn', `btn-${variant}`, size === 'sm' && 'btn-sm', className)}
      {...rest}
    >
      {icon}
      {children !== undefined && children !== null ? <span>{children}</span> : null}
    </button>
  );
});

/** An icon-only button: the label is both its accessible name and its tooltip. */
export const IconButton = forwardRef<HTMLButtonElement, Omit<ButtonProps, 'children'> & { label: string }>(
  function IconButton({ label, className, variant = 'ghost', ...rest }, ref) {
    return (
      <WithTooltip content={label}>
        <Button ref={ref} aria-label={label} variant={variant} className={clsx('btn-icon', className)} {...rest} />
      </WithTooltip>
    );
  },
);

export function WithTooltip({ content, children }: { content: ReactNode; children: ReactElement }) {
  const trigger = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  // Shut while a dialog's own opening focus rests on the trigger (dialog-focus.ts): Escape is the dialog's.
  const onOpenChange = (next: boolean) => setOpen(next && trigger.current?.hasAttribute(QUIET_FOCUS) !== true);
  return (
    <Tooltip.Root delayDuration={400} open={open} onOpenChange={onOpenChange}>
      <Tooltip.Trigger asChild ref={trigger}>
        {children}
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content className="tooltip" sideOffset={6} collisionPadding={8}>
          {content}
          <Tooltip.Arrow className="tooltip-arrow" />
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}

export interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** Render prop so the control gets the ids that tie label, hint and error to it. */
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
  className?: string;
}

/** Label above, control, then the hint or the error; errors are announced and tied to the control. */
export function Field({ label, hint, error, children, className }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={clsx('field', error && 'field-invalid', className)}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {error ? (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function Chip({
  children,
  tone,
  title,
}: {
  children: ReactNode;
  tone?: 'neutral' | 'accent' | 'warning' | 'danger' | 'success';
  title?: string;
}) {
  return (
    <span className={clsx('chip', tone && `chip-${tone}`)} title={title}>
      {children}
    </span>
  );
}

/** A friendly block for "nothing here yet": what this place is for and what to do. */
export function EmptyState({
  icon,
  title,
  children,
  actions,
}: {
  icon?: ReactNode;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="empty-state">
      {icon ? <div className="empty-icon">{icon}</div> : null}
      <h2>{title}</h2>
      <div className="empty-body">{children}</div>
      {actions ? <div className="empty-actions">{actions}</div> : null}
    </div>
  );
}

/** A problem shown where it happened (announced to screen readers), with an optional action such as "Try again". */
export function InlineAlert({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="inline-alert" role="alert">
      <WarningIcon />
      <span>{children}</span>
      {action}
    </div>
  );
}
