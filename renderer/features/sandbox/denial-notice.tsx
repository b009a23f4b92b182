import clsx from 'clsx';
import { useState } from 'react';
import type { SandboxDenial } from '../../../shared/domain/sandbox';
import { useBerth } from '../../store';
import { Button, InlineAlert } from '../../ui/controls';
import { ShieldIcon } from '../../ui/icons';
import { denialActionLabel, denialSentence, neverSentence } from './sandbox-words';
import { useSandboxDenials, useSandboxModel } from './use-sandbox';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import { DialogFooter } from '../../ui/dialog';
import { AlertDialog, AlertDialogCancel, AlertDialogDescription, AlertDialogTitle } from '../../ui/alert-dialog';
import type { Failure } from '../../../shared/result';

/** The newest denial of a server that the person can still act on (or the newest at all). */
export function latestDenial(denials: readonly SandboxDenial[]): SandboxDenial | undefined {
  for (let i = denials.length - 1; i >= 0; i--) if (denials[i]!.fix !== undefined) return denials[i];
  return denials.at(-1);
}

/** What was blocked, with its one fix: on the server's card and at the top of its detail. */
export function ServerDenialNotice({ server, compact = false }: { server: string; compact?: boolean }) {
  const t = useT();
  const denial = latestDenial(useSandboxDenials(server));
  if (denial === undefined) return null;
  return (
    <div
      className={clsx('sandbox-denial', compact && 'compact')}
      role="group"
      aria-label={t('sandbox.denial.label', { server })}
      data-testid="sandbox-denial"
    >
      <ShieldIcon />
      <span className="sandbox-denial-text">{denialSentence(denial)}</span>
      {denial.fix === undefined ? (
        compact ? null : (
          <span className="muted">{neverSentence(denial)}</span>
        )
      ) : (
        <AllowButton denial={denial} />
      )}
    </div>
  );
}

/**
 * The one action a denial offers, behind a confirmation that says exactly
 * what changes: which folder or domain is added for which server, and that
 * the server restarts.
 */
export function AllowButton({ denial, size = 'sm' }: { denial: SandboxDenial; size?: 'sm' | 'xs' }) {
  const t = useT();
  const model = useSandboxModel();
  const pushToast = useBerth((s) => s.pushToast);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Failure>();
  const label = denialActionLabel(denial);
  if (label === undefined || denial.fix === undefined) return null;
  const folder = 'folder' in denial.fix ? denial.fix.folder : undefined;
  const target = folder ?? ('domain' in denial.fix ? denial.fix.domain : '');

  async function confirm() {
    setBusy(true);
    const result = await model.allow(denial);
    setBusy(false);
    if (!result.ok) return setError(result);
    setOpen(false);
    pushToast({
      tone: 'success',
      title: t(folder !== undefined ? 'sandbox.allow.toastFolder' : 'sandbox.allow.toastDomain', {
        server: denial.server,
        target,
      }),
      message: t('sandbox.allow.toastRestarting'),
    });
  }

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setError(undefined);
        setOpen(next);
      }}
      className="dialog-narrow"
      trigger={
        <Button size="sm" className={clsx('sandbox-allow', size === 'xs' && 'xs')}>
          {label}
        </Button>
      }
    >
      <AlertDialogTitle>
        {t(folder !== undefined ? 'sandbox.allow.titleFolder' : 'sandbox.allow.titleDomain', {
          server: denial.server,
        })}
      </AlertDialogTitle>
      <AlertDialogDescription>
        {t(folder !== undefined ? 'sandbox.allow.whatFolder' : 'sandbox.allow.whatDomain')}
      </AlertDialogDescription>
      <p className="sandbox-allow-target mono">{target}</p>
      {denial.source === 'server' ? <p className="muted">{t('sandbox.words.claim')}</p> : null}
      {error !== undefined ? <InlineAlert>{failureText(error)}</InlineAlert> : null}
      <DialogFooter>
        <AlertDialogCancel>
          <Button variant="ghost">{t('sandbox.action.cancel')}</Button>
        </AlertDialogCancel>
        <Button variant="primary" disabled={busy} onClick={() => void confirm()}>
          {t(busy ? 'sandbox.allow.busy' : 'sandbox.allow.confirm')}
        </Button>
      </DialogFooter>
    </AlertDialog>
  );
}
