import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import type { ServerState } from '../../../shared/domain';
import { useBerth } from '../../store';
import { IconButton, WithTooltip } from '../../ui/controls';
import { Switch } from '../../ui/switch';
import { EditIcon, KeyIcon, LogsIcon, MoreIcon, PlayIcon, RestartIcon, StopIcon, TrashIcon } from '../../ui/icons';
import { RemoveServerDialog } from './remove-server-dialog';
import { usesOAuth } from './sign-in-button';
import { useT } from '../../i18n/use-t';

const RUNNING = new Set(['starting', 'ready', 'restarting']);

/** Start/stop/restart, the enabled switch and a menu with edit, logs and remove. */
export function ServerActions({ server }: { server: ServerState }) {
  const t = useT();
  const startServer = useBerth((s) => s.startServer);
  const stopServer = useBerth((s) => s.stopServer);
  const restartServer = useBerth((s) => s.restartServer);
  const setServerEnabled = useBerth((s) => s.setServerEnabled);
  const openServerForm = useBerth((s) => s.openServerForm);
  const showLogsFor = useBerth((s) => s.showLogsFor);
  const signOutServer = useBerth((s) => s.signOutServer);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const running = RUNNING.has(server.status);
  const { name } = server;

  return (
    <div className="server-actions" onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
      {running ? (
        <IconButton
          label={t('servers.actions.stop', { server: name })}
          icon={<StopIcon />}
          onClick={() => void stopServer(name)}
        />
      ) : (
        <IconButton
          label={t('servers.actions.start', { server: name })}
          icon={<PlayIcon />}
          onClick={() => void startServer(name)}
        />
      )}
      <IconButton
        label={t('servers.actions.restart', { server: name })}
        icon={<RestartIcon />}
        onClick={() => void restartServer(name)}
      />
      <WithTooltip content={t(server.config.enabled ? 'servers.actions.enabledTip' : 'servers.actions.disabledTip')}>
        <span className="switch-wrap">
          <Switch
            checked={server.config.enabled}
            label={t('servers.actions.enabled', { server: name })}
            onCheckedChange={(enabled) => void setServerEnabled(name, enabled)}
          />
        </span>
      </WithTooltip>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger asChild>
          <IconButton label={t('servers.actions.more', { server: name })} icon={<MoreIcon />} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
            <DropdownMenu.Item className="menu-item" onSelect={() => openServerForm({ mode: 'edit', name })}>
              <EditIcon /> {t('servers.actions.edit')}
            </DropdownMenu.Item>
            <DropdownMenu.Item className="menu-item" onSelect={() => showLogsFor(name)}>
              <LogsIcon /> {t('servers.actions.viewLogs')}
            </DropdownMenu.Item>
            {usesOAuth(server) ? (
              <DropdownMenu.Item className="menu-item" onSelect={() => void signOutServer(name)}>
                <KeyIcon /> {t('servers.actions.signOut')}
              </DropdownMenu.Item>
            ) : null}
            <DropdownMenu.Separator className="menu-separator" />
            <DropdownMenu.Item className="menu-item menu-item-danger" onSelect={() => setConfirmRemove(true)}>
              <TrashIcon /> {t('servers.actions.remove')}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <RemoveServerDialog name={name} open={confirmRemove} onOpenChange={setConfirmRemove} />
    </div>
  );
}
