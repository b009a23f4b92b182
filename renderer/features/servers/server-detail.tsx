import clsx from 'clsx';
import { lazy, Suspense } from 'react';
import { DropdownMenu, Tabs } from 'radix-ui';
import { useState } from 'react';
import {
  LOG_LEVELS,
  serverReason,
  serverTools,
  shellLine,
  type LogLevel,
  type ServerState,
  type TransportKind,
} from '../../../shared/domain';
import { useBerth } from '../../store';
import { ServerApps } from '../apps/server-apps';
import { ServerEvents, useOffersEvents } from '../events/server-events';
import { ResourceBrowser } from '../resources/resource-browser';
import { ServerRootsPanel } from '../roots/roots-access';
import { Button, Chip, EmptyState } from '../../ui/controls';
import { ChevronDownIcon, ChevronLeftIcon, LogsIcon, ToolIcon } from '../../ui/icons';
import { capabilityChips, eraExplanation, protocolLabel } from './protocol';
import { SamplingLimitsFacts } from './sampling-limits';
import { ServerActions } from './server-actions';
import { SignInFact, SignInState } from './sign-in-button';
import { StatusBadge, needsSignIn } from './status-badge';
import { TaskSettingFacts } from './task-setting';
import { ResultLimitFacts } from './result-limit';
import { ServerInstructionsSection } from './instructions-setting';
import { RegistryOrigin } from './registry-origin';
import { ToolList } from './tool-list';
import { ToolTwinsNotice } from './tool-twins-notice';
import { SandboxFact, SandboxOffer, SandboxPanel, ServerDenialNotice } from '../sandbox';
import { HostMessageText } from '../../i18n/host-message';
import { formatDateTime, formatNumber } from '../../i18n/format';
import type { MessageId } from '../../i18n/message-ids';
import { useT } from '../../i18n/use-t';

// The skills tab loads with its first opening (the servers view is lazy too, but its first tab is Tools).
const ServerSkills = lazy(async () => ({ default: (await import('../skills/server-skills')).ServerSkills }));

const TROUBLE = new Set(['error', 'crashed', 'restarting']);

