import { wordsText } from '../i18n/words';
import type { BerthStore } from '../store';

/** A toast as the person reads it in the active locale. */
export interface ShownToast {
  tone: 'error' | 'success' | 'info';
  title: string;
  message?: string;
  action?: { label: string; run: () => void };
}

/** The store's toasts worded in the active locale, as the toast region shows them. */
export function shownToasts(store: BerthStore): ShownToast[] {
  return store.getState().toasts.map((toast) => ({
    tone: toast.tone,
    title: wordsText(toast.title),
    ...(toast.message === undefined ? {} : { message: wordsText(toast.message) }),
    ...(toast.action === undefined ? {} : { action: { label: wordsText(toast.action.label), run: toast.action.run } }),
  }));
}
