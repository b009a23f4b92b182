import { Button } from '../../ui/controls';
import { DialogFooter } from '../../ui/dialog';
import { AlertDialog, AlertDialogCancel, AlertDialogDescription, AlertDialogTitle } from '../../ui/alert-dialog';
import { useT } from '../../i18n/use-t';

export type ApprovalsAnswer = 'keep' | 'revoke';

/**
 * Asked when an edit gives a server another command, arguments, working
 * folder or address while it holds approvals: a different program must not
 * inherit them unless the person says so. "Ask again" is the primary choice.
 */
export function KeepApprovalsDialog({
  name,
  remote,
  approvals,
  busy,
  onAnswer,
  onCancel,
}: {
  name: string;
  remote: boolean;
  approvals: string[];
  busy: boolean;
  onAnswer: (answer: ApprovalsAnswer) => void;
  onCancel: () => void;
}) {
  const t = useT();
  return (
    <AlertDialog
      open
      onOpenChange={(open) => !open && onCancel()}
      className="dialog-narrow keep-approvals-dialog"
      aria-describedby="keep-approvals-description"
    >
      <AlertDialogTitle>{t('servers.keep.title', { server: name })}</AlertDialogTitle>
      <AlertDialogDescription id="keep-approvals-description">
        {t(remote ? 'servers.keep.remote' : 'servers.keep.local', { server: name })}
      </AlertDialogDescription>
      <ul className="keep-approvals-list">
        {approvals.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="field-hint">{t('servers.keep.hint')}</p>
      <DialogFooter className="keep-approvals-footer">
        <AlertDialogCancel>
          <Button variant="ghost" disabled={busy}>
            {t('servers.keep.back')}
          </Button>
        </AlertDialogCancel>
        <Button onClick={() => onAnswer('keep')} disabled={busy}>
          {t('servers.keep.keep')}
        </Button>
        <Button variant="primary" onClick={() => onAnswer('revoke')} disabled={busy}>
          {t('servers.keep.revoke')}
        </Button>
      </DialogFooter>
    </AlertDialog>
  );
}
