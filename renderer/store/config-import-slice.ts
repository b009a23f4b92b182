import type { ConfigImportSlice, ImportedServerNote } from './config-import-types';
import type { SliceCreator } from './types';
import { words } from '../i18n/words';

export const createConfigImportSlice: SliceCreator<ConfigImportSlice> = (transport) => (set, get) => ({
  interopDialog: undefined,
  importLocations: undefined,
  importLocationsError: undefined,
  importProjectFolder: undefined,
  importPreview: undefined,
  importPaste: { format: 'claude-desktop', text: '' },
  importedNotes: [],

  setImportPaste(paste) {
    set({ importPaste: paste });
  },
  openInteropDialog(which) {
    set({ interopDialog: which, importPreview: undefined });
    if (which === undefined) set({ importPaste: { format: get().importPaste.format, text: '' } });
    if (which === 'import') void get().loadImportLocations(get().importProjectFolder);
  },
  async loadImportLocations(projectFolder) {
    set({ importProjectFolder: projectFolder });
    const result = await transport.call('configImport.locations', projectFolder === undefined ? {} : { projectFolder });
    // An answer for a folder the person has since changed is stale.
    if (get().importProjectFolder !== projectFolder) return;
    if (result.ok) set({ importLocations: result.value.locations, importLocationsError: undefined });
    else set({ importLocationsError: result.message });
  },
  async previewImport(source) {
    const result = await transport.call('configImport.preview', { source });
    if (result.ok) set({ importPreview: { source, preview: result.value } });
    return result;
  },
  clearImportPreview() {
    set({ importPreview: undefined });
  },
  async applyImport(input) {
    const shown = get().importPreview;
    if (shown === undefined) throw new Error('applyImport called without a preview');
    const result = await transport.call('configImport.apply', { ...input, source: shown.source });
    if (result.ok && result.value.imported) {
      const added = result.value.added;
      const notes = input.servers.flatMap(({ sourceName, name }): ImportedServerNote[] => {
        const candidate = shown.preview.servers.find((server) => server.sourceName === sourceName);
        if (candidate === undefined || !added.includes(name)) return [];
        const runs =
          candidate.kind === 'remote' ? (candidate.url ?? '') : (candidate.resolvedCommand ?? candidate.command ?? '');
        return [{ name, runs, warnings: candidate.warnings.map((warning) => warning.message) }];
      });
      set({
        interopDialog: undefined,
        importPreview: undefined,
        importPaste: { format: get().importPaste.format, text: '' },
        importedNotes: notes,
      });
      const [first] = added;
      if (first !== undefined) get().selectServer(first);
      if (added.length === 1 && first !== undefined)
        get().pushToast({
          tone: 'success',
          title: words('config-import.toast.importedOne', { server: first }),
          message: words('config-import.toast.importedOneDetail'),
        });
      else
        get().pushToast({
          tone: 'success',
          title: words('config-import.toast.importedMany', { count: added.length }),
          message: words('config-import.toast.importedManyDetail', { servers: added.join(', ') }),
        });
    }
    return result;
  },
  dismissImportedNotes() {
    set({ importedNotes: [] });
  },
  exportClaudeDesktop: () => transport.call('configImport.export', {}),
});
