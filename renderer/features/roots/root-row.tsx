import { useId, useState } from 'react';
import type { RootView } from '../../../shared/domain/roots';
import { useBerth } from '../../store';
import { BroadFolderWarning } from './broad-folder-warning';
import { asSentence, needsBroadConfirmation } from './roots-model';
import { Button, Chip, IconButton } from '../../ui/controls';
import { CheckIcon, CloseIcon, EditIcon, FolderIcon, TrashIcon, WarningIcon } from '../../ui/icons';
import { Row } from '../../ui/list';

/**
 * One root: name, real path (and the path picked, when a link led there), the
 * missing flag with its reason, inline rename, and remove (undone from the
 * toast). A link that now leads to another folder offers to share that one.
 */
export function RootRow({ root }: { root: RootView }) {
  // The row is named after the root and described by its real path (what a server is given).
  const pathId = useId();
  const renameRoot = useBerth((s) => s.renameRoot);
  const removeRoot = useBerth((s) => s.removeRoot);
  const confirmRootTarget = useBerth((s) => s.confirmRootTarget);
  const [broadWarning, setBroadWarning] = useState<string>();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(root.name);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const startEditing = () => {
    setName(root.name);
    setError(undefined);
    setEditing(true);
  };
  const save = async () => {
    const trimmed = name.trim();
    if (trimmed === '') {
      setError('Enter a name, e.g. the project it holds');
      return;
    }
    if (trimmed === root.name) {
      setEditing(false);
      return;
    }
    setBusy(true);
    const result = await renameRoot(root.id, trimmed);
    setBusy(false);
    if (result.ok) setEditing(false);
    else setError(result.message);
  };
  const shareNewTarget = async (confirmBroad = false) => {
    setBusy(true);
    const result = await confirmRootTarget(root.id, confirmBroad);
    setBusy(false);
    setBroadWarning(undefined);
    if (result.ok) setError(undefined);
    else if (needsBroadConfirmation(result)) setBroadWarning(result.message);
    else setError(result.message);
  };

  return (
    <Row
      className="root-row"
      aria-label={root.name}
      aria-describedby={pathId}
      data-root={root.name}
      data-missing={root.missing || undefined}
    >
      <span className={root.missing ? 'root-icon missing' : 'root-icon'} aria-hidden="true">
        {root.missing ? <WarningIcon /> : <FolderIcon />}
      </span>
      <div className="root-main">
        {editing ? (
          <form
            className="root-rename"
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            <input
              className="input"
              aria-label={`New name for ${root.name}`}
              value={name}
              maxLength={200}
              autoFocus
              aria-invalid={error ? true : undefined}
              onChange={(event) => setName(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') {
                  event.preventDefault();
                  setEditing(false);
                }
              }}
            />
            <IconButton label="Save name" icon={<CheckIcon />} type="submit" disabled={busy} />
            <IconButton label="Cancel rename" icon={<CloseIcon />} onClick={() => setEditing(false)} />
          </form>
        ) : (
          <div className="root-title">
            <span className="root-name">{root.name}</span>
            {root.missing ? <Chip tone="danger">{root.retarget ? 'link changed' : 'missing'}</Chip> : null}
          </div>
        )}
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <span className="root-path" id={pathId} title={root.path}>
          {root.path}
        </span>
        {root.linkPath ? (
          <span className="root-link" data-testid="root-link">
            picked as <code>{root.linkPath}</code>, a link to this folder
          </span>
        ) : null}
        {root.missing && root.retarget ? (
          <div className="root-problem" data-testid="root-problem">
            <p>
              {asSentence(root.problem ?? 'The link leads to another folder now')} No server is given this root until
              you share the new folder.
            </p>
            <Button size="sm" onClick={() => void shareNewTarget()} disabled={busy}>
              Share {root.retarget} instead
            </Button>
          </div>
        ) : root.missing ? (
          <p className="root-problem" data-testid="root-problem">
            {asSentence(root.problem ?? 'The folder cannot be found')} No server is given this root until the folder is
            back.
          </p>
        ) : null}
        {broadWarning ? (
          <BroadFolderWarning
            message={broadWarning}
            busy={busy}
            onConfirm={() => void shareNewTarget(true)}
            onCancel={() => setBroadWarning(undefined)}
            cancelLabel="Keep it held back"
          />
        ) : null}
      </div>
      {editing ? null : (
        <div className="root-actions">
          <Button
            size="sm"
            variant="ghost"
            icon={<EditIcon />}
            onClick={startEditing}
            aria-label={`Rename ${root.name}`}
          >
            Rename
          </Button>
          <Button
            size="sm"
            variant="ghost"
            icon={<TrashIcon />}
            onClick={() => void removeRoot(root.id)}
            aria-label={`Remove ${root.name}`}
          >
            Remove
          </Button>
        </div>
      )}
    </Row>
  );
}
