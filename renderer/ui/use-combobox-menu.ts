import { useEffect, useId, useState, type KeyboardEvent } from 'react';

/** The next highlighted option, wrapping at both ends; -1 when there is none. */
export function moveHighlight(current: number, delta: number, count: number): number {
  if (count === 0) return -1;
  if (current < 0) return delta > 0 ? 0 : count - 1;
  return (current + delta + count) % count;
}

/** The id of the option at `index`, for aria-activedescendant (here, not in a lazy menu: the text box needs it first). */
export function comboboxOptionId(listboxId: string, index: number): string {
  return `${listboxId}-option-${index}`;
}

export interface ComboboxMenu {
  /** Whether the menu shows: it was asked for and not closed with Escape since the text last changed. */
  open: boolean;
  listboxId: string;
  highlighted: number;
  setHighlighted: (index: number) => void;
  /** Give each keydown of the text box here first; true when the menu used it. */
  handleKeyDown<T>(event: KeyboardEvent<HTMLElement>, matches: readonly T[], choose: (match: T) => void): boolean;
  /** ARIA for the text box while the menu is open (it becomes the menu's combobox). */
  inputProps(matches: readonly unknown[]): Record<string, string | boolean | undefined>;
}

/**
 * The keyboard and ARIA of a menu that opens from what is typed in a text box
 * (the composer's `/` and `@`): focus stays in the box, arrows move the
 * highlight, Enter or Tab choose, Escape closes the menu until the text
 * changes. A new `query` starts at the best match.
 */
export function useComboboxMenu({
  wanted,
  text,
  query,
}: {
  wanted: boolean;
  text: string;
  query: string | undefined;
}): ComboboxMenu {
  const listboxId = useId();
  const [highlighted, setHighlighted] = useState(0);
  /** The text at the moment Escape closed the menu: it stays closed until the text changes. */
  const [dismissedAt, setDismissedAt] = useState<string>();
  const open = wanted && dismissedAt !== text;

  useEffect(() => setHighlighted(0), [query]);
  useEffect(() => {
    if (dismissedAt !== undefined && dismissedAt !== text) setDismissedAt(undefined);
  }, [dismissedAt, text]);

  return {
    open,
    listboxId,
    highlighted,
    setHighlighted,
    handleKeyDown(event, matches, choose) {
      if (!open || event.nativeEvent.isComposing) return false;
      switch (event.key) {
        case 'ArrowDown':
        case 'ArrowUp':
          event.preventDefault();
          setHighlighted((current) => moveHighlight(current, event.key === 'ArrowDown' ? 1 : -1, matches.length));
          return true;
        case 'Enter':
        case 'Tab': {
          if (event.shiftKey) return false;
          const match = matches[highlighted];
          // Nothing to choose: Enter sends the text as typed, Tab moves focus as usual.
          if (match === undefined) return false;
          event.preventDefault();
          choose(match);
          return true;
        }
        case 'Escape':
          event.preventDefault();
          setDismissedAt(text);
          return true;
        default:
          return false;
      }
    },
    inputProps(matches) {
      if (!open) return {};
      return {
        role: 'combobox',
        'aria-expanded': true,
        'aria-autocomplete': 'list',
        'aria-controls': listboxId,
        'aria-activedescendant':
          matches[highlighted] !== undefined ? comboboxOptionId(listboxId, highlighted) : undefined,
      };
    },
  };
}