/** Everything Berth knows about one server: state, handshake results and its tools. */
export function ServerDetail({ server, onBack }: { server: ServerState; onBack?: () => void }) {
  const t = useT();
  const showLogsFor = useBerth((s) => s.showLogsFor);
  // "Open in resource browser" from a chat result lands on the Resources tab.
  const resourceFocused = useBerth((s) => s.resourceFocus?.server === server.name);
  const ready = server.status === 'ready' ? server : undefined;
  const title = ready?.serverInfo?.title ?? ready?.serverInfo?.name;
  const tools = serverTools(server);
  const reason = serverReason(server);
  const [tab, setTab] = useState(resourceFocused ? 'resources' : 'tools');
  // The Events tab only for a server that offers events (or still has the person's subscriptions).
  const offersEvents = useOffersEvents(server.name);
  return (
    <section
      className="detail"
      aria-label={t('servers.detail.label', { server: server.name })}
      data-server={server.name}
    >
      <header className="detail-header" role="group" aria-label={t('servers.detail.header')}>
        {/* Shown only in a narrow window, where the detail takes the list's place (servers.css). */}
        {onBack ? (
          <Button
            size="sm"
            variant="ghost"
            icon={<ChevronLeftIcon />}
            className="detail-back"
            aria-label={t('servers.detail.backLabel')}
            onClick={onBack}
          >
            {t('servers.detail.back')}
          </Button>
        ) : null}
        <div className="detail-heading">
          <h2 className="detail-name" tabIndex={-1}>
            {server.name}
          </h2>
          {title && title !== server.name ? <span className="detail-subtitle">{title}</span> : null}
        </div>
        <StatusBadge server={server} />
        <div className="spacer" />
        <SignInState server={server} />
        <Button size="sm" icon={<LogsIcon />} onClick={() => showLogsFor(server.name)}>
          {t('servers.detail.logs')}
        </Button>
        <ServerActions server={server} />
      </header>
      {reason ? (
        <p
          className={clsx('detail-reason', TROUBLE.has(server.status) && !needsSignIn(server) && 'trouble')}
          data-testid="server-reason"
        >
          <HostMessageText message={server.reasonMessage} fallback={reason} />
        </p>
      ) : null}

      <ServerDenialNotice server={server.name} />
      <SandboxOffer server={server} onShowSandbox={() => setTab('sandbox')} />
      <ToolTwinsNotice tools={tools} />

      <Tabs.Root key={server.name} className="tabs" value={tab} onValueChange={setTab}>
        <Tabs.List className="tabs-list" aria-label={t('servers.detail.tabs')}>
          <Tabs.Trigger className="tabs-trigger" value="tools">
            {t('servers.tab.tools')} <span className="count">{formatNumber(tools.length)}</span>
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="overview">
            {t('servers.tab.overview')}
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="roots">
            {t('servers.tab.roots')}
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="resources">
            {t('servers.tab.resources')}
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="apps">
            {t('servers.tab.apps')}
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="skills">
            {t('servers.tab.skills')}
          </Tabs.Trigger>
          {offersEvents ? (
            <Tabs.Trigger className="tabs-trigger" value="events">
              {t('events.tab.label')}
            </Tabs.Trigger>
          ) : null}
          <Tabs.Trigger className="tabs-trigger" value="sandbox">
            {t('servers.tab.sandbox')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tabs-content" value="tools">
          {tools.length > 0 ? (
            <ToolList tools={tools} />
          ) : (
            <EmptyState
              icon={<ToolIcon />}
              title={t(server.status === 'ready' ? 'servers.tools.noneReady' : 'servers.tools.noneYet')}
            >
              {t(server.status === 'ready' ? 'servers.tools.noneReadyHint' : 'servers.tools.noneYetHint')}
            </EmptyState>
          )}
        </Tabs.Content>
        <Tabs.Content className="tabs-content" value="overview">
          <Overview server={server} onShowSandbox={() => setTab('sandbox')} />
        </Tabs.Content>
        <Tabs.Content className="tabs-content" value="roots">
          <ServerRootsPanel server={server.name} />
        </Tabs.Content>
        <Tabs.Content className="tabs-content" value="resources">
          <ResourceBrowser server={server} />
        </Tabs.Content>
        <Tabs.Content className="tabs-content" value="apps">
          <ServerApps server={server} />
        </Tabs.Content>
        {offersEvents ? (
          <Tabs.Content className="tabs-content" value="events">
            <ServerEvents server={server.name} />
          </Tabs.Content>
        ) : null}
        <Tabs.Content className="tabs-content" value="skills">
          <Suspense fallback={<p className="muted">{t('servers.detail.loadingSkills')}</p>}>
            <ServerSkills server={server} />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content className="tabs-content" value="sandbox">
          <SandboxPanel server={server} />
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}

// Protocol names stay English in every language (GLOSSARY.md); only "legacy" is a word to translate.
const TRANSPORT_LABEL: Record<TransportKind, { name: string } | { id: MessageId }> = {
  stdio: { name: 'stdio' },
  'streamable-http': { name: 'Streamable HTTP' },
  sse: { id: 'servers.transport.sseLegacy' },
};

function Overview({ server, onShowSandbox }: { server: ServerState; onShowSandbox: () => void }) {
  const t = useT();
  const transportLabel = (kind: TransportKind) => {
    const label = TRANSPORT_LABEL[kind];
    return 'name' in label ? label.name : t(label.id);
  };
  const protocol = protocolLabel(server);
  // The facts of a live connection: only a ready server has them.
  const ready = server.status === 'ready' ? server : undefined;
  const pid = ready?.pid ?? (server.status === 'starting' ? server.pid : undefined);
  const capabilities = capabilityChips(ready?.capabilities);
  const commandLine = shellLine([server.config.command ?? '', ...server.config.args]);
  const url = server.config.url;
  return (
    <div className="overview">
      <dl className="facts">
        {url !== undefined ? (
          <>
            <dt>{t('servers.overview.url')}</dt>
            <dd>
              <code className="wrap">{url}</code>
            </dd>
            <dt>{t('servers.overview.transport')}</dt>
            <dd>
              {ready !== undefined ? (
                <>
                  <Chip tone="accent">{transportLabel(ready.transport)}</Chip>
                  {server.config.type === undefined ? (
                    <p className="fact-note">{t('servers.overview.negotiatedNote')}</p>
                  ) : null}
                </>
              ) : (
                <span className="muted">
                  {server.config.type === undefined
                    ? t('servers.overview.negotiatedOnConnect')
                    : transportLabel(server.config.type === 'sse' ? 'sse' : 'streamable-http')}
                </span>
              )}
            </dd>
            {server.auth !== undefined ? (
              <>
                <dt>{t('servers.overview.signIn')}</dt>
                <dd>
                  <SignInFact server={server} auth={server.auth} />
                </dd>
              </>
            ) : null}
          </>
        ) : (
          <>
            <dt>{t('servers.overview.command')}</dt>
            <dd>
              <code className="wrap">{commandLine}</code>
            </dd>
            <dt>{t('servers.overview.process')}</dt>
            <dd>
              {pid !== undefined ? (
                t('servers.overview.pid', { pid: String(pid) })
              ) : (
                <span className="muted">{t('servers.overview.notRunning')}</span>
              )}
            </dd>
            <SandboxFact server={server} onShowSandbox={onShowSandbox} />
          </>
        )}
        {server.config.registry !== undefined ? (
          <>
            <dt>{t('servers.overview.installedFrom')}</dt>
            <dd>
              <RegistryOrigin server={server.name} from={server.config.registry} />
            </dd>
          </>
        ) : null}
        <dt>{t('servers.overview.server')}</dt>
        <dd>
          {ready?.serverInfo ? (
            <>
              {ready.serverInfo.title ?? ready.serverInfo.name}{' '}
              <span className="muted">{t('servers.overview.version', { version: ready.serverInfo.version })}</span>
              {ready.serverInfo.title ? <span className="muted"> ({ready.serverInfo.name})</span> : null}
            </>
          ) : (
            <span className="muted">{t('servers.overview.knownOnceConnected')}</span>
          )}
        </dd>
        <dt>{t('servers.overview.protocol')}</dt>
        <dd>
          {protocol ? (
            <>
              <Chip tone="accent">{protocol}</Chip>
              <p className="fact-note">{eraExplanation(server)}</p>
            </>
          ) : (
            <span className="muted">{t('servers.overview.negotiatedOnStart')}</span>
          )}
        </dd>
        {ready !== undefined ? (
          <>
            <dt>{t('servers.overview.readySince')}</dt>
            <dd>{formatDateTime(ready.readySince)}</dd>
          </>
        ) : null}
        {server.restartCount > 0 ? (
          <>
            <dt>{t('servers.overview.restarts')}</dt>
            <dd>{t('servers.overview.restartsInARow', { count: formatNumber(server.restartCount) })}</dd>
          </>
        ) : null}
        <dt>{t('servers.overview.capabilities')}</dt>
        <dd>
          {capabilities.length > 0 ? (
            <div className="chips">
              {capabilities.map((c) => (
                <Chip key={c}>{c}</Chip>
              ))}
            </div>
          ) : (
            <span className="muted">
              {t(ready?.capabilities ? 'servers.overview.noneDeclared' : 'servers.overview.knownOnceConnected')}
            </span>
          )}
        </dd>
        {/* Before the first connection nobody knows whether it logs: the stored level can be chosen anyway. */}
        {ready?.capabilities === undefined || ready.capabilities.logging !== undefined ? (
          <>
            <dt>{t('servers.overview.logLevel')}</dt>
            <dd>
              <LogLevelMenu server={server} />
            </dd>
          </>
        ) : null}
        {/* Servers do not declare whether they will sample: every server has limits, and they can be set before it asks. */}
        <SamplingLimitsFacts server={server.name} />
        {/* Like the limits: set before the server runs, so its first call already follows it. */}
        <TaskSettingFacts server={server} />
        <ResultLimitFacts server={server.name} />
      </dl>
      <ServerInstructionsSection server={server} />
    </div>
  );
}

/** The stored level (config.json), sent live to a ready server and on every start. */
function LogLevelMenu({ server }: { server: ServerState }) {
  const t = useT();
  const setServerLogLevel = useBerth((s) => s.setServerLogLevel);
  const current = server.config.logLevel ?? server.logLevel;
  const live = server.status === 'ready';
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button
          size="sm"
          aria-label={
            current !== undefined
              ? t('servers.logLevel.ariaSet', { server: server.name, level: current })
              : t('servers.logLevel.ariaDefault', { server: server.name })
          }
        >
          {current ?? t('servers.logLevel.default')} <ChevronDownIcon />
        </Button>
      </DropdownMenu.Trigger>
      {live ? null : <span className="muted"> {t('servers.logLevel.appliedOnStart')}</span>}
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">{t('servers.logLevel.menuLabel')}</DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={server.config.logLevel ?? ''}
            onValueChange={(level) => void setServerLogLevel(server.name, level === '' ? null : (level as LogLevel))}
          >
            <DropdownMenu.RadioItem value="" className="menu-item">
              <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
              {t('servers.logLevel.default')}
            </DropdownMenu.RadioItem>
            {LOG_LEVELS.map((level) => (
              <DropdownMenu.RadioItem key={level} value={level} className="menu-item">
                <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
                {level}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
