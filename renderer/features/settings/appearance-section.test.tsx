// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Appearance } from '../../../shared/domain/appearance';
import type { SettingsView } from '../../../shared/contract/settings';
import { ok } from '../../../shared/result';
import { ThemeSync } from '../shell/theme-sync';
import { AppearanceSection } from './appearance-section';
import { renderWithBerth } from '../../test-support/render-with-berth';

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(window, 'matchMedia');
  delete document.documentElement.dataset.theme;
});

/** An OS light/dark setting the test can flip. */
function systemScheme(dark: boolean) {
  const listeners = new Set<() => void>();
  window.matchMedia = ((query: string) => ({
    get matches() {
      return query === '(prefers-color-scheme: dark)' && dark;
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  })) as unknown as typeof window.matchMedia;
  return {
    set(next: boolean) {
      dark = next;
      for (const listener of listeners) listener();
    },
  };
}

function mount(theme?: Appearance['theme']) {
  let appearance: Appearance = { theme: theme ?? 'system', sidebarCollapsed: false, conversationsCollapsed: false };
  const view = (): SettingsView => ({
    apiKey: { source: 'none' },
    models: [],
    defaultModel: 'claude-a',
    ...(theme === undefined ? {} : { appearance }),
  });
  const rendered = renderWithBerth(
    <>
      <ThemeSync />
      <AppearanceSection />
    </>,
    {
      handlers: {
        'settings.setAppearance': (changes) => {
          appearance = { ...appearance, ...changes };
          return ok({ ...view(), appearance });
        },
      },
      prepare: (store) => store.getState().applySettings(view()),
    },
  );
  const sent = () => rendered.transport.calls.filter((c) => c.method === 'settings.setAppearance').map((c) => c.input);
  return { ...rendered, sent };
}

const shown = () => document.documentElement.dataset.theme;

describe('the Theme setting', () => {
  it('starts on System (also from a host that predates it), which follows the OS as it switches', async () => {
    const os = systemScheme(true);
    mount();
    expect(screen.getByRole('radio', { name: 'System' }).getAttribute('aria-checked')).toBe('true');
    await waitFor(() => expect(shown()).toBe('dark'));
    act(() => os.set(false));
    expect(shown()).toBe('light');
  });

  it('Dark and Light apply at once, whatever the OS says, and the host keeps the choice', async () => {
    const os = systemScheme(false);
    const { sent } = mount('system');
    fireEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    await waitFor(() => expect(shown()).toBe('dark'));
    expect(sent()).toEqual([{ theme: 'dark' }]);
    act(() => os.set(false));
    expect(shown()).toBe('dark');
    fireEvent.click(screen.getByRole('radio', { name: 'Light' }));
    os.set(true);
    await waitFor(() => expect(shown()).toBe('light'));
    expect(sent()).toEqual([{ theme: 'dark' }, { theme: 'light' }]);
    expect(screen.getByRole('radio', { name: 'Light' }).getAttribute('aria-checked')).toBe('true');
  });

  it('a theme the host kept (a restart) is shown from the start', async () => {
    systemScheme(false);
    mount('dark');
    await waitFor(() => expect(shown()).toBe('dark'));
    expect(screen.getByRole('radio', { name: 'Dark' }).getAttribute('aria-checked')).toBe('true');
  });
});
