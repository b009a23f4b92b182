import { useEffect } from 'react';
import type { ThemeChoice } from '../../../shared/domain/appearance';
import { useBerth } from '../../store';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The theme shown for a setting: `system` follows the OS (a DOM without media queries, a test's: light). */
export function shownTheme(choice: ThemeChoice): 'light' | 'dark' {
  if (choice !== 'system') return choice;
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

/**
 * Sets `<html data-theme>`, which tokens.css (and MCP Apps' host context) read: the one place the
 * theme is decided. main.tsx calls it before the first render so a dark system never flashes light.
 */
export function applyTheme(choice: ThemeChoice): void {
  document.documentElement.dataset.theme = shownTheme(choice);
}

/** Keeps the theme in step with the Theme setting (live, from any window) and, on `system`, with the OS as it switches. */
export function ThemeSync() {
  const choice = useBerth((s) => s.settings?.appearance?.theme ?? 'system');
  useEffect(() => {
    applyTheme(choice);
    if (choice !== 'system' || typeof window.matchMedia !== 'function') return undefined;
    const query = window.matchMedia(DARK_QUERY);
    const onChange = () => applyTheme('system');
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [choice]);
  return null;
}
