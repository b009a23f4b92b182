import { describe, expect, it } from 'vitest';
import type { ForeignLocation, ImportPreview } from '../../shared/contract/config-import';
import { fail, ok } from '../../shared/result';
import { createFakeTransport } from '../test-support/fake-transport';
import { createBerthStore } from './create-store';
import { shownToasts } from '../test-support/shown-toasts';

const location = (id: ForeignLocation['id'], exists: boolean): ForeignLocation => ({
  id,
  label: id,
  format: 'claude-desktop',
  path: `/home/ada/${id}.json`,
  exists,
});

const preview: ImportPreview = {
  format: 'claude-desktop',
  path: '/home/ada/claude-desktop.json',
  servers: [
    {
      sourceName: 'github',
      name: 'github',
      kind: 'stdio',
      command: 'npx',
      args: [],
      secretEnvKeys: [],
      requiredInputs: [],
      usesWorkspaceFolder: false,
      warnings: [],
    },
  ],
  inputs: [],
  problems: [],
};

describe('config import slice', () => {
  it('looks for files when the import dialog opens, and again for a project folder', async () => {
    const transport = createFakeTransport({
      'configImport.locations': ({ projectFolder }) =>
        projectFolder === '/nope'
          ? fail('INVALID_INPUT', 'The project folder must be an absolute path')
          : ok({ locations: [location('claude-desktop', true), location('cursor', false)] }),
    });
    const store = createBerthStore(transport);
    store.getState().openInteropDialog('import');
    expect(store.getState().interopDialog).toBe('import');
    await Promise.resolve();
    expect(store.getState().importLocations?.map((l) => [l.id, l.exists])).toEqual([
      ['claude-desktop', true],
      ['cursor', false],
    ]);
    await store.getState().loadImportLocations('/work/app');
    expect(transport.calls.at(-1)).toEqual({ method: 'configImport.locations', input: { projectFolder: '/work/app' } });
    await store.getState().loadImportLocations('/nope');
    expect(store.getState().importLocationsError).toBe('The project folder must be an absolute path');
  });

  it('keeps the preview with its source and re-sends that source on import', async () => {
    const transport = createFakeTransport({
      'configImport.preview': () => ok(preview),
      'configImport.apply': () => ok({ imported: true as const, added: ['github', 'files'] }),
    });
    const store = createBerthStore(transport);
    store.getState().openInteropDialog('import');
    const source = { kind: 'location' as const, id: 'claude-desktop' as const };
    await store.getState().previewImport(source);
    expect(store.getState().importPreview).toEqual({ source, preview });

    const result = await store
      .getState()
      .applyImport({ servers: [{ sourceName: 'github', name: 'github' }], answers: {} });
    expect(result.ok).toBe(true);
    expect(transport.calls.at(-1)).toEqual({
      method: 'configImport.apply',
      input: { servers: [{ sourceName: 'github', name: 'github' }], answers: {}, source },
    });
    expect(store.getState().interopDialog).toBeUndefined();
    expect(store.getState().importPreview).toBeUndefined();
    expect(store.getState().selectedServer).toBe('github');
    expect(shownToasts(store).at(-1)).toMatchObject({
      tone: 'success',
      title: 'Imported 2 servers',
      message: 'github, files: each stays off until you turn it on.',
    });
    // What the servers page says next: what the imported server runs, until it is turned on or the notice dismissed.
    expect(store.getState().importedNotes).toEqual([{ name: 'github', runs: 'npx', warnings: [] }]);
    store.getState().dismissImportedNotes();
    expect(store.getState().importedNotes).toEqual([]);
  });

  it('leaves the dialog open with the preview when the host refuses the import', async () => {
    const transport = createFakeTransport({
      'configImport.preview': () => ok(preview),
      'configImport.apply': () =>
        ok({
          imported: false as const,
          failures: [{ sourceName: 'github', message: 'Berth already has a server named "github"', field: 'name' }],
        }),
    });
    const store = createBerthStore(transport);
    store.getState().openInteropDialog('import');
    await store.getState().previewImport({ kind: 'text', format: 'cursor', text: '{}' });
    const result = await store
      .getState()
      .applyImport({ servers: [{ sourceName: 'github', name: 'github' }], answers: {} });
    expect(result).toMatchObject({ ok: true, value: { imported: false } });
    expect(store.getState().interopDialog).toBe('import');
    expect(store.getState().importPreview).toBeDefined();
    expect(shownToasts(store)).toEqual([]);
  });

  it('does not keep a failed preview, and starts over when the dialog opens again', async () => {
    const transport = createFakeTransport({
      'configImport.locations': () => ok({ locations: [] }),
      'configImport.preview': ({ source }) =>
        source.kind === 'location' ? fail('NOT_FOUND', 'There is no Cursor config at /x') : ok(preview),
    });
    const store = createBerthStore(transport);
    expect(await store.getState().previewImport({ kind: 'location', id: 'cursor' })).toMatchObject({
      ok: false,
      message: 'There is no Cursor config at /x',
    });
    expect(store.getState().importPreview).toBeUndefined();
    await store.getState().previewImport({ kind: 'text', format: 'cursor', text: '{}' });
    store.getState().setImportPaste({ format: 'cursor', text: '{}' });
    store.getState().openInteropDialog(undefined);
    store.getState().openInteropDialog('import');
    expect(store.getState().importPreview).toBeUndefined();
    expect(store.getState().importPaste).toEqual({ format: 'cursor', text: '' });
  });
});
