import { I18nProvider } from '@lingui/react';
import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import { i18n, type UiLocale } from './i18n';

/** Gives the tree the active locale's messages; renders nothing until a locale is active (main.tsx activates one first). */
export function BerthI18nProvider({ children }: { children: ReactNode }) {
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

/** The active locale; the component re-renders when it changes (for one that only formats numbers or dates). */
export function useLocale(): UiLocale {
  return useLingui().i18n.locale as UiLocale;
}
