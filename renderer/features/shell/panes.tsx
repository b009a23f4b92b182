import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useBerth, useBerthStore, type BerthState, type Pane } from '../../store';
import { IconButton } from '../../ui/controls';
import { PanelLeftIcon, PanelListIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';

/**
 * Below these widths the panes fold on their own, so that the chat keeps most of a small window:
 * at 900 px the conversation list is folded and the chat has ~78% of the width beside the slim
 * sidebar; below 800 px the sidebar folds to its icons too.
 */
const NARROW_FOR: Record<Pane, string> = {
  sidebar: '(max-width: 799px)',
  conversations: '(max-width: 999px)',
};

const SETTING = { sidebar: 'sidebarCollapsed', conversations: 'conversationsCollapsed' } as const;
/** Ctrl/⌘+B folds the sidebar (as in VS Code), with Shift the conversation list; nothing else in Berth uses B. */
const SHORTCUT_KEY = 'b';

// A window without media queries (a test's DOM) counts as wide.
const canQuery = () => typeof window.matchMedia === 'function';

/** Whether the window is narrow enough for this pane to fold on its own. */
function useNarrowFor(pane: Pane): boolean {
  const media = NARROW_FOR[pane];
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!canQuery()) return () => undefined;
      const query = window.matchMedia(media);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    [media],
  );
  return useSyncExternalStore(
    subscribe,
    () => canQuery() && window.matchMedia(media).matches,
    () => false,
  );
}

/** Whether a pane is folded: in a narrow window unless opened there, otherwise as the person set it. */
function isCollapsed(state: BerthState, pane: Pane, narrow: boolean): boolean {
  if (narrow) return !state.panesOpenedNarrow[pane];
  return state.settings?.appearance?.[SETTING[pane]] ?? false;
}

/** A pane's state and its toggle: the setting in a wide window, this window's choice in a narrow one. */
export function usePane(pane: Pane): { collapsed: boolean; toggle: () => void } {
  const narrow = useNarrowFor(pane);
  const collapsed = useBerth((s) => isCollapsed(s, pane, narrow));
  const store = useBerthStore();
  const toggle = useCallback(() => {
    const state = store.getState();
    const folded = isCollapsed(state, pane, narrow);
    if (narrow) state.openPaneNarrow(pane, folded);
    else void state.setAppearance({ [SETTING[pane]]: !folded });
  }, [store, pane, narrow]);
  return { collapsed, toggle };
}

// aria-keyshortcuts values (WAI-ARIA key names, never shown).
const SIDEBAR_KEYS_PC = 'Control+B';
const SIDEBAR_KEYS_MAC = 'Meta+B';
const LIST_KEYS_PC = 'Control+Shift+B';
const LIST_KEYS_MAC = 'Meta+Shift+B';

/** The keys of a pane's toggle, as this platform writes them and as aria-keyshortcuts names them. */
function useShortcutKeys(pane: Pane): { shown: string; aria: string } {
  const t = useT();
  const mac = useBerth((s) => s.appInfo?.platform === 'darwin');
  const shown =
    pane === 'sidebar'
      ? t(mac ? 'shell.panes.keys.sidebarMac' : 'shell.panes.keys.sidebar')
      : t(mac ? 'shell.panes.keys.conversationsMac' : 'shell.panes.keys.conversations');
  const aria = pane === 'sidebar' ? (mac ? SIDEBAR_KEYS_MAC : SIDEBAR_KEYS_PC) : mac ? LIST_KEYS_MAC : LIST_KEYS_PC;
  return { shown, aria };
}

/** Ctrl/⌘+B and Ctrl/⌘+Shift+B, anywhere in the window; the conversation list's only in Chat, where it is. */
export function PaneShortcuts() {
  const sidebar = usePane('sidebar');
  const conversations = usePane('conversations');
  const inChat = useBerth((s) => s.view === 'chat');
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || !(event.ctrlKey || event.metaKey)) return;
      if (event.key.toLowerCase() !== SHORTCUT_KEY) return;
      if (event.shiftKey && !inChat) return;
      event.preventDefault();
      (event.shiftKey ? conversations : sidebar).toggle();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [sidebar, conversations, inChat]);
  return null;
}

/** The top bar's button that folds or opens a pane; its name says what it does, and its keys. */
export function PaneToggle({ pane }: { pane: Pane }) {
  const t = useT();
  const { collapsed, toggle } = usePane(pane);
  const keys = useShortcutKeys(pane);
  const label =
    pane === 'sidebar'
      ? t(collapsed ? 'shell.panes.showSidebar' : 'shell.panes.hideSidebar')
      : t(collapsed ? 'shell.panes.showConversations' : 'shell.panes.hideConversations');
  return (
    <IconButton
      label={t('shell.panes.shortcut', { label, keys: keys.shown })}
      aria-expanded={!collapsed}
      aria-keyshortcuts={keys.aria}
      className={`pane-toggle pane-toggle-${pane}`}
      icon={pane === 'sidebar' ? <PanelLeftIcon /> : <PanelListIcon />}
      onClick={toggle}
    />
  );
}
