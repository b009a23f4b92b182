import type { MethodInput } from '../../shared/contract';
import type { ClaudeDesktopExport, ForeignFormat, ForeignLocation, ImportOutcome, ImportPreview, ImportSource } from '../../shared/contract/config-import';
import type { Result } from '../../shared/result';
import type { SliceCreator } from './types';

/** The preview on screen and the source it came from (re-sent on import: the host reads it again). */
export interface ShownImportPreview {
  source: ImportSource;
  preview: ImportPreview;
}

/** A server just imported (turned off): what it runs and what to check before turning it on. */
export interface ImportedServerNote {
  name: string;
  /** The file the command runs (or the command, when not found), or a remote server's address. */
  runs: string;
  warnings: string[];
}

/** Import from other apps' config files and export to Claude Desktop. */
export interface ConfigImportSlice {
  /** Which interop dialog is open. */
  interopDialog: 'import' | 'export' | undefined;
  /** Undefined until the host answered. */
  importLocations: ForeignLocation[] | undefined;
  importLocationsError: string | undefined;
  /** The project folder the locations were looked up for. */
  importProjectFolder: string | undefined;
  importPreview: ShownImportPreview | undefined;
  /** Pasted text survives going Back from its preview; it is dropped when the dialog closes. */
  importPaste: { format: ForeignFormat; text: string };
  setImportPaste(paste: { format: ForeignFormat; text: string }): void;
  /** Opening the import dialog starts from the source picker and looks for files again. */
  openInteropDialog(which: 'import' | 'export' | undefined): void;
  loadImportLocations(projectFolder?: string): Promise<void>;
  /** Failures come back so the dialog shows them beside the source. */
  previewImport(source: ImportSource): Promise<Result<ImportPreview>>;
  clearImportPreview(): void;
  /** On success the dialog closes and the first imported server is selected; a refusal comes back per candidate. */
  applyImport(input: Omit<MethodInput<'configImport.apply'>, 'source'>): Promise<Result<ImportOutcome>>;
  /** The servers of the last import, shown until the person turns them on or dismisses the notice. */
  importedNotes: ImportedServerNote[];
  dismissImportedNotes(): void;
  exportClaudeDesktop(): Promise<Result<ClaudeDesktopExport>>;
}

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
        const runs = candidate.kind === 'remote' ? (candidate.url ?? '') : (candidate.resolvedCommand ?? candidate.command ?? '');
        return [{ name, runs, warnings: candidate.warnings.map((warning) => warning.message) }];
      });
      set({ interopDialog: undefined, importPreview: undefined, importPaste: { format: get().importPaste.format, text: '' }, importedNotes: notes });
      if (added[0] !== undefined) get().selectServer(added[0]);
      if (added.length === 1) get().pushToast({ tone: 'success', title: `Imported “${added[0]}”`, message: 'It stays off until you turn it on.' });
      else get().pushToast({ tone: 'success', title: `Imported ${added.length} servers`, message: `${added.join(', ')}: each stays off until you turn it on.` });
    }
    return result;
  },
  dismissImportedNotes() {
    set({ importedNotes: [] });
  },
  exportClaudeDesktop: () => transport.call('configImport.export', {}),
});
