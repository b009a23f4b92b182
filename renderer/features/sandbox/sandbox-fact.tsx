import type { ServerState } from '../../../shared/domain';
import { Button, Chip } from '../../ui/controls';
import { useSandbox } from './use-sandbox';
import { useT } from '../../i18n/use-t';

/** The Overview's one line about the sandbox: on or off, its network, and the way to its tab. */
export function SandboxFact({ server, onShowSandbox }: { server: ServerState; onShowSandbox: () => void }) {
  const t = useT();
  const settings = useSandbox((s) => s.settings[server.name]);
  const available = useSandbox((s) => s.support?.available);
  if (server.config.command === undefined) return null;
  const on = settings?.enabled === true;
  const network =
    settings === undefined || settings.allowedDomains.length === 0
      ? t('sandbox.fact.noNetwork')
      : t('sandbox.fact.networkOnly', { domains: settings.allowedDomains.join(', ') });
  return (
    <>
      <dt>{t('sandbox.fact.label')}</dt>
      <dd className="fact-row" data-testid="sandbox-fact">
        {on ? <Chip tone="success">{t('sandbox.chip.on')}</Chip> : <Chip tone="warning">{t('sandbox.chip.off')}</Chip>}
        <span className="muted">
          {on ? network : t(available === false ? 'sandbox.fact.unavailable' : 'sandbox.fact.everyRight')}
        </span>
        <Button size="sm" variant="ghost" onClick={onShowSandbox}>
          {t('sandbox.fact.settings')}
        </Button>
      </dd>
    </>
  );
}
