import { useEffect, useState } from 'react';
import type { InstalledFrom } from '../../../shared/domain/server';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { useT } from '../../i18n/use-t';

/**
 * Where an installed server came from, and — when its registry now has a
 * newer version — "Update available" with the update one click away (the
 * config is rewritten for it; answers and secrets are kept).
 */
export function RegistryOrigin({ server, from }: { server: string; from: InstalledFrom }) {
  const t = useT();
  const transport = useBerth((s) => s.appsTransport);
  const pushToast = useBerth((s) => s.pushToast);
  const [latest, setLatest] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    setLatest(undefined);
    void transport.call('registry.updates', {}).then((result) => {
      if (!current || !result.ok) return;
      setLatest(result.value.updates.find((update) => update.server === server)?.latest);
    });
    return () => {
      current = false;
    };
  }, [transport, server, from.version]);

  async function update(version: string) {
    setBusy(true);
    const result = await transport.call('registry.update', { server });
    setBusy(false);
    if (result.ok)
      pushToast({
        tone: 'success',
        title: t('servers.registry.updatedTitle', { server, version: result.value.version }),
        message: t('servers.registry.updatedMessage'),
      });
    else
      pushToast({
        tone: 'error',
        title: t('servers.registry.updateFailed', { server, version }),
        message: result.message,
        ...(result.hostMessage === undefined ? {} : { hostMessage: result.hostMessage }),
      });
  }

  return (
    <>
      <code className="wrap">{from.name}</code> <span className="muted">{from.version}</span>
      {latest !== undefined ? (
        <span className="registry-update">
          <Chip tone="accent">{t('servers.registry.available', { version: latest })}</Chip>
          <Button size="sm" disabled={busy} onClick={() => void update(latest)}>
            {busy ? t('servers.registry.updating') : t('servers.registry.updateTo', { version: latest })}
          </Button>
        </span>
      ) : null}
    </>
  );
}
