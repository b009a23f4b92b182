import { useState } from 'react';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { WarningIcon } from '../../ui/icons';
import { Dialog, DialogBody, DialogHeader } from '../../ui/dialog';
import { useT } from '../../i18n/use-t';
import { HostMessageText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';
import { words } from '../../i18n/words';

/**
 * The host's warning about sharing a folder as broad as `/` or the home
 * folder, and the explicit yes it needs. Nothing is shared until the person
 * presses the danger button; "Pick another folder" is the easy way out.
 */
export function BroadFolderWarning({
  warning,
  busy,
  onConfirm,
  onCancel,
  cancelLabel,
}: {
  /** The host's refusal at `confirmBroad`: its code is worded here, so a language switch re-words it. */
  warning: Pick<Failure, 'message' | 'hostMessage'>;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** The easy way out's words; "Pick another folder" when not given. */
  cancelLabel?: string;
}) {
  const t = useT();
  return (
    <div className="broad-folder-warning" role="alert" data-testid="broad-folder-warning">
      <WarningIcon />
      <div className="broad-folder-text">
        <p className="broad-folder-title">{t('roots.broad.title')}</p>
        <p>
          <HostMessageText message={warning.hostMessage} fallback={warning.message} />
        </p>
        <div className="broad-folder-actions">
          <Button size="sm" variant="ghost" onClick={onCancel} disabled={busy}>
            {cancelLabel ?? t('roots.broad.pickAnother')}
          </Button>
          <Button size="sm" variant="danger" onClick={onConfirm} disabled={busy}>
            {t('roots.broad.shareAnyway')}
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
  pick: { path: string; warning: Failure } | undefined;
  onDone: () => void;
}) {
  const addRoot = useBerth((s) => s.addRoot);
  const pushToast = useBerth((s) => s.pushToast);
  const toastFailure = useBerth((s) => s.toastFailure);
  const [busy, setBusy] = useState(false);
  const t = useT();
  const confirm = async () => {
    if (pick === undefined) return;
    setBusy(true);
    const added = await addRoot(pick.path, undefined, true);
    setBusy(false);
    if (added.ok) pushToast({ tone: 'success', title: words('roots.broad.added', { name: added.value.name }) });
    else toastFailure(words('roots.broad.addFailed'), added);
    onDone();
  };
  return (
    <Dialog open={pick !== undefined} onOpenChange={(open) => !open && onDone()} aria-describedby={undefined}>
      <DialogHeader title={t('roots.broad.dialogTitle')} />
      <DialogBody>
        {pick ? (
          <BroadFolderWarning
            warning={pick.warning}
            busy={busy}
            onConfirm={() => void confirm()}
            onCancel={onDone}
            cancelLabel={t('roots.broad.dontAdd')}
          />
        ) : null}
      </DialogBody>
    </Dialog>
  );
}
