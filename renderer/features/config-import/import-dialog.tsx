import clsx from 'clsx';
import { useId, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  ForeignFormatSchema,
  type ForeignFormat,
  type ForeignLocation,
  type ImportSource,
} from '../../../shared/contract/config-import';
import { useBerth } from '../../store';
import { Button, Chip, Field, InlineAlert } from '../../ui/controls';
import { FolderIcon, InfoIcon } from '../../ui/icons';
import { FORMAT_LABELS } from './import-model';
import { ImportPreviewStep } from './import-preview';
import { Dialog, DialogBody, DialogDescription, DialogHeader } from '../../ui/dialog';

/** "Import servers…": pick a detected file or paste one, then preview and import (opened through the store). */
export function ImportDialog() {
  const open = useBerth((s) => s.interopDialog === 'import');
  const openInteropDialog = useBerth((s) => s.openInteropDialog);
  const shown = useBerth((s) => s.importPreview);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && openInteropDialog(undefined)}
      className="dialog-import"
      aria-describedby="import-dialog-description"
      focusSelf
    >
      <DialogHeader title="Import servers" />
      <DialogDescription id="import-dialog-description">
        Bring MCP servers over from Claude Desktop, Cursor, Claude Code or VS Code. Nothing is added until you press
        Import.
      </DialogDescription>
      {open ? shown ? <ImportPreviewStep key={JSON.stringify(shown.source)} shown={shown} /> : <SourceStep /> : null}
    </Dialog>
  );
}

function SourceStep() {
  const previewImport = useBerth((s) => s.previewImport);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function preview(source: ImportSource) {
    setBusy(true);
    const result = await previewImport(source);
    setBusy(false);
    // On success the store shows the preview step instead of this one.
    if (!result.ok) setError(result.message);
  }

  return (
    <DialogBody className="import-source">
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      <DetectedFiles
        busy={busy}
        onPick={(location, projectFolder) =>
          void preview({ kind: 'location', id: location.id, ...(projectFolder ? { projectFolder } : {}) })
        }
      />
      <PasteForm busy={busy} onPreview={(format, text) => void preview({ kind: 'text', format, text })} />
    </DialogBody>
  );
}

function DetectedFiles({
  busy,
  onPick,
}: {
  busy: boolean;
  onPick: (location: ForeignLocation, projectFolder: string | undefined) => void;
}) {
  const locations = useBerth((s) => s.importLocations);
  const locationsError = useBerth((s) => s.importLocationsError);
  const projectFolder = useBerth((s) => s.importProjectFolder);
  const loadImportLocations = useBerth((s) => s.loadImportLocations);
  const rootPaths = useBerth(
    useShallow((s) => (s.rootsView?.roots ?? []).filter((root) => !root.missing).map((root) => root.path)),
  );
  const [folder, setFolder] = useState(projectFolder ?? '');
  const headingId = useId();
  const listId = useId();
  const found = locations?.filter((location) => location.exists) ?? [];

  function lookIn(event: FormEvent) {
    event.preventDefault();
    const trimmed = folder.trim();
    void loadImportLocations(trimmed === '' ? undefined : trimmed);
  }

  return (
    <section className="import-section" aria-labelledby={headingId}>
      <h3 id={headingId} className="import-section-title">
        Found on this computer
      </h3>
      {locationsError ? (
        <InlineAlert>Could not look for config files: {locationsError}</InlineAlert>
      ) : locations === undefined ? (
        <p className="muted">Looking for config files…</p>
      ) : (
        <>
          {found.length === 0 ? (
            <div className="inline-note import-empty" role="status">
              <InfoIcon />
              <span>
                No Claude Desktop, Cursor or VS Code config was found in the places below. Paste the contents of a
                config file further down, or look in a project folder for its <code>.mcp.json</code> or{' '}
                <code>.vscode/mcp.json</code>.
              </span>
            </div>
          ) : null}
          <ul className="import-locations">
            {locations.map((location) => {
              const usable = location.exists && location.problem === undefined;
              return (
                <li key={location.id}>
                  <button
                    type="button"
                    className={clsx('import-location', !usable && 'unavailable')}
                    disabled={!usable || busy}
                    onClick={() => onPick(location, projectFolder)}
                  >
                    <span className="import-location-top">
                      <span className="import-location-label">{location.label}</span>
                      {usable ? (
                        <Chip tone="success">Found</Chip>
                      ) : location.exists ? (
                        <Chip tone="danger">Unreadable</Chip>
                      ) : (
                        <Chip>Not found</Chip>
                      )}
                    </span>
                    <span className="import-location-path mono">{location.problem ?? location.path}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <form className="import-folder-row" onSubmit={lookIn}>
        <Field
          label="Project folder"
          hint="Also look for this project’s .mcp.json and .vscode/mcp.json; it fills in ${workspaceFolder}."
          className="import-folder-field"
        >
          {({ id, describedBy }) => (
            <>
              <input
                id={id}
                className="input mono"
                value={folder}
                list={listId}
                aria-describedby={describedBy}
                placeholder="/path/to/project"
                spellCheck={false}
                autoComplete="off"
                onChange={(event) => setFolder(event.target.value)}
              />
              <datalist id={listId}>
                {rootPaths.map((path) => (
                  <option key={path} value={path} />
                ))}
              </datalist>
            </>
          )}
        </Field>
        <Button type="submit" icon={<FolderIcon />} disabled={busy}>
          Look there
        </Button>
      </form>
    </section>
  );
}

function PasteForm({ busy, onPreview }: { busy: boolean; onPreview: (format: ForeignFormat, text: string) => void }) {
  const { format, text } = useBerth((s) => s.importPaste);
  const setImportPaste = useBerth((s) => s.setImportPaste);
  const setFormat = (next: ForeignFormat) => setImportPaste({ format: next, text });
  const setText = (next: string) => setImportPaste({ format, text: next });
  const [error, setError] = useState<string>();
  const headingId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (text.trim() === '') {
      setError('Paste the contents of a config file first');
      return;
    }
    setError(undefined);
    onPreview(format, text);
  }

  return (
    <form className="import-section" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h3 id={headingId} className="import-section-title">
        Or paste a config file
      </h3>
      <Field label="Format">
        {({ id }) => (
          <select
            id={id}
            className="input select-input"
            value={format}
            onChange={(event) => setFormat(ForeignFormatSchema.parse(event.target.value))}
          >
            {ForeignFormatSchema.options.map((option) => (
              <option key={option} value={option}>
                {FORMAT_LABELS[option]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Contents" error={error}>
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            className="input mono import-paste"
            value={text}
            rows={6}
            spellCheck={false}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            placeholder={format === 'vscode' ? '{ "servers": { … }, "inputs": [ … ] }' : '{ "mcpServers": { … } }'}
            onChange={(event) => setText(event.target.value)}
          />
        )}
      </Field>
      <div className="import-actions">
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Reading…' : 'Preview'}
        </Button>
      </div>
    </form>
  );
}
