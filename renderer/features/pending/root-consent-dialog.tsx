import { useState } from 'react';
import { Button } from '../../ui/controls';
import { FolderIcon } from '../../ui/icons';
import { PendingFrame, type PendingDialogProps } from './pending-frame';
import { SafeName } from '../shell/safe-name';

/**
 * A server asked for its roots and has never been shown some of them. Every
 * folder starts checked: the person added each one as a root precisely so
 * servers could work in it, and a server that already runs is expected to see
 * them. The choice is still explicit: nothing is shared until "Allow selected",
 * and closing the dialog (Esc, the X) shares nothing.
 */
export function RootConsentDialog({ request, answer, busy, error }: PendingDialogProps<'root-consent'>) {
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
        <>
          <SafeName className="consent-server" name={request.server} /> wants to see{' '}
          {roots.length === 1 ? 'this folder' : 'these folders'}
        </>
      }
      error={error}
      footer={
        <>
          <Button variant="danger" onClick={() => void answer({ allow: [] })} disabled={busy}>
            Deny all
          </Button>
          <div className="spacer" />
          <Button
            variant="primary"
            onClick={() => void answer({ allow: selected })}
            disabled={busy || selected.length === 0}
          >
            {selected.length === roots.length ? 'Allow all' : `Allow ${selected.length} selected`}
          </Button>
        </>
      }
    >
      <p className="root-consent-intro">
        The server asked which folders it may work in. It can read, and may change, the files in the folders you allow.
        Unchecked folders are denied; you can change your answer later in Workspace roots.
      </p>
      <ul className="root-consent-list" aria-label="Folders">
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
      {selected.length === 0 ? (
        <p className="field-hint">Nothing selected: use “Deny all”, or check the folders the server may see.</p>
      ) : null}
    </PendingFrame>
  );
}
