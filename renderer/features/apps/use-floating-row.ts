import { useLayoutEffect, type RefObject } from 'react';

/**
 * While an app is full screen or picture-in-picture its frame is `position:
 * fixed`; the virtualized list places rows with a transform, which would trap
 * a fixed child inside the row. So the row holding the frame is placed with
 * `top` instead for that time (same place on screen), and put back after.
 */
export function useFloatingRow(element: RefObject<HTMLElement | null>, floating: boolean): void {
  useLayoutEffect(() => {
    const row = floating ? element.current?.closest<HTMLElement>('[data-index]') : null;
    if (!row) return;
    const transform = row.style.transform;
    const offset = /translateY\((-?[\d.]+)px\)/.exec(transform)?.[1];
    row.style.transform = 'none';
    if (offset !== undefined) row.style.top = `${offset}px`;
    return () => {
      row.style.top = '';
      // The virtualizer may have moved the row meanwhile; it sets the transform again on its next render.
      if (row.style.transform === 'none') row.style.transform = transform;
    };
  }, [element, floating]);
}
