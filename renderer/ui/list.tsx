import clsx from 'clsx';
import {
  Children,
  forwardRef,
  type ButtonHTMLAttributes,
  type HTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
} from 'react';

/**
 * How a list looks: `boxed` rows share one border and are divided by lines
 * (roots, tasks, providers); `cards` rows are cards apart from each other
 * (a server's tools, skills and apps); `choices` rows are buttons, one of them
 * the selected one (registry results, resources); `lines` rows are divided by
 * lines inside a section that is already the box (sampling policies); `plain`
 * only drops the bullets, for a list whose box is its own (the folder browser).
 */
export type ListLook = 'boxed' | 'cards' | 'choices' | 'lines' | 'plain';

export interface ListProps extends HTMLAttributes<HTMLUListElement> {
  look?: ListLook;
  /** Shown instead of the list when it has no rows: the list's empty state. */
  empty?: ReactNode;
  /** Arrow keys, Home and End move focus between the rows' enabled buttons. */
  arrowKeys?: boolean;
}

/** Moves focus to the enabled button `key` asks for; false when the key is not a movement. */
function moveFocus(list: HTMLUListElement, key: string): boolean {
  const buttons = [...list.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')];
  const from = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const to = { ArrowDown: from + 1, ArrowUp: from - 1, Home: 0, End: buttons.length - 1 }[key];
  if (to === undefined) return false;
  buttons[Math.max(0, Math.min(buttons.length - 1, to))]?.focus();
  return true;
}

/** A list of rows (`Row`, `ChoiceRow`); its accessible name comes from `aria-label` or `aria-labelledby`. */
export const List = forwardRef<HTMLUListElement, ListProps>(function List(
  { look = 'boxed', empty, arrowKeys = false, className, children, onKeyDown, ...rest },
  ref,
) {
  // toArray, not count: a row left out with `cond ? <Row/> : null` is no row.
  if (empty !== undefined && Children.toArray(children).length === 0) return <>{empty}</>;
  const keyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (arrowKeys && moveFocus(event.currentTarget, event.key)) event.preventDefault();
    else onKeyDown?.(event);
  };
  return (
    <ul ref={ref} className={clsx('list', `list-${look}`, className)} onKeyDown={keyDown} {...rest}>
      {children}
    </ul>
  );
});

export interface RowProps extends HTMLAttributes<HTMLLIElement> {
  /** Less padding, content centred: a row inside a smaller panel. */
  dense?: boolean;
}

/** One row of a `List`: an icon or control, then its main content, then its actions, side by side. */
export const Row = forwardRef<HTMLLIElement, RowProps>(function Row({ dense = false, className, ...rest }, ref) {
  return <li ref={ref} className={clsx('list-item', dense && 'list-item-dense', className)} {...rest} />;
});

export interface ChoiceRowProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** The row the person picked: marked for the eye and as `aria-current` for assistive technology. */
  selected?: boolean;
  /** Class of the row's `<li>` (the button takes `className`). */
  rowClassName?: string;
  /** What the row shows under its button, inside the row (a form the button opened). */
  after?: ReactNode;
}

/** A row that is one button in a `choices` list: clicking it picks or opens what it names. */
export function ChoiceRow({
  selected = false,
  rowClassName,
  after,
  className,
  type = 'button',
  ...rest
}: ChoiceRowProps) {
  return (
    <li className={rowClassName}>
      <button
        type={type}
        className={clsx('list-choice', selected && 'selected', className)}
        aria-current={selected ? 'true' : undefined}
        {...rest}
      />
      {after}
    </li>
  );
}
