import { useState } from 'react';
import type { ServerState } from '../../../shared/domain';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { ShieldIcon } from '../../ui/icons';
import { useSandbox, useSandboxModel } from './use-sandbox';
import { useT } from '../../i18n/use-t';
import { failureWords, words } from '../../i18n/words';

/**
 * Whether Berth should offer the sandbox to this server now: a local server
 * that runs without it, on a machine that has it, and was never offered
 * (the answer, either way, is stored by the host as `offered`).
 */
export function shouldOffer(
  server: Pick<ServerState, 'config'>,
  settings: { enabled: boolean; offered: boolean } | undefined,
  available: boolean | undefined,
): boolean {
  if (server.config.command === undefined || available !== true || settings === undefined) return false;
  return !settings.enabled && !settings.offered;
}

/**
 * The one-time offer on an existing server's detail. "Not now" is
 * remembered like "Turn it on": Berth asks once per server, then the
 * Sandbox tab is where the person changes their mind.
 */
export function SandboxOffer({ server, onShowSandbox }: { server: ServerState; onShowSandbox?: () => void }) {
  const t = useT();
  const model = useSandboxModel();
  const settings = useSandbox((s) => s.settings[server.name]);
  const available = useSandbox((s) => s.support?.available);
  const pushToast = useBerth((s) => s.pushToast);
  const [busy, setBusy] = useState(false);
  if (!shouldOffer(server, settings, available)) return null;

  async function answer(enabled: boolean) {
    setBusy(true);
    const result = await model.setSettings(server.name, enabled ? { enabled: true, offered: true } : { offered: true });
    setBusy(false);
    if (!result.ok)
      return pushToast({
        tone: 'error',
        title: words('sandbox.offer.failed', { server: server.name }),
        message: failureWords(result),
      });
    if (enabled) {
      pushToast({
        tone: 'success',
        title: words('sandbox.toast.on', { server: server.name }),
        message: words('sandbox.offer.onHint'),
      });
      onShowSandbox?.();
    }
  }

  return (
    <aside className="sandbox-offer" aria-label={t('sandbox.offer.label')} data-testid="sandbox-offer">
      <ShieldIcon />
      <div className="sandbox-offer-text">
        <strong>{t('sandbox.offer.title', { server: server.name })}</strong>
        <span>{t(server.status === 'ready' ? 'sandbox.offer.bodyNow' : 'sandbox.offer.bodyLater')}</span>
      </div>
      <div className="sandbox-offer-actions">
        <Button size="sm" variant="ghost" disabled={busy} onClick={() => void answer(false)}>
          {t('sandbox.offer.notNow')}
        </Button>
        <Button size="sm" variant="primary" disabled={busy} onClick={() => void answer(true)}>
          {t('sandbox.offer.turnOn')}
        </Button>
      </div>
    </aside>
  );
}
