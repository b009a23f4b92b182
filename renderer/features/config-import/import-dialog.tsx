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
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { hostText } from '../../i18n/host-message';
import { failureWords, useWords, words, type Words } from '../../i18n/words';
import { WordsText } from '../../i18n/words-text';

/** "Import servers…": pick a detected file or paste one, then preview and import (opened through the store). */
export function ImportDialog() {
  const t = useT();
  const open = useBerth((s) => s.interopDialog === 'import');
  const openInteropDialog = useBerth((s) => s.openInteropDialog);
  const shown = useBerth((s) => s.importPreview);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && openInteropDialog(undefined)}
      className="dialog-import"
      aria-describedby="import-dialog-description"
    >
      <DialogHeader title={t('config-import.import.title')} />
      <DialogDescription id="import-dialog-description">{t('config-import.import.description')}</DialogDescription>
      {open ? shown ? <ImportPreviewStep key={JSON.stringify(shown.source)} shown={shown} /> : <SourceStep /> : null}
    </Dialog>
  );
}

function SourceStep() {
  const previewImport = useBerth((s) => s.previewImport);
  const [error, setError] = useState<Words>();
  const [busy, setBusy] = useState(false);

  async function preview(source: ImportSource) {
    setBusy(true);
    const result = await previewImport(source);
    setBusy(false);
    // On success the store shows the preview step instead of this one.
    if (!result.ok) setError(failureWords(result));
  }

  return (
    <DialogBody className="import-source">
      {error ? (
        <InlineAlert>
          <WordsText words={error} />
        </InlineAlert>
      ) : null}
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
  const t = useT();
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
        {t('config-import.found.heading')}
      </h3>
      {locationsError ? (
        <InlineAlert>{t('config-import.found.failed', { error: locationsError })}</InlineAlert>
      ) : locations === undefined ? (
        <p className="muted">{t('config-import.found.looking')}</p>
      ) : (
        <>
          {found.length === 0 ? (
            <div className="inline-note import-empty" role="status">
              <InfoIcon />
              <span>
                <T id="config-import.found.none" components={{ code: <code /> }} />
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
                        <Chip tone="success">{t('config-import.found.found')}</Chip>
                      ) : location.exists ? (
                        <Chip tone="danger">{t('config-import.found.unreadable')}</Chip>
                      ) : (
                        <Chip>{t('config-import.found.notFound')}</Chip>
                      )}
                    </span>
                    <span className="import-location-path mono">
                      {location.problem === undefined
                        ? location.path
                        : hostText(location.problemMessage, location.problem)}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <form className="import-folder-row" onSubmit={lookIn}>
        <Field
          label={t('config-import.found.folder')}
          hint={t('config-import.found.folderHint', { variable: '${workspaceFolder}' })}
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
                placeholder={t('config-import.found.folderPlaceholder')}
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
          {t('config-import.found.lookThere')}
        </Button>
      </form>
    </section>
  );
}

// The JSON shape each format has, as the placeholder: code, the same in every language.
const VSCODE_SHAPE = '{ "servers": { … }, "inputs": [ … ] }';
const MCP_SERVERS_SHAPE = '{ "mcpServers": { … } }';

function PasteForm({ busy, onPreview }: { busy: boolean; onPreview: (format: ForeignFormat, text: string) => void }) {
  const t = useT();
  const { format, text } = useBerth((s) => s.importPaste);
  const setImportPaste = useBerth((s) => s.setImportPaste);
  const setFormat = (next: ForeignFormat) => setImportPaste({ format: next, text });
  const setText = (next: string) => setImportPaste({ format, text: next });
  const [error, setError] = useState<Words>();
  const wordsOf = useWords();
  const headingId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (text.trim() === '') {
      setError(words('config-import.paste.empty'));
      return;
    }
    setError(undefined);
    onPreview(format, text);
  }

  return (
    <form className="import-section" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h3 id={headingId} className="import-section-title">
        {t('config-import.paste.heading')}
      </h3>
      <Field label={t('config-import.paste.format')}>
        {({ id }) => (
          <select
            id={id}
            className="input select-input"
            value={format}
            onChange={(event) => setFormat(ForeignFormatSchema.parse(event.target.value))}
          >
            {ForeignFormatSchema.options.map((option) => (
              <option key={option} value={option}>
                {t(FORMAT_LABELS[option])}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('config-import.paste.contents')} error={error && wordsOf(error)}>
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            className="input mono import-paste"
            value={text}
            rows={6}
            spellCheck={false}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            placeholder={format === 'vscode' ? VSCODE_SHAPE : MCP_SERVERS_SHAPE}
            onChange={(event) => setText(event.target.value)}
          />
        )}
      </Field>
      <div className="import-actions">
        <Button type="submit" variant="primary" disabled={busy}>
          {t(busy ? 'config-import.paste.reading' : 'config-import.paste.preview')}
        </Button>
      </div>
    </form>
  );
}
