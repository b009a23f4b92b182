import { useState } from 'react';
import { Button } from '../../ui/controls';
import { SAFE_CHOICE } from '../../ui/dialog-focus';
import { FolderIcon } from '../../ui/icons';
import { PendingFrame, type PendingDialogProps } from './pending-frame';
import { SafeName } from '../shell/safe-name';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';

/**
 * A server asked for its roots and has never been shown some of them. Every
 * folder starts checked: the person added each one as a root precisely so
 * servers could work in it, and a server that already runs is expected to see
 * them. The choice is still explicit: nothing is shared until "Allow selected",
 * and closing the dialog (Esc, the X) shares nothing.
 */
export function RootConsentDialog({ request, answer, busy, error }: PendingDialogProps<'root-consent'>) {
  const t = useT();
  const { roots } = request.payload;
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set(roots.map((r) => r.id)));
  const toggle = (id: string, on: boolean) =>
    setChecked((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const selected = roots.filter((r) => checked.has(r.id)).map((r) => r.id);

  return (
    <PendingFrame
      request={request}
      icon={<FolderIcon />}
      title={
        <T
          id="pending.roots.title"
          values={{ count: roots.length }}
          components={{ server: <SafeName className="consent-server" name={request.server} /> }}
        />
      }
      error={error}
      footer={
        <>
          <Button variant="danger" {...SAFE_CHOICE} onClick={() => void answer({ allow: [] })} disabled={busy}>
            {t('pending.roots.denyAll')}
          </Button>
          <div className="spacer" />
          <Button
            variant="primary"
            onClick={() => void answer({ allow: selected })}
            disabled={busy || selected.length === 0}
          >
            {selected.length === roots.length
              ? t('pending.roots.allowAll')
              : t('pending.roots.allowSelected', { count: selected.length })}
          </Button>
        </>
      }
    >
      <p className="root-consent-intro">{t('pending.roots.intro')}</p>
      <ul className="root-consent-list" aria-label={t('pending.roots.list')}>
        {roots.map((root) => (
          <li key={root.id}>
            <label className="root-consent-item">
              <input
                type="checkbox"
                checked={checked.has(root.id)}
                disabled={busy}
                onChange={(event) => toggle(root.id, event.target.checked)}
              />
              <FolderIcon />
              <span className="root-consent-text">
                <span className="root-name">{root.name}</span>
                <span className="root-path">{root.path}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {selected.length === 0 ? <p className="field-hint">{t('pending.roots.nothing')}</p> : null}
    </PendingFrame>
  );
}
