import { useState } from 'react';
import type { ServerState } from '../../../shared/domain';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { ShieldIcon } from '../../ui/icons';
import { useSandbox, useSandboxModel } from './use-sandbox';

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
        title: `Could not change the sandbox of “${server.name}”`,
        message: result.message,
      });
    if (enabled) {
      pushToast({
        tone: 'success',
        title: `“${server.name}” runs in the sandbox`,
        message: 'If it needs a folder or a domain, Berth shows what was blocked with a button to allow it.',
      });
      onShowSandbox?.();
    }
  }

  return (
    <aside className="sandbox-offer" aria-label="Sandbox offer" data-testid="sandbox-offer">
      <ShieldIcon />
      <div className="sandbox-offer-text">
        <strong>Run “{server.name}” in the OS sandbox?</strong>
        <span>
          It would change files only in its roots and its own folders, read none of your credentials, and reach no
          network until you list a domain. It restarts
          {server.status === 'ready' ? ' now' : ' when it next starts'}. Berth asks once.
        </span>
      </div>
      <div className="sandbox-offer-actions">
        <Button size="sm" variant="ghost" disabled={busy} onClick={() => void answer(false)}>
          Not now
        </Button>
        <Button size="sm" variant="primary" disabled={busy} onClick={() => void answer(true)}>
          Turn on the sandbox
        </Button>
      </div>
    </aside>
  );
}
