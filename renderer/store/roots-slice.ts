import type { RootsView } from '../../shared/contract/roots';
import type { RootView } from '../../shared/domain/roots';
import type { RootsSlice, SliceCreator } from './types';
import { words } from '../i18n/words';

/** Replaces or appends one root, keeping the host's order for the rest. */
function upsertRoot(view: RootsView | undefined, root: RootView): RootsView | undefined {
  if (!view) return view;
  const exists = view.roots.some((r) => r.id === root.id);
  return { ...view, roots: exists ? view.roots.map((r) => (r.id === root.id ? root : r)) : [...view.roots, root] };
}

export const createRootsSlice: SliceCreator<RootsSlice> = (transport) => (set, get) => ({
  rootsView: undefined,
  rootsError: undefined,

  applyRootsView(view) {
    set({ rootsView: view, rootsError: undefined });
  },
  async loadRoots() {
    const result = await transport.call('roots.list', {});
    if (result.ok) get().applyRootsView(result.value);
    else set({ rootsError: result });
  },
  async addRoot(path, name, confirmBroad) {
    const trimmed = name?.trim();
    const result = await transport.call('roots.add', {
      path,
      ...(trimmed ? { name: trimmed } : {}),
      ...(confirmBroad ? { confirmBroad } : {}),
    });
    // The host also sends `roots.changed`; applying the answer now keeps the list right if that event is late.
    if (result.ok) set((s) => ({ rootsView: upsertRoot(s.rootsView, result.value) }));
    return result;
  },
  async confirmRootTarget(id, confirmBroad) {
    const result = await transport.call('roots.confirmTarget', { id, ...(confirmBroad ? { confirmBroad } : {}) });
    if (result.ok) set((s) => ({ rootsView: upsertRoot(s.rootsView, result.value) }));
    return result;
  },
  async renameRoot(id, name) {
    const result = await transport.call('roots.rename', { id, name });
    if (result.ok) set((s) => ({ rootsView: upsertRoot(s.rootsView, result.value) }));
    return result;
  },
  async removeRoot(id) {
    const result = await transport.call('roots.remove', { id });
    if (!result.ok) {
      get().toastFailure(words('roots.toast.removeFailed'), result);
      return;
    }
    const { removed } = result.value;
    set((s) =>
      s.rootsView ? { rootsView: { ...s.rootsView, roots: s.rootsView.roots.filter((r) => r.id !== id) } } : {},
    );
    get().pushToast({
      tone: 'info',
      title: words('roots.toast.removed', { name: removed.name }),
      message: words('roots.toast.removedDetail'),
      action: {
        label: words('roots.toast.undo'),
        run: () => {
          void transport.call('roots.restore', { id: removed.id }).then(async (restored) => {
            // Berth restarted since the removal: the best Undo left is adding the same folder again.
            const again =
              !restored.ok && restored.code === 'NOT_FOUND'
                ? await get().addRoot(removed.path, removed.name)
                : restored;
            if (!again.ok) get().toastFailure(words('roots.toast.restoreFailed', { name: removed.name }), again);
            // The host also sends `roots.changed`; this keeps the list right if that event is late.
            else set((s) => ({ rootsView: upsertRoot(s.rootsView, again.value) }));
          });
        },
      },
    });
  },
  async setRootExposure(server, exposure) {
    const result = await transport.call('roots.setExposure', { server, exposure });
    if (result.ok) get().applyRootsView(result.value);
    else get().toastFailure(words('roots.toast.exposureFailed', { server }), result);
  },
  async resetRootConsent(server, rootIds) {
    const result = await transport.call('roots.resetConsent', rootIds ? { server, rootIds } : { server });
    if (result.ok) get().applyRootsView(result.value);
    else get().toastFailure(words('roots.toast.resetFailed', { server }), result);
  },
  browseFolders: (path) => transport.call('roots.browse', path === undefined ? {} : { path }),
  pickFolder: () => transport.call('roots.pickFolder', {}),
});
