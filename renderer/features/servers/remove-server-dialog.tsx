import { useState } from 'react';
import { useBerth } from '../../store';
import { Button, InlineAlert } from '../../ui/controls';
import { DialogFooter } from '../../ui/dialog';
import { AlertDialog, AlertDialogCancel, AlertDialogDescription, AlertDialogTitle } from '../../ui/alert-dialog';

/** Confirmation before a server leaves the config; names the server so the wrong one is not removed. */
export function RemoveServerDialog({
  name,
  open,
  onOpenChange,
}: {
  name: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const removeServer = useBerth((s) => s.removeServer);
  const pushToast = useBerth((s) => s.pushToast);
  const bundle = useBerth((s) => s.servers[name]?.config.bundle);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    const result = await removeServer(name);
    setBusy(false);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    onOpenChange(false);
    pushToast({ tone: 'success', title: `Removed “${name}”` });
  }

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setError(undefined);
        onOpenChange(next);
      }}
      className="dialog-narrow"
    >
      <AlertDialogTitle>Remove “{name}”?</AlertDialogTitle>
      <AlertDialogDescription>
        Berth stops the server (with every process it started), deletes its entry from the config file and revokes its
        tool permissions and folder access: a server added later under this name starts with none. Its logs stay until
        you clear them.
        {bundle !== undefined
          ? ` It was installed from the bundle ${bundle.name} ${bundle.version}: its folder and the settings stored as secrets are deleted too.`
          : null}
      </AlertDialogDescription>
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      <DialogFooter>
        <AlertDialogCancel>
          <Button variant="ghost">Cancel</Button>
        </AlertDialogCancel>
        {/* Not AlertDialog.Action: that closes at once, and a failure must stay visible here. */}
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? 'Removing…' : `Remove ${name}`}
        </Button>
      </DialogFooter>
    </AlertDialog>
  );
}
