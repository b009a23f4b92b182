import { useId, useState } from 'react';
import type { PendingRequest } from '../../../shared/domain/pending';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { SafeName } from '../shell/safe-name';
import { T } from '../../i18n/t';
import { failureText } from '../../i18n/host-message';
import { useT } from '../../i18n/use-t';
import type { Failure } from '../../../shared/result';

/** A sampling question of `server`: a review or an answer, the two the "Decline all" ends. */
export function isSamplingFrom(request: PendingRequest, server: string): boolean {
  return request.server === server && (request.kind === 'sampling' || request.kind === 'sampling-answer');
}

/**
 * Above a sampling review when the same server has more waiting: a server
 * flooding requests leaves the person one action, "Decline all", instead of a
 * dialog per request, and the choice to refuse the server for the rest of
 * the session. Each request is declined with MCP's user-rejected error.
 */
export function SamplingFloodBar({ server }: { server: string }) {
  const waiting = useBerth((s) => s.pending.filter((request) => isSamplingFrom(request, server)).length);
  const t = useT();
  const declineAll = useBerth((s) => s.declineAllSampling);
  const [refuse, setRefuse] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Failure>();
  const ids = { text: useId(), refuse: useId() };
  if (waiting < 2) return null;
  const more = waiting - 1;

  const decline = async () => {
    setBusy(true);
    setError(undefined);
    const result = await declineAll(server, refuse);
    // On success the queue empties and this bar goes with the dialog.
    setBusy(false);
    if (!result.ok) setError(result);
  };

  return (
    <div className="sampling-flood" role="group" aria-labelledby={ids.text} data-testid="sampling-flood">
      <p className="sampling-flood-text" id={ids.text}>
        <T
          id="pending.flood.waiting"
          values={{ more }}
          components={{ count: <strong />, server: <SafeName name={server} /> }}
        />
      </p>
      <label className="check-inline" htmlFor={ids.refuse}>
        <input id={ids.refuse} type="checkbox" checked={refuse} onChange={(e) => setRefuse(e.target.checked)} />
        {t('pending.flood.refuse')}
      </label>
      <Button variant="danger" size="sm" onClick={() => void decline()} disabled={busy}>
        {/* One inline run: the button is a flex row, whose gap would split the sentence around the name. */}
        <span>
          <T
            id="pending.flood.declineAll"
            values={{ count: waiting }}
            components={{ server: <SafeName name={server} /> }}
          />
        </span>
      </Button>
      {error !== undefined ? (
        <p className="sampling-flood-error" role="alert">
          {t('pending.flood.failed', { error: failureText(error) })}
        </p>
      ) : null}
    </div>
  );
}
