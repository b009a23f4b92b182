import type { BaseWindow, Dialog, OpenDialogOptions } from 'electron';

/** What {@linkcode createFolderPicker} needs from Electron (injected so it can be tested without it). */
export interface FolderPickerDeps {
  dialog: Pick<Dialog, 'showOpenDialog'>;
  /** The window the dialog belongs to (sheet on macOS); null shows a free-standing dialog. */
  getWindow: () => BaseWindow | null;
}

/** One folder, and "New Folder" in the dialog so a root can be made on the spot. */
export const FOLDER_DIALOG_OPTIONS: OpenDialogOptions = {
  title: 'Choose a folder to share as a root',
  buttonLabel: 'Use this folder',
  properties: ['openDirectory', 'createDirectory'],
};

/** The host's `pickFolder`: the system folder dialog; null when the person cancelled. */
export function createFolderPicker(deps: FolderPickerDeps): () => Promise<string | null> {
  return async () => {
    const window = deps.getWindow();
    const result =
      window === null
        ? await deps.dialog.showOpenDialog(FOLDER_DIALOG_OPTIONS)
        : await deps.dialog.showOpenDialog(window, FOLDER_DIALOG_OPTIONS);
    if (result.canceled) return null;
    const [path] = result.filePaths;
    // openDirectory without multiSelections yields exactly one; anything else is Electron misbehaving.
    if (path === undefined) throw new Error('the folder dialog reported a choice but returned no folder');
    return path;
  };
}
