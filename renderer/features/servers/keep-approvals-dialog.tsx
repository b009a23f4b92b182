import { AlertDialog } from 'radix-ui';
import { Button } from '../../ui/controls';

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
    <AlertDialog.Root open onOpenChange={(open) => !open && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog dialog-narrow keep-approvals-dialog" aria-describedby="keep-approvals-description">
          <AlertDialog.Title className="dialog-title">Keep what you approved for “{name}”?</AlertDialog.Title>
          <AlertDialog.Description id="keep-approvals-description" className="dialog-description">
            {remote
              ? `You changed the address of “${name}”: it may be a different server now.`
              : `You changed how Berth starts “${name}” (its command, arguments or working folder): it may be a different program now.`}{' '}
            It holds:
          </AlertDialog.Description>
          <ul className="keep-approvals-list">
            {approvals.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="field-hint">
            Keep them only if this is the same server, moved or upgraded. Otherwise Berth revokes them and asks before its next tool call or folder
            access. Sampling allowed for this session ends either way, as the server restarts.
          </p>
          <div className="dialog-footer keep-approvals-footer">
            <AlertDialog.Cancel asChild>
              <Button variant="ghost" disabled={busy}>
                Back to editing
              </Button>
            </AlertDialog.Cancel>
            <Button onClick={() => onAnswer('keep')} disabled={busy}>
              Keep approvals
            </Button>
            <Button variant="primary" onClick={() => onAnswer('revoke')} disabled={busy}>
              Revoke and ask again
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
