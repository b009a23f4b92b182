import { Button } from '../../ui/controls';
import { DialogFooter } from '../../ui/dialog';
import { AlertDialog, AlertDialogCancel, AlertDialogDescription, AlertDialogTitle } from '../../ui/alert-dialog';

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
  return (
    <AlertDialog
      open
      onOpenChange={(open) => !open && onCancel()}
      className="dialog-narrow keep-approvals-dialog"
      aria-describedby="keep-approvals-description"
    >
      <AlertDialogTitle>Keep what you approved for “{name}”?</AlertDialogTitle>
      <AlertDialogDescription id="keep-approvals-description">
        {remote
          ? `You changed the address of “${name}”: it may be a different server now.`
          : `You changed how Berth starts “${name}” (its command, arguments or working folder): it may be a different program now.`}{' '}
        It holds:
      </AlertDialogDescription>
      <ul className="keep-approvals-list">
        {approvals.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="field-hint">
        Keep them only if this is the same server, moved or upgraded. Otherwise Berth revokes them and asks before its
        next tool call or folder access. Sampling allowed for this session ends either way, as the server restarts.
      </p>
      <DialogFooter className="keep-approvals-footer">
        <AlertDialogCancel>
          <Button variant="ghost" disabled={busy}>
            Back to editing
          </Button>
        </AlertDialogCancel>
        <Button onClick={() => onAnswer('keep')} disabled={busy}>
          Keep approvals
        </Button>
        <Button variant="primary" onClick={() => onAnswer('revoke')} disabled={busy}>
          Revoke and ask again
        </Button>
      </DialogFooter>
    </AlertDialog>
  );
}
