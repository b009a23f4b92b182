import clsx from 'clsx';
import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ServerState } from '../../../shared/domain';
import { serverReason } from '../../../shared/domain/server-state-read';
import { shellLine } from '../../../shared/domain/shell-line';
import { sortServers, useBerth } from '../../store';
import { Button, EmptyState } from '../../ui/controls';
import { ArrowDownIcon, ArrowUpIcon, PlusIcon, ServerIcon } from '../../ui/icons';
import { ImportedNotice } from '../config-import/imported-notice';
import { BundleDropZone, OpenBundleButton } from '../bundles/bundle-entry';
import { ServerActions } from './server-actions';
import { ServerDetail } from './server-detail';
import { SignInState } from './sign-in-button';
import { StatusBadge } from './status-badge';
import { SandboxedChip, ServerDenialNotice } from '../sandbox';
import { HostMessageText, hostText } from '../../i18n/host-message';
import { formatNumber } from '../../i18n/format';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { ProtocolChip } from './protocol-chip';

export function ServersView() {
  const t = useT();
  const servers = useBerth(useShallow((s) => sortServers(s.servers)));
  const loaded = useBerth((s) => s.serversLoaded);
  const selectedName = useBerth((s) => s.selectedServer);
  const openServerForm = useBerth((s) => s.openServerForm);
  const openInteropDialog = useBerth((s) => s.openInteropDialog);
  const pane = useBerth((s) => s.serverPane);
  const showServerList = useBerth((s) => s.showServerList);
  const column = useRef<HTMLElement>(null);
  const detailPanel = useRef<HTMLDivElement>(null);
  // Where the keyboard focus goes once the pane shown in a narrow window has changed.
  const focusNext = useRef<'card' | undefined>(undefined);
  const empty = servers.length === 0;

  // With nothing chosen, show the first server rather than an empty panel.
  const selected = servers.find((s) => s.name === selectedName) ?? servers[0];
  const selectedShown = selected?.name;

  useEffect(() => {
    if (focusNext.current === 'card') {
      focusNext.current = undefined;
      const cards = [...(column.current?.querySelectorAll<HTMLElement>('.server-card') ?? [])];
      cards
        .find((card) => card.dataset.server === selectedShown)
        ?.querySelector<HTMLElement>('.server-card-main')
        ?.focus();
      return;
    }
    // A card pressed in a narrow window hides with the list: the focus moves to the detail's heading, not to <body>.
    const active = document.activeElement;
    if (
      pane === 'detail' &&
      column.current &&
      active instanceof HTMLElement &&
      column.current.contains(active) &&
      getComputedStyle(column.current).display === 'none'
    ) {
      detailPanel.current?.querySelector<HTMLElement>('.detail-name')?.focus();
    }
  }, [pane, selectedShown]);

  if (!loaded) return <div className="view-loading">{t('servers.view.loading')}</div>;
  if (empty || selected === undefined) {
    return (
      <BundleDropZone className="bundle-drop-zone">
        <NoServers />
      </BundleDropZone>
    );
  }

  const back = () => {
    focusNext.current = 'card';
    showServerList();
  };
  return (
    <BundleDropZone className={clsx('servers-view bundle-drop-zone', pane === 'detail' ? 'pane-detail' : 'pane-list')}>
      <section className="server-column" aria-label={t('servers.view.label')} ref={column}>
        <div className="column-head">
          <h2>
            {t('servers.view.label')} <span className="count">{formatNumber(servers.length)}</span>
          </h2>
          <Button size="sm" variant="primary" icon={<PlusIcon />} onClick={() => openServerForm({ mode: 'add' })}>
            {t('servers.view.add')}
          </Button>
        </div>
        <div className="column-tools">
          <Button size="sm" variant="ghost" icon={<ArrowDownIcon />} onClick={() => openInteropDialog('import')}>
            {t('servers.view.import')}
          </Button>
          <Button size="sm" variant="ghost" icon={<ArrowUpIcon />} onClick={() => openInteropDialog('export')}>
            {t('servers.view.export')}
          </Button>
          <OpenBundleButton />
        </div>
        <ImportedNotice />
        <ul className="server-list" aria-label={t('servers.view.label')}>
          {servers.map((server) => (
            <ServerCard key={server.name} server={server} selected={server.name === selected.name} />
          ))}
        </ul>
      </section>
      <div className="detail-pane" ref={detailPanel}>
        <ServerDetail key={selected.name} server={selected} onBack={back} />
      </div>
    </BundleDropZone>
  );
}

