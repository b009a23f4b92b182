/**
 * How Berth looks, as the person set it: the theme and the panes folded away. Kept by the host
 * (settings.json's `appearance`): browser mode's origin changes every run, so nothing kept in the
 * page would outlive a restart. Zod-free: the first screen reads it before anything loads.
 */

/** The Theme setting: follow the OS (the default), or always light or dark. */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** What Settings and the shell read; every field is there, defaults filled in. */
export interface Appearance {
  theme: ThemeChoice;
  /** The sidebar shows only its icons. */
  sidebarCollapsed: boolean;
  /** The Chat view's list of conversations is folded away. */
  conversationsCollapsed: boolean;
}

export const DEFAULT_APPEARANCE: Appearance = {
  theme: 'system',
  sidebarCollapsed: false,
  conversationsCollapsed: false,
};
