import type { MethodInput } from '../../shared/contract';
import type {
  ClaudeDesktopExport,
  ForeignFormat,
  ForeignLocation,
  ImportOutcome,
  ImportPreview,
  ImportSource,
} from '../../shared/contract/config-import';
import type { Result } from '../../shared/result';

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
