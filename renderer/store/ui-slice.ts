import type { SliceCreator } from './types';
import type { UiSlice } from './ui-types';
import { failureWords } from '../i18n/words';

/** Toasts beyond this are dropped oldest-first so a burst of failures cannot cover the screen. */
const MAX_TOASTS = 4;
let nextToastId = 1;

export const createUiSlice: SliceCreator<UiSlice> = () => (set) => ({
  view: 'servers',
  selectedServer: undefined,
  serverPane: 'list',
  logServer: undefined,
  serverForm: undefined,
  configEditorOpen: false,
  toasts: [],
  panesOpenedNarrow: { sidebar: false, conversations: false },
  modelPickerRequests: 0,
  showView(view) {
    set({ view });
  },
  selectServer(name) {
    set({ selectedServer: name, view: 'servers', serverPane: name === undefined ? 'list' : 'detail' });
  },
  showServerList() {
    set({ serverPane: 'list' });
  },
  showLogsFor(name) {
    set({ logServer: name, view: 'logs' });
  },
  openServerForm(request) {
    set({ serverForm: request });
  },
  openConfigEditor(open) {
    set({ configEditorOpen: open });
  },
  pushToast(toast) {
    set((s) => ({ toasts: [...s.toasts, { ...toast, id: nextToastId++ }].slice(-MAX_TOASTS) }));
  },
  toastFailure(title, failure) {
    set((s) => ({
      toasts: [
        ...s.toasts,
        {
          id: nextToastId++,
          tone: 'error' as const,
          title,
          message: failureWords(failure),
        },
      ].slice(-MAX_TOASTS),
    }));
  },
  dismissToast(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
  openPaneNarrow(pane, open) {
    set((s) => ({ panesOpenedNarrow: { ...s.panesOpenedNarrow, [pane]: open } }));
  },
  requestModelPicker() {
    set((s) => ({ modelPickerRequests: s.modelPickerRequests + 1 }));
  },
});