function ServerCard({ server, selected }: { server: ServerState; selected: boolean }) {
  const selectServer = useBerth((s) => s.selectServer);
  const version = server.status === 'ready' ? server.protocolVersion : undefined;
  const reason = serverReason(server);
  return (
    <li
      className={clsx('server-card', selected && 'selected', !server.config.enabled && 'disabled')}
      data-server={server.name}
    >
      <button
        type="button"
        className="server-card-main"
        aria-current={selected ? 'true' : undefined}
        onClick={() => selectServer(server.name)}
      >
        <span className="server-card-top">
          <span className="server-card-name">{server.name}</span>
          {version ? <ProtocolChip className="chip chip-accent" version={version} /> : null}
          <SandboxedChip server={server} />
        </span>
        <StatusBadge server={server} />
        {/* Clamped to three lines; the whole of it (the server's own error line last) on hover and in the detail. */}
        {reason ? (
          <span className="server-card-reason" title={hostText(server.reasonMessage, reason)}>
            <HostMessageText message={server.reasonMessage} fallback={reason} />
          </span>
        ) : null}
        <span className="server-card-command">
          {server.config.url ?? shellLine([server.config.command ?? '', ...server.config.args])}
        </span>
      </button>
      {/* Outside the row's button, so Sign in is a control of its own (Tab reaches it). */}
      {server.auth !== undefined ? (
        <div className="server-card-auth">
          <SignInState server={server} compact />
        </div>
      ) : null}
      {/* Also outside the button: "Allow this folder" is its own control. */}
      <ServerDenialNotice server={server.name} compact />
      <ServerActions server={server} />
    </li>
  );
}

function NoServers() {
  const t = useT();
  const openServerForm = useBerth((s) => s.openServerForm);
  const openInteropDialog = useBerth((s) => s.openInteropDialog);
  const configInvalid = useBerth((s) => s.configStatus?.state === 'invalid');
  const openConfigEditor = useBerth((s) => s.openConfigEditor);
  const showView = useBerth((s) => s.showView);
  if (configInvalid) {
    return (
      <div className="view-center">
        <EmptyState
          icon={<ServerIcon />}
          title={t('servers.empty.configTitle')}
          actions={
            <Button variant="primary" onClick={() => openConfigEditor(true)}>
              {t('servers.empty.fixConfig')}
            </Button>
          }
        >
          <p>{t('servers.empty.configWhy')}</p>
          <p>{t('servers.empty.configNext')}</p>
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="view-center">
      <EmptyState
        icon={<ServerIcon />}
        title={t('servers.empty.title')}
        actions={
          <>
            <Button
              variant="primary"
              icon={<PlusIcon />}
              onClick={() => openServerForm({ mode: 'add', example: true })}
            >
              {t('servers.empty.addExample')}
            </Button>
            <Button onClick={() => showView('discover')}>{t('servers.empty.findInRegistry')}</Button>
            <Button onClick={() => openServerForm({ mode: 'add' })}>{t('servers.empty.addOwn')}</Button>
            <Button onClick={() => openInteropDialog('import')}>{t('servers.empty.importOther')}</Button>
            <OpenBundleButton variant="secondary" size="md" />
          </>
        }
      >
        <p>
          <T id="servers.empty.what" components={{ strong: <strong /> }} />
        </p>
        <p>
          <T id="servers.empty.how" components={{ code: <code /> }} />
        </p>
        <p className="muted">
          <T id="servers.empty.hint" components={{ code: <code /> }} />
        </p>
      </EmptyState>
    </div>
  );
}
