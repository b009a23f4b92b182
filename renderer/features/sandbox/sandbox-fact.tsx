import type { ServerState } from '../../../shared/domain';
import { Button, Chip } from '../../ui/controls';
import { useSandbox } from './use-sandbox';

/** The Overview's one line about the sandbox: on or off, its network, and the way to its tab. */
export function SandboxFact({ server, onShowSandbox }: { server: ServerState; onShowSandbox: () => void }) {
  const settings = useSandbox((s) => s.settings[server.name]);
  const available = useSandbox((s) => s.support?.available);
  if (server.config.command === undefined) return null;
  const on = settings?.enabled === true;
  const network =
    settings === undefined || settings.allowedDomains.length === 0
      ? 'no network'
      : `network only to ${settings.allowedDomains.join(', ')}`;
  return (
    <>
      <dt>Sandbox</dt>
      <dd className="fact-row" data-testid="sandbox-fact">
        {on ? <Chip tone="success">Sandboxed</Chip> : <Chip tone="warning">Not sandboxed</Chip>}
        <span className="muted">
          {on ? network : available === false ? 'unavailable on this machine' : 'runs with every right of your account'}
        </span>
        <Button size="sm" variant="ghost" onClick={onShowSandbox}>
          Sandbox settings
        </Button>
      </dd>
    </>
  );
}
