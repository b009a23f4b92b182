import type { KeyboardEvent } from 'react';

/**
 * Enter in a single-field form that is not a `<form>` (a reason beside the dialog's Deny, a
 * pattern beside its Add) does what the form's button does, as a `<form>` would. Not while an
 * input method composes (Enter picks the word) and not with a modifier.
 */
export function submitOnEnter(submit: () => void) {
  return (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing || event.keyCode === 229) return;
    if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    submit();
  };
}
