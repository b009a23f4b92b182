import clsx from 'clsx';
import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ServerState } from '../../../shared/domain';
import { serverReason } from '../../../shared/domain/server-state-read';
import { shellLine } from '../../../shared/domain/shell-line';
import { sortServers, useBerth } from '../../store';
import { Button, Chip, EmptyState } from '../../ui/controls';
import { ArrowDownIcon, ArrowUpIcon, PlusIcon, ServerIcon } from '../../ui/icons';
import { ImportedNotice } from '../config-import/imported-notice';
import { BundleDropZone, OpenBundleButton } from '../bundles/bundle-entry';
import { ServerActions } from './server-actions';
import { ServerDetail } from './server-detail';
import { SignInState } from './sign-in-button';
import { StatusBadge } from './status-badge';
import { SandboxedChip, ServerDenialNotice } from '../sandbox';
import { HostMessageText, hostText } from '../../i18n/host-message';

export function ServersView() {
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

  if (!loaded) return <div className="view-loading">Loading servers…</div>;
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
      <section className="server-column" aria-label="Servers" ref={column}>
        <div className="column-head">
          <h2>
            Servers <span className="count">{servers.length}</span>
          </h2>
          <Button size="sm" variant="primary" icon={<PlusIcon />} onClick={() => openServerForm({ mode: 'add' })}>
            Add server
          </Button>
        </div>
        <div className="column-tools">
          <Button size="sm" variant="ghost" icon={<ArrowDownIcon />} onClick={() => openInteropDialog('import')}>
            Import servers…
          </Button>
          <Button size="sm" variant="ghost" icon={<ArrowUpIcon />} onClick={() => openInteropDialog('export')}>
            Export…
          </Button>
          <OpenBundleButton />
        </div>
        <ImportedNotice />
        <ul className="server-list" aria-label="Servers">
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
          {version ? <Chip tone="accent">{version}</Chip> : null}
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
          title="Your servers are waiting for the config fix"
          actions={
            <Button variant="primary" onClick={() => openConfigEditor(true)}>
              Fix the config file
            </Button>
          }
        >
          <p>
            Berth could not read its config file, so it has not started any server. Nothing in the file has been
            changed.
          </p>
          <p>Fix the problem shown above and your servers appear here.</p>
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="view-center">
      <EmptyState
        icon={<ServerIcon />}
        title="Connect your first MCP server"
        actions={
          <>
            <Button
              variant="primary"
              icon={<PlusIcon />}
              onClick={() => openServerForm({ mode: 'add', example: true })}
            >
              Add an example server
            </Button>
            <Button onClick={() => showView('discover')}>Find one in the registry</Button>
            <Button onClick={() => openServerForm({ mode: 'add' })}>Add your own</Button>
            <Button onClick={() => openInteropDialog('import')}>Import from another app…</Button>
            <OpenBundleButton variant="secondary" size="md" />
          </>
        }
      >
        <p>
          An <strong>MCP server</strong> is a small program that gives an AI assistant tools (search a repository, query
          a database, read files), prompts and resources, using the open Model Context Protocol.
        </p>
        <p>
          Berth starts each server you add, keeps it running and shows you exactly what it offers and what it says. Most
          servers start with a command such as <code>npx -y @modelcontextprotocol/server-everything</code> or{' '}
          <code>uvx mcp-server-git</code>; their README tells you which.
        </p>
        <p className="muted">
          The example server demonstrates every protocol feature; it needs Node.js and downloads once with npx. Already
          use servers in Claude Desktop, Cursor or VS Code? Import them. Got a <code>.mcpb</code> bundle? Drop it here.
        </p>
      </EmptyState>
    </div>
  );
}
