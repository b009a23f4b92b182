import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { FolderListing } from '../../../shared/contract/roots';
import { useBerth } from '../../store';
import { Button, IconButton, InlineAlert } from '../../ui/controls';
import { ArrowUpIcon, ChevronRightIcon, FolderIcon, HomeIcon } from '../../ui/icons';
import { BroadFolderWarning } from './broad-folder-warning';
import { folderCrumbs, folderName } from './folder-crumbs';
import { needsBroadConfirmation } from './roots-model';
import { Dialog, DialogBody, DialogClose, DialogHeader } from '../../ui/dialog';
import { List } from '../../ui/list';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';
import { verbatim, words } from '../../i18n/words';

/**
 * Browser mode's "Add folder": a web page cannot see the file system, so the
 * host lists folders for it. Arrow keys move through the sub-folders, Enter
 * opens one, Backspace goes up; "Use this folder" adds the folder shown.
 */
export function AddRootDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      className="dialog-wide folder-dialog"
      aria-describedby="folder-dialog-description"
    >
      {open ? <FolderBrowser onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

function FolderBrowser({ onDone }: { onDone: () => void }) {
  const browseFolders = useBerth((s) => s.browseFolders);
  const addRoot = useBerth((s) => s.addRoot);
  const pushToast = useBerth((s) => s.pushToast);
  const [listing, setListing] = useState<FolderListing>();
  // Failures are kept, not their words: they are worded as they render, so a language switch re-words them.
  const [browseError, setBrowseError] = useState<Failure>();
  const [typedPath, setTypedPath] = useState('');
  const [name, setName] = useState('');
  const [addError, setAddError] = useState<Failure>();
  /** The host's warning about a folder as broad as / or home: shown until the person confirms or picks another. */
  const [broadWarning, setBroadWarning] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  // Set when the person navigated from the keyboard or a click, so focus lands in the new list (the old buttons are gone).
  const focusAfterLoad = useRef(false);
  const pathId = useId();
  const nameId = useId();
  const t = useT();

  // Latest wins: a slow first listing (the home folder) must not replace what the person asked for since.
  const browseSeq = useRef(0);
  // The person typed in the path field: the opening listing keeps their text.
  const typed = useRef(false);

  const browse = useCallback(
    async (path: string | undefined, focusList: boolean) => {
      const seq = ++browseSeq.current;
      const opening = path === undefined && !focusList;
      const result = await browseFolders(path);
      if (seq !== browseSeq.current) return;
      if (!result.ok) {
        setBrowseError(result);
        return;
      }
      setBrowseError(undefined);
      setAddError(undefined);
      setBroadWarning(undefined);
      setListing(result.value);
      if (!(opening && typed.current)) setTypedPath(result.value.path);
      focusAfterLoad.current = focusList;
    },
    [browseFolders],
  );

  useEffect(() => {
    void browse(undefined, false);
  }, [browse]);

  useEffect(() => {
    if (!focusAfterLoad.current) return;
    focusAfterLoad.current = false;
    const list = listRef.current;
    (list?.querySelector<HTMLButtonElement>('button:not(:disabled)') ?? list)?.focus();
  }, [listing]);

  const use = async (confirmBroad = false) => {
    // The typed path wins when the person edited it without opening it.
    const path = typedPath.trim() || listing?.path || '';
    setBusy(true);
    const result = await addRoot(path, name, confirmBroad);
    setBusy(false);
    if (!result.ok) {
      if (needsBroadConfirmation(result)) {
        setAddError(undefined);
        setBroadWarning(result);
      } else setAddError(result);
      return;
    }
    const { name: added, path: addedPath, linkPath } = result.value;
    pushToast({
      tone: 'success',
      title: words('roots.broad.added', { name: added }),
      message: linkPath ? words('roots.add.pickedAs', { path: addedPath, link: linkPath }) : verbatim(addedPath),
    });
    onDone();
  };

  const onListKey = (event: KeyboardEvent<HTMLUListElement>) => {
    if ((event.key === 'Backspace' || (event.key === 'ArrowLeft' && event.altKey)) && listing?.parent) {
      event.preventDefault();
      void browse(listing.parent, true);
    }
  };

  const current = listing?.path ?? '';
  const suggested = typedPath.trim() ? folderName(typedPath.trim()) : '';

  return (
    <div className="folder-browser">
      <DialogHeader title={t('roots.broad.dialogTitle')} />
      <DialogBody>
        <p className="dialog-description" id="folder-dialog-description">
          {t('roots.add.description')}
        </p>
        <form
          className="folder-path-row"
          onSubmit={(event) => {
            event.preventDefault();
            void browse(typedPath.trim() || undefined, true);
          }}
        >
          <label className="sr-only" htmlFor={pathId}>
            {t('roots.add.path')}
          </label>
          <input
            id={pathId}
            className="input mono"
            value={typedPath}
            spellCheck={false}
            placeholder="/path/to/folder"
            aria-invalid={browseError ? true : undefined}
            aria-describedby={browseError ? `${pathId}-error` : undefined}
            onChange={(event) => {
              typed.current = true;
              setTypedPath(event.target.value);
            }}
          />
          <Button type="submit" size="sm">
            {t('roots.add.go')}
          </Button>
        </form>
        {browseError ? (
          <p className="field-error" id={`${pathId}-error`} role="alert">
            {failureText(browseError)}
          </p>
        ) : null}

        <div className="folder-toolbar">
          <IconButton
            label={t('roots.add.parent')}
            icon={<ArrowUpIcon />}
            disabled={!listing?.parent}
            onClick={() => listing?.parent && void browse(listing.parent, true)}
          />
          <IconButton
            label={t('roots.add.home')}
            icon={<HomeIcon />}
            disabled={!listing}
            onClick={() => listing && void browse(listing.home, true)}
          />
          <nav className="folder-crumbs" aria-label={t('roots.add.crumbs')}>
            {folderCrumbs(current).map((crumb, i, all) => (
              <span key={crumb.path} className="folder-crumb">
                {i > 0 ? <ChevronRightIcon aria-hidden="true" /> : null}
                {i === all.length - 1 ? (
                  <span aria-current="location">{crumb.label}</span>
                ) : (
                  <button type="button" className="link-button" onClick={() => void browse(crumb.path, true)}>
                    {crumb.label}
                  </button>
                )}
              </span>
            ))}
          </nav>
        </div>

        <List
          look="plain"
          arrowKeys
          className="folder-list"
          ref={listRef}
          tabIndex={-1}
          aria-label={t('roots.add.folders', { path: current })}
          onKeyDown={onListKey}
        >
          {listing && listing.entries.length === 0 ? (
            <li className="folder-empty">{t('roots.add.noSubfolders')}</li>
          ) : null}
          {listing?.entries.map((entry) => (
            <li key={entry.path}>
              <button
                type="button"
                className="folder-entry"
                disabled={!entry.readable}
                title={entry.readable ? t('roots.add.open', { path: entry.path }) : t('roots.add.unreadable')}
                onClick={() => void browse(entry.path, true)}
              >
                <FolderIcon />
                <span>{entry.name}</span>
                {entry.readable ? null : <span className="muted small">{t('roots.add.noAccess')}</span>}
              </button>
            </li>
          ))}
          {listing?.truncated ? <li className="folder-empty">{t('roots.add.truncated')}</li> : null}
        </List>

        <div className="field">
          <label className="field-label" htmlFor={nameId}>
            {t('roots.add.name')} <span className="muted">{t('roots.add.nameHint')}</span>
          </label>
          <input
            id={nameId}
            className="input"
            value={name}
            maxLength={200}
            placeholder={suggested}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        {addError ? <InlineAlert>{failureText(addError)}</InlineAlert> : null}
        {broadWarning ? (
          <BroadFolderWarning
            warning={broadWarning}
            busy={busy}
            onConfirm={() => void use(true)}
            onCancel={() => setBroadWarning(undefined)}
          />
        ) : null}
      </DialogBody>
      <footer className="dialog-footer">
        <DialogClose>
          <Button variant="ghost">{t('roots.add.cancel')}</Button>
        </DialogClose>
        <Button
          variant="primary"
          onClick={() => void use()}
          disabled={busy || broadWarning !== undefined || (!listing && typedPath.trim() === '')}
        >
          {busy ? t('roots.add.adding') : suggested ? t('roots.add.use', { name: suggested }) : t('roots.add.useThis')}
        </Button>
      </footer>
    </div>
  );
}
