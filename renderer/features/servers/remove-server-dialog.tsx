import { useState } from 'react';
import { useBerth } from '../../store';
import { Button, InlineAlert } from '../../ui/controls';
import { DialogFooter } from '../../ui/dialog';
import { AlertDialog, AlertDialogCancel, AlertDialogDescription, AlertDialogTitle } from '../../ui/alert-dialog';
import { useT } from '../../i18n/use-t';
import { failureWords, words, type Words } from '../../i18n/words';
import { WordsText } from '../../i18n/words-text';

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
  const t = useT();
  const removeServer = useBerth((s) => s.removeServer);
  const pushToast = useBerth((s) => s.pushToast);
  const bundle = useBerth((s) => s.servers[name]?.config.bundle);
  const [error, setError] = useState<Words>();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    const result = await removeServer(name);
    setBusy(false);
    if (!result.ok) {
      setError(failureWords(result));
      return;
    }
    onOpenChange(false);
    pushToast({ tone: 'success', title: words('servers.remove.toast', { server: name }) });
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
      <AlertDialogTitle>{t('servers.remove.title', { server: name })}</AlertDialogTitle>
      <AlertDialogDescription>
        {t('servers.remove.body', {
          installed: bundle !== undefined ? 'yes' : 'no',
          bundle: bundle?.name ?? '',
          version: bundle?.version ?? '',
        })}
      </AlertDialogDescription>
      {error ? (
        <InlineAlert>
          <WordsText words={error} />
        </InlineAlert>
      ) : null}
      <DialogFooter>
        <AlertDialogCancel>
          <Button variant="ghost">{t('servers.remove.cancel')}</Button>
        </AlertDialogCancel>
        {/* Not AlertDialog.Action: that closes at once, and a failure must stay visible here. */}
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? t('servers.remove.removing') : t('servers.remove.confirm', { server: name })}
        </Button>
      </DialogFooter>
    </AlertDialog>
  );
}
