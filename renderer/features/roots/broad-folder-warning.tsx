import { useState } from 'react';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { WarningIcon } from '../../ui/icons';
import { Dialog, DialogBody, DialogHeader } from '../../ui/dialog';

/**
 * The host's warning about sharing a folder as broad as `/` or the home
 * folder, and the explicit yes it needs. Nothing is shared until the person
 * presses the danger button; "Pick another folder" is the easy way out.
 */
export function BroadFolderWarning({
  message,
  busy,
  onConfirm,
  onCancel,
  cancelLabel = 'Pick another folder',
}: {
  message: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  cancelLabel?: string;
}) {
  return (
    <div className="broad-folder-warning" role="alert" data-testid="broad-folder-warning">
      <WarningIcon />
      <div className="broad-folder-text">
        <p className="broad-folder-title">Share everything in this folder?</p>
        <p>{message}</p>
        <div className="broad-folder-actions">
          <Button size="sm" variant="ghost" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button size="sm" variant="danger" onClick={onConfirm} disabled={busy}>
            Share it anyway
          </Button>
        </div>
      </div>
    </div>
  );
}

/** The desktop's folder dialog picked a folder as broad as / or home: ask before adding it. */
export function ConfirmBroadRootDialog({
  pick,
  onDone,
}: {
  pick: { path: string; warning: string } | undefined;
  onDone: () => void;
}) {
  const addRoot = useBerth((s) => s.addRoot);
  const pushToast = useBerth((s) => s.pushToast);
  const toastFailure = useBerth((s) => s.toastFailure);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (pick === undefined) return;
    setBusy(true);
    const added = await addRoot(pick.path, undefined, true);
    setBusy(false);
    if (added.ok) pushToast({ tone: 'success', title: `Added “${added.value.name}”` });
    else toastFailure('Could not add the folder', added);
    onDone();
  };
  return (
    <Dialog open={pick !== undefined} onOpenChange={(open) => !open && onDone()} aria-describedby={undefined}>
      <DialogHeader title="Add a workspace root" />
      <DialogBody>
        {pick ? (
          <BroadFolderWarning
            message={pick.warning}
            busy={busy}
            onConfirm={() => void confirm()}
            onCancel={onDone}
            cancelLabel="Don’t add it"
          />
        ) : null}
      </DialogBody>
    </Dialog>
  );
}
