import { useEffect, useRef, useState, type RefObject } from 'react';

/** Where focus goes after a row was added or removed: a row's first input, or the add button when no row is left. */
type FocusTarget = { row: number } | { add: true };

export interface RowFocus {
  /** Ref callback for a row's first input. */
  inputRef(id: number): (element: HTMLInputElement | null) => void;
  addButton: RefObject<HTMLButtonElement | null>;
  /** Focus this row's first input once it is rendered (a new row is not in the DOM yet when it is added). */
  focusRow(id: number): void;
  /** A row was removed: focus the row before it (or after it, for the first), else the add button. */
  afterRemove(ids: readonly number[], removed: number): void;
}

/**
 * Keeps keyboard focus where the person works in a list of input rows. Without
 * it, Enter or "Add" creates a row while focus stays behind (typing then goes
 * into the old row), and removing a row drops focus to the page.
 */
export function useRowFocus(): RowFocus {
  const inputs = useRef(new Map<number, HTMLInputElement>());
  const addButton = useRef<HTMLButtonElement | null>(null);
  const [target, setTarget] = useState<FocusTarget>();
  useEffect(() => {
    if (target === undefined) return;
    const element = 'row' in target ? inputs.current.get(target.row) : addButton.current;
    element?.focus();
    setTarget(undefined);
  }, [target]);
  return {
    inputRef: (id) => (element) => {
      if (element) inputs.current.set(id, element);
      else inputs.current.delete(id);
    },
    addButton,
    focusRow: (id) => setTarget({ row: id }),
    afterRemove: (ids, removed) => {
      const index = ids.indexOf(removed);
      const neighbour = index > 0 ? ids[index - 1] : ids[index + 1];
      setTarget(neighbour !== undefined && neighbour !== removed ? { row: neighbour } : { add: true });
    },
  };
}
