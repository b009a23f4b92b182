import { useCallback, useRef, useState } from 'react';
import { QUIET_FOCUS } from './quiet-focus';

/**
 * Marks a dialog's safest answer (Deny, Reject, Cancel when it is not a DialogClose): the dialog
 * opens with the focus on it, so Enter or Space at once never runs, installs or removes anything.
 */
export const SAFE_CHOICE = { 'data-safe-choice': '' } as const;

/** Set by DialogClose and AlertDialogCancel on their button: the safe choice when none is marked. */
export const CLOSE_CHOICE = { 'data-dialog-close': '' } as const;

const USABLE = ':not(:disabled):not([aria-disabled="true"])';
/** The button a dialog should start on (footer first: the header's Close is an icon, far from the answers). */
export function safeChoiceIn(container: ParentNode): HTMLElement | undefined {
  return (
    container.querySelector<HTMLElement>(`.dialog-footer [data-safe-choice]${USABLE}`) ??
    container.querySelector<HTMLElement>(`[data-safe-choice]${USABLE}`) ??
    container.querySelector<HTMLElement>(`.dialog-footer [data-dialog-close]${USABLE}`) ??
    container.querySelector<HTMLElement>(`[data-dialog-close]${USABLE}`) ??
    undefined
  );
}

/** Focuses the dialog's safe choice (its tooltip kept shut); the dialog itself when it has none. */
export function focusSafeChoice(container: HTMLElement): void {
  const target = safeChoiceIn(container);
  if (!target) {
    container.focus();
    return;
  }
  target.setAttribute(QUIET_FOCUS, '');
  target.addEventListener('blur', () => target.removeAttribute(QUIET_FOCUS), { once: true });
  target.focus();
}

function canTakeFocus(element: Element | null | undefined): element is HTMLElement {
  return (
    element instanceof HTMLElement &&
    element.isConnected &&
    element !== element.ownerDocument.body &&
    !element.matches(':disabled') &&
    !element.closest('[inert], [hidden]')
  );
}

/**
 * Where the focus goes when a dialog closes (Escape, Close, an answer): back to the element that
 * had it when the dialog opened, read at the render that opens it, before any dialog moves it.
 * When that element is gone (the button that opened it went with its row) or there was none
 * (a request that opened by itself), `fallback` names where to go; without it, Radix's default.
 */
export function useDialogFocus(open: boolean | undefined, fallback?: () => Element | null | undefined) {
  const [wasOpen, setWasOpen] = useState(open === true);
  const [opener, setOpener] = useState<Element | null>(() => (open === true ? document.activeElement : null));
  if ((open === true) !== wasOpen) {
    setWasOpen(open === true);
    if (open === true) setOpener(document.activeElement);
  }
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;

  const onOpenAutoFocus = useCallback((event: Event) => {
    event.preventDefault();
    const content = event.currentTarget;
    if (content instanceof HTMLElement) focusSafeChoice(content);
  }, []);

  const onCloseAutoFocus = useCallback(
    (event: Event) => {
      const target = canTakeFocus(opener) ? opener : fallbackRef.current?.();
      if (!canTakeFocus(target)) return;
      event.preventDefault();
      target.focus();
    },
    [opener],
  );

  return { onOpenAutoFocus, onCloseAutoFocus };
}
