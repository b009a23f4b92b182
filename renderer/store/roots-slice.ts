import type { FolderListing, RootsView } from '../../shared/contract/roots';
import type { RootExposure, RootView } from '../../shared/domain/roots';
import type { Result } from '../../shared/result';
import type { SliceCreator } from './types';

/** Workspace roots (host-owned, replaced by snapshots and `roots.changed`) and the calls that edit them. */
export interface RootsSlice {
  /** Undefined until the first answer. */
  rootsView: RootsView | undefined;
  /** Why the roots could not be read, shown in the roots view. */
  rootsError: string | undefined;
  applyRootsView(view: RootsView): void;
  loadRoots(): Promise<void>;
  /**
   * Failures come back so the add dialog can show them inline; one at path
   * `confirmBroad` (see `needsBroadConfirmation` in the roots feature) asks the person to
   * confirm, then to call again with `confirmBroad`.
   */
  addRoot(path: string, name?: string, confirmBroad?: boolean): Promise<Result<RootView>>;
  /** Share the folder a root's link leads to now; fails like addRoot for a broad folder. */
  confirmRootTarget(id: string, confirmBroad?: boolean): Promise<Result<RootView>>;
  renameRoot(id: string, name: string): Promise<Result<RootView>>;
  /** Removes it and offers Undo in a toast (restores it with who sees it and the answers about it). */
  removeRoot(id: string): Promise<void>;
  setRootExposure(server: string, exposure: RootExposure): Promise<void>;
  /** Forgets the person's answers so the server is asked again. */
  resetRootConsent(server: string, rootIds?: string[]): Promise<void>;
  browseFolders(path?: string): Promise<Result<FolderListing>>;
  pickFolder(): Promise<Result<{ path: string | null }>>;
}

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
    else set({ rootsError: result.message });
  },
  async addRoot(path, name, confirmBroad) {
    const trimmed = name?.trim();
    const result = await transport.call('roots.add', { path, ...(trimmed ? { name: trimmed } : {}), ...(confirmBroad ? { confirmBroad } : {}) });
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
      get().toastFailure('Could not remove the root', result);
      return;
    }
    const { removed } = result.value;
    set((s) => (s.rootsView ? { rootsView: { ...s.rootsView, roots: s.rootsView.roots.filter((r) => r.id !== id) } } : {}));
    get().pushToast({
      tone: 'info',
      title: `Removed “${removed.name}”`,
      message: 'No server sees this folder any more.',
      action: {
        label: 'Undo',
        run: () => {
          void transport.call('roots.restore', { id: removed.id }).then(async (restored) => {
            // Berth restarted since the removal: the best Undo left is adding the same folder again.
            const again = !restored.ok && restored.code === 'NOT_FOUND' ? await get().addRoot(removed.path, removed.name) : restored;
            if (!again.ok) get().toastFailure(`Could not bring “${removed.name}” back`, again);
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
    else get().toastFailure(`Could not change what ${server} sees`, result);
  },
  async resetRootConsent(server, rootIds) {
    const result = await transport.call('roots.resetConsent', rootIds ? { server, rootIds } : { server });
    if (result.ok) get().applyRootsView(result.value);
    else get().toastFailure(`Could not reset the answers for ${server}`, result);
  },
  browseFolders: (path) => transport.call('roots.browse', path === undefined ? {} : { path }),
  pickFolder: () => transport.call('roots.pickFolder', {}),
});
