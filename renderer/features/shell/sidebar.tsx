import type { ReactNode } from 'react';
import clsx from 'clsx';
import { useShallow } from 'zustand/react/shallow';
import { countRunningTasks, sortServers, useBerth, type View } from '../../store';
import { StatusDot, shownStatus, statusLabel } from '../servers/status-badge';
import { useNow } from '../servers/use-now';
import { ProtocolChip } from '../servers/protocol-chip';
import { Button } from '../../ui/controls';
import {
  BrandIcon,
  ChatIcon,
  FolderIcon,
  InboxIcon,
  LogsIcon,
  PlusIcon,
  SearchIcon,
  ServerIcon,
  SettingsIcon,
  TasksIcon,
} from '../../ui/icons';
import { formatNumber } from '../../i18n/format';
import { useT } from '../../i18n/use-t';

/** The views, the servers and the app's version; folded, only the views' icons (named, with tooltips). */
export function Sidebar({ collapsed = false }: { collapsed?: boolean }) {
  const t = useT();
  const view = useBerth((s) => s.view);
  const showView = useBerth((s) => s.showView);
  const servers = useBerth(useShallow((s) => sortServers(s.servers)));
  const selected = useBerth((s) => s.selectedServer);
  const selectServer = useBerth((s) => s.selectServer);
  const openServerForm = useBerth((s) => s.openServerForm);
  const appInfo = useBerth((s) => s.appInfo);
  const logCount = useBerth((s) => s.logs.length);
  const rootCount = useBerth((s) => s.rootsView?.roots.length ?? 0);
  const anyRestarting = servers.some((s) => s.status === 'restarting');
  const now = useNow(anyRestarting);
  const current = view === 'servers' ? (selected ?? servers[0]?.name) : undefined;

  const conversationCount = useBerth((s) => s.conversations.length);
  const runningTasks = useBerth((s) => countRunningTasks(s.tasks));
  const unreadEvents = useBerth((s) => s.inboxUnread);
  // `countLabel`: what the number means, for screen readers and the tooltip (a bare "2" says nothing).
  const nav: {
    id: View;
    label: string;
    icon: ReactNode;
    count?: number;
    countLabel?: string;
    countTitle?: string;
  }[] = [
    { id: 'chat', label: t('shell.view.chat'), icon: <ChatIcon />, count: conversationCount },
    { id: 'servers', label: t('shell.view.servers'), icon: <ServerIcon />, count: servers.length },
    { id: 'discover', label: t('shell.nav.discover'), icon: <SearchIcon /> },
    {
      id: 'tasks',
      label: t('shell.view.tasks'),
      icon: <TasksIcon />,
      count: runningTasks,
      countLabel: t('shell.nav.runningShort'),
      countTitle: t('shell.nav.running', { count: runningTasks }),
    },
    {
      id: 'inbox',
      label: t('events.inbox.title'),
      icon: <InboxIcon />,
      count: unreadEvents,
      countLabel: t('events.nav.unreadShort'),
      countTitle: t('events.nav.unread', { count: unreadEvents }),
    },
    { id: 'roots', label: t('shell.view.roots'), icon: <FolderIcon />, count: rootCount },
    { id: 'logs', label: t('shell.view.logs'), icon: <LogsIcon />, count: logCount },
    { id: 'settings', label: t('shell.view.settings'), icon: <SettingsIcon /> },
  ];

  return (
    <aside className={clsx('sidebar', collapsed && 'collapsed')}>
      <div className="brand">
        <span className="brand-mark">
          <BrandIcon />
        </span>
        <span className="brand-name">Berth</span>
      </div>
      <nav aria-label={t('shell.nav.label')}>
        <ul className="nav">
          {nav.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className={clsx('nav-item', view === item.id && 'active')}
                aria-current={view === item.id ? 'page' : undefined}
                onClick={() => showView(item.id)}
                title={collapsed ? item.label : undefined}
              >
                {item.icon}
                <span className={collapsed ? 'sr-only' : undefined}>{item.label}</span>
                {item.count ? (
                  <span className={clsx('nav-count', item.countLabel && 'nav-count-live')} title={item.countTitle}>
                    {formatNumber(item.count)}
                    {item.countLabel ? <span className="sr-only"> {item.countLabel}</span> : null}
                  </span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="sidebar-section" hidden={collapsed}>
        <span className="sidebar-heading">{t('shell.servers.heading')}</span>
        {servers.length === 0 ? <p className="sidebar-empty">{t('shell.servers.none')}</p> : null}
        <ul className="sidebar-servers" aria-label={t('shell.servers.heading')}>
          {servers.map((server) => (
            <li key={server.name}>
              <button
                type="button"
                className={clsx('sidebar-server', current === server.name && 'active')}
                aria-current={current === server.name ? 'true' : undefined}
                data-server={server.name}
                onClick={() => selectServer(server.name)}
              >
                <StatusDot status={shownStatus(server)} />
                <span className="sidebar-server-text">
                  <span className="sidebar-server-name">{server.name}</span>
                  <span className="sidebar-server-status">{statusLabel(server, now, t)}</span>
                </span>
                {server.status === 'ready' && server.protocolVersion ? (
                  <ProtocolChip className="version-chip" version={server.protocolVersion} />
                ) : null}
              </button>
            </li>
          ))}
        </ul>
        <Button
          size="sm"
          variant="ghost"
          icon={<PlusIcon />}
          className="sidebar-add"
          onClick={() => openServerForm({ mode: 'add' })}
        >
          {t('shell.servers.add')}
        </Button>
      </div>
      <div className="sidebar-foot" hidden={collapsed}>
        {appInfo ? (
          <span title={appInfo.configPath}>
            {t(appInfo.shell === 'browser' ? 'shell.foot.browser' : 'shell.foot.desktop', { version: appInfo.version })}
          </span>
        ) : null}
      </div>
    </aside>
  );
}
