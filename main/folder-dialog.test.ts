import type { BaseWindow, OpenDialogOptions, OpenDialogReturnValue } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { createFolderPicker, FOLDER_DIALOG_OPTIONS } from './folder-dialog';

/** Electron's dialog, answering with `result`; records how it was called. */
function fakeDialog(result: OpenDialogReturnValue) {
  const calls: unknown[][] = [];
  const showOpenDialog = vi.fn(async (...args: unknown[]) => {
    calls.push(args);
    return result;
  });
  return {
    dialog: {
      showOpenDialog: showOpenDialog as unknown as (options: OpenDialogOptions) => Promise<OpenDialogReturnValue>,
    },
    calls,
  };
}

describe('createFolderPicker', () => {
  it('asks for one folder (creating one allowed) and returns it', async () => {
    const { dialog, calls } = fakeDialog({ canceled: false, filePaths: ['/home/me/project'] });
    const pick = createFolderPicker({ dialog, getWindow: () => null });
    await expect(pick()).resolves.toBe('/home/me/project');
    expect(calls).toEqual([[FOLDER_DIALOG_OPTIONS]]);
    expect(FOLDER_DIALOG_OPTIONS.properties).toEqual(['openDirectory', 'createDirectory']);
  });

  it('attaches the dialog to the window when there is one', async () => {
    const { dialog, calls } = fakeDialog({ canceled: false, filePaths: ['/data'] });
    const window = { id: 7 } as unknown as BaseWindow;
    await createFolderPicker({ dialog, getWindow: () => window })();
    expect(calls).toEqual([[window, FOLDER_DIALOG_OPTIONS]]);
  });

  it('returns null when the person cancels', async () => {
    const { dialog } = fakeDialog({ canceled: true, filePaths: [] });
    await expect(createFolderPicker({ dialog, getWindow: () => null })()).resolves.toBeNull();
  });

  it('fails loudly when a choice comes back without a folder', async () => {
    const { dialog } = fakeDialog({ canceled: false, filePaths: [] });
    await expect(createFolderPicker({ dialog, getWindow: () => null })()).rejects.toThrow(/no folder/);
  });
});
