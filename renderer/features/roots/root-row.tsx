import { useId, useState } from 'react';
import type { RootView } from '../../../shared/domain/roots';
import { useBerth } from '../../store';
import { BroadFolderWarning } from './broad-folder-warning';
import { asSentence, needsBroadConfirmation } from './roots-model';
import { Button, Chip, IconButton } from '../../ui/controls';
import { CheckIcon, CloseIcon, EditIcon, FolderIcon, TrashIcon, WarningIcon } from '../../ui/icons';
import { Row } from '../../ui/list';
import { useT } from '../../i18n/use-t';
import { T } from '../../i18n/t';
import { failureText, hostText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';

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
  const [broadWarning, setBroadWarning] = useState<Failure>();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(root.name);
  // A refusal is kept as the host's failure and worded as it renders; the form's own check is a catalog id.
  const [error, setError] = useState<Failure | 'roots.row.nameRequired'>();
  const [busy, setBusy] = useState(false);
  const t = useT();
  // Why the folder cannot be given to servers, in the person's language (its code), else the host's English.
  const problem = root.problem === undefined ? undefined : asSentence(hostText(root.problemMessage, root.problem));

  const startEditing = () => {
    setName(root.name);
    setError(undefined);
    setEditing(true);
  };
  const save = async () => {
    const trimmed = name.trim();
    if (trimmed === '') {
      setError('roots.row.nameRequired');
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
    else setError(result);
  };
  const shareNewTarget = async (confirmBroad = false) => {
    setBusy(true);
    const result = await confirmRootTarget(root.id, confirmBroad);
    setBusy(false);
    setBroadWarning(undefined);
    if (result.ok) setError(undefined);
    else if (needsBroadConfirmation(result)) setBroadWarning(result);
    else setError(result);
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
              aria-label={t('roots.row.newName', { name: root.name })}
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
            <IconButton label={t('roots.row.saveName')} icon={<CheckIcon />} type="submit" disabled={busy} />
            <IconButton label={t('roots.row.cancelRename')} icon={<CloseIcon />} onClick={() => setEditing(false)} />
          </form>
        ) : (
          <div className="root-title">
            <span className="root-name">{root.name}</span>
            {root.missing ? (
              <Chip tone="danger">{root.retarget ? t('roots.row.linkChangedChip') : t('roots.row.missingChip')}</Chip>
            ) : null}
          </div>
        )}
        {error ? (
          <p className="field-error" role="alert">
            {typeof error === 'string' ? t(error) : failureText(error)}
          </p>
        ) : null}
        <span className="root-path" id={pathId} title={root.path}>
          {root.path}
        </span>
        {root.linkPath ? (
          <span className="root-link" data-testid="root-link">
            <T id="roots.row.pickedAs" values={{ link: root.linkPath }} components={{ code: <code /> }} />
          </span>
        ) : null}
        {root.missing && root.retarget ? (
          <div className="root-problem" data-testid="root-problem">
            <p>{problem ? t('roots.row.retargetProblem', { problem }) : t('roots.row.retarget')}</p>
            <Button size="sm" onClick={() => void shareNewTarget()} disabled={busy}>
              {t('roots.row.shareInstead', { path: root.retarget })}
            </Button>
          </div>
        ) : root.missing ? (
          <p className="root-problem" data-testid="root-problem">
            {problem ? t('roots.row.missingProblem', { problem }) : t('roots.row.missing')}
          </p>
        ) : null}
        {broadWarning ? (
          <BroadFolderWarning
            warning={broadWarning}
            busy={busy}
            onConfirm={() => void shareNewTarget(true)}
            onCancel={() => setBroadWarning(undefined)}
            cancelLabel={t('roots.row.keepHeldBack')}
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
            aria-label={t('roots.row.renameLabel', { name: root.name })}
          >
            {t('roots.row.rename')}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            icon={<TrashIcon />}
            onClick={() => void removeRoot(root.id)}
            aria-label={t('roots.row.removeLabel', { name: root.name })}
          >
            {t('roots.row.remove')}
          </Button>
        </div>
      )}
    </Row>
  );
}
