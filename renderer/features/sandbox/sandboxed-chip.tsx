import type { ServerState } from '../../../shared/domain';
import { Chip } from '../../ui/controls';
import { useSandbox } from './use-sandbox';
import { useT } from '../../i18n/use-t';

/** "Sandboxed" on a server's card, so which servers run contained is visible at a glance. */
export function SandboxedChip({ server }: { server: Pick<ServerState, 'name' | 'config'> }) {
  const t = useT();
  const enabled = useSandbox((s) => s.settings[server.name]?.enabled === true);
  if (!enabled || server.config.command === undefined) return null;
  return (
    <Chip tone="success" title={t('sandbox.chip.title')}>
      {t('sandbox.chip.on')}
    </Chip>
  );
}
