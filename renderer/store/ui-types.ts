import type { Failure } from '../../shared/result';
import type { Words } from '../i18n/words';

export type View = 'chat' | 'servers' | 'discover' | 'tasks' | 'inbox' | 'roots' | 'logs' | 'settings';

/** A toast keeps what to say, worded when shown: a language switch re-words the toasts on screen. */
export interface Toast {
  id: number;
  tone: 'error' | 'success' | 'info';
  title: Words;
  message?: Words;
  /** One button in the toast (e.g. Undo); the toast closes when it is pressed. */
  action?: { label: Words; run: () => void };
}

/** Which add/edit dialog is open. `example` prefills the add form with server-everything. */
export type ServerFormRequest = { mode: 'add'; example?: boolean } | { mode: 'edit'; name: string };

export interface UiSlice {
  view: View;
  selectedServer: string | undefined;
  /**
   * What a narrow window (below ~1000 px, where the Servers view has room for one column) shows:
   * the list, or the selected server's detail. Wide windows show both and ignore it.
   */
  serverPane: 'list' | 'detail';
  /** Server filter of the log viewer; undefined = all servers. */
  logServer: string | undefined;
  serverForm: ServerFormRequest | undefined;
  configEditorOpen: boolean;
  toasts: Toast[];
  /**
   * The panes a narrow window shows anyway: there they fold on their own, and opening one lasts
   * for this window only (the person's setting is for windows with room for them).
   */
  panesOpenedNarrow: Record<Pane, boolean>;
  showView(view: View): void;
  /** Selects a server and shows its detail (in a narrow window, in place of the list). */
  selectServer(name: string | undefined): void;
  /** Back from a server's detail to the list (narrow windows). */
  showServerList(): void;
  showLogsFor(name: string | undefined): void;
  openServerForm(request: ServerFormRequest | undefined): void;
  openConfigEditor(open: boolean): void;
  pushToast(toast: Omit<Toast, 'id'>): void;
  /** A failed host call, shown as an error toast (its message worded from its code when it has one). */
  toastFailure(title: Words, failure: Failure): void;
  dismissToast(id: number): void;
  openPaneNarrow(pane: Pane, open: boolean): void;
  /** Counts the asks to open the composer's model picker (a chat error's "Pick another model"); it opens on each. */
  modelPickerRequests: number;
  requestModelPicker(): void;
}

/** The panes that fold away: the sidebar (to its icons) and the Chat view's conversation list. */
export type Pane = 'sidebar' | 'conversations';
