import clsx from 'clsx';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppOrigin, AppUiPermission } from '../../../shared/domain/app-ui';
import { useBerth, useBerthStore } from '../../store';
import { proxyDocumentUrl } from '../../../shared/apps/app-csp';
import { Button } from '../../ui/controls';
import { RestartIcon, WarningIcon } from '../../ui/icons';
import { createAppRequestHandlers } from './app-requests';
import { startAppSession, type AppSession, type AppToolOutcome, type BridgeModule } from './app-session';
import { appsStoreFor, rememberedHeight, rememberHeight } from './apps-state';
import { HOST_DISPLAY_MODES, type DisplayMode } from './display-modes';
import { DEFAULT_APP_HEIGHT, frameBoxHeight, MAX_APP_HEIGHT, throttleLatest } from './frame-bounds';
import {
  berthStyleVariables,
  berthTheme,
  buildHostContext,
  readDocumentToken,
  watchTheme,
  type HostContextInput,
  type Theme,
} from './host-context';
import { OpenLinkDialog } from './open-link-dialog';
import { PermissionAsk } from './permission-ask';
import { closedNote, createRequestGate } from './request-gate';
import { appLoadText, useAppResource } from './use-app-resource';
import { useFloatingRow } from './use-floating-row';
import { translate, useT } from '../../i18n/use-t';
import { words, wordsText, type Words } from '../../i18n/words';
import { cspRefusalText, sameRefusal } from './csp-refusal';
import type { CspRefusal } from '../../sandbox-proxy/csp-violations';
import { activeLocale } from '../../i18n/i18n';
import { isLanguage } from '../../../shared/domain/language';

/** The person's language for the sandbox proxy's own words; the pseudo-locale (a test language) leaves it to the browser. */
function proxyLanguage(): string | undefined {
  const locale = activeLocale();
  return isLanguage(locale) ? locale : undefined;
}

export interface AppFrameProps {
  origin: AppOrigin;
  tool: string;
  resourceUri: string;
  /** The tool's input as sent (undefined: not known yet). */
  input: Record<string, unknown> | undefined;
  /** The call's result or cancellation once there is one. */
  outcome: AppToolOutcome | undefined;
  /** Under which key the app's height is remembered across unmounts (the card's call). */
  heightKey: string;
  /** The tool as the app is told about it (`hostContext.toolInfo`), when Berth knows it. */
  toolInfo?: HostContextInput['toolInfo'];
  /** The modes offered to the app (a preview in a dialog stays inline). */
  displayModes?: readonly DisplayMode[];
  /** Tests pass a fake bridge library; Berth loads the real one on demand. */
  loadBridge?: () => Promise<BridgeModule>;
  /** Told whether the app is on screen (loaded, not closed): the card folds the text result away while it is. */
  onRunningChange?: (running: boolean) => void;
}

type PendingLink = { url: string; domain: string; resolve: (open: boolean) => void };

/**
 * A server's app, rendered in a sandbox on the proxy's origin, its requests
 * going through Berth's rules. Shows why when it cannot run; the text result
 * of the call is always shown by the card as well.
 */
export function AppFrame({
  origin,
  tool,
  resourceUri,
  input,
  outcome,
  heightKey,
  toolInfo,
  displayModes = HOST_DISPLAY_MODES,
  loadBridge,
  onRunningChange,
}: AppFrameProps) {
  const t = useT();
  const berth = useBerthStore();
  const transport = useBerth((s) => s.appsTransport);
  const hostVersion = useBerth((s) => s.appInfo?.version ?? '0');
  // Read when a link is opened, so app info arriving late never rebuilds a running app.
  const inBrowser = useRef(false);
  inBrowser.current = useBerth((s) => s.appInfo?.shell === 'browser');
  const [generation, setGeneration] = useState(0);
  const load = useAppResource(origin.server, resourceUri, generation, loadBridge);
  const [note, setNote] = useState<Words>();
  const [refusals, setRefusals] = useState<readonly CspRefusal[]>([]);
  const [allowed, setAllowed] = useState<readonly AppUiPermission[]>([]);
  const [askDismissed, setAskDismissed] = useState(false);
  const [height, setHeight] = useState(() => rememberedHeight(heightKey) ?? DEFAULT_APP_HEIGHT);
  const [mode, setMode] = useState<DisplayMode>('inline');
  const [theme, setTheme] = useState<Theme>(() => berthTheme());
  const [width, setWidth] = useState(0);
  const [link, setLink] = useState<PendingLink>();
  const pendingLink = useRef<PendingLink | undefined>(undefined);
  const wrapper = useRef<HTMLDivElement>(null);
  const slot = useRef<HTMLDivElement>(null);
  const exitButton = useRef<HTMLButtonElement>(null);
  const session = useRef<AppSession | undefined>(undefined);
  const modeRef = useRef<DisplayMode>('inline');
  const appModes = useRef<readonly DisplayMode[] | undefined>(undefined);
  const latest = useRef({ outcome, input, theme, width, mode, displayModes, toolInfo, hostVersion });
  latest.current = { outcome, input, theme, width, mode, displayModes, toolInfo, hostVersion };

  const hostContext = useCallback(() => {
    const now = latest.current;
    return buildHostContext({
      theme: now.theme,
      displayMode: now.mode,
      availableDisplayModes: now.displayModes,
      width: now.mode === 'inline' ? now.width : window.innerWidth,
      maxHeight: now.mode === 'fullscreen' ? window.innerHeight : MAX_APP_HEIGHT,
      styles: berthStyleVariables(readDocumentToken),
      ...(now.toolInfo !== undefined ? { toolInfo: now.toolInfo } : {}),
    });
  }, []);

  const changeMode = useCallback((next: DisplayMode) => {
    modeRef.current = next;
    setMode(next);
  }, []);

  const ready = load.state === 'ready' ? load : undefined;
  const closed = note !== undefined;
  const running = ready !== undefined && !closed;
  useEffect(() => onRunningChange?.(running), [running, onRunningChange]);

  useEffect(() => {
    const container = slot.current;
    if (!ready || closed || !container) return;
    const handlers = createAppRequestHandlers({
      transport,
      origin,
      instance: crypto.randomUUID(),
      gate: createRequestGate(),
      confirmLink: (candidate) =>
        new Promise<boolean>((resolve) => {
          // One question at a time: an older one still open is answered "no".
          pendingLink.current?.resolve(false);
          pendingLink.current = { ...candidate, resolve };
          setLink(pendingLink.current);
        }),
      openInBrowser: (url) => {
        if (inBrowser.current) window.open(url, '_blank', 'noopener,noreferrer');
      },
      proposeMessage: (text) => {
        if (origin.conversationId === undefined || origin.toolUseId === undefined) return;
        appsStoreFor(berth).getState().propose({
          conversationId: origin.conversationId,
          toolUseId: origin.toolUseId,
          server: origin.server,
          tool,
          text,
        });
      },
      closeForAbuse: (requests, seconds) => {
        void session.current?.close(true);
        setNote(closedNote(requests, seconds));
      },
      displayMode: {
        current: () => modeRef.current,
        appModes: () => appModes.current,
        hostModes: latest.current.displayModes,
        set: changeMode,
      },
    });
    const started = startAppSession({
      bridgeModule: ready.bridgeModule,
      container,
      // The app's policy travels in the proxy's URL so its server sends it as a header too (a srcdoc frame inherits it).
      // With the person's language for the proxy's own words (read once: a switch must not reload a running app).
      proxyUrl: proxyDocumentUrl(ready.proxyUrl, ready.resource.csp, proxyLanguage()),
      resource: ready.resource,
      allowedPermissions: allowed.filter((p) => ready.resource.permissions.includes(p)),
      // translate, not t: the session starts once, and a language switch must not rebuild a running app.
      title: translate('apps.frame.label', { server: origin.server, tool }),
      // Read, not a dependency: Berth's version arriving late must not rebuild a running app.
      hostVersion: latest.current.hostVersion,
      hostContext: hostContext(),
      handlers,
      toolInput: latest.current.input,
      onHeight: (next) => {
        setHeight(next);
        rememberHeight(heightKey, next);
      },
      onInitialized: (modes) => {
        appModes.current = modes;
      },
      onRequestTeardown: () => {
        void started.close(true);
        setNote(words('apps.frame.closedItself'));
      },
      onError: (message) => {
        void started.close(false);
        setNote(words('apps.frame.stopped', { message }));
      },
      onCspRefusal: (refusal) =>
        setRefusals((shown) => (shown.some((r) => sameRefusal(r, refusal)) ? shown : [...shown, refusal].slice(-3))),
    });
    session.current = started;
    if (latest.current.outcome !== undefined) started.deliver(latest.current.outcome);
    return () => {
      // The card is going (scrolled far away, conversation closed) or the frame is re-created: the app is told, then its iframe goes.
      void started.close(false);
      handlers.gone();
      session.current = undefined;
      appModes.current = undefined;
      changeMode('inline');
      pendingLink.current?.resolve(false);
      pendingLink.current = undefined;
      setLink(undefined);
    };
    // origin's fields, not its identity: a card re-renders with an equal origin object.
  }, [
    ready,
    closed,
    allowed,
    transport,
    origin.server,
    origin.conversationId,
    origin.toolUseId,
    tool,
    heightKey,
    berth,
    hostContext,
    changeMode,
  ]);

  useEffect(() => {
    if (outcome !== undefined) session.current?.deliver(outcome);
  }, [outcome]);

  useEffect(() => watchTheme(setTheme), []);

  // The card's width, throttled: a window resize does not flood the app.
  useEffect(() => {
    const element = wrapper.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const throttle = throttleLatest<number>(150, setWidth);
    const observer = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry) throttle.push(entry.contentRect.width);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      throttle.cancel();
    };
  }, []);

  useEffect(() => {
    session.current?.updateHostContext(hostContext());
  }, [theme, width, mode, toolInfo, hostContext]);

  useFloatingRow(wrapper, mode !== 'inline');

  // Escape leaves full screen; focus goes to its exit button and comes back to the card after.
  useEffect(() => {
    if (mode === 'inline') return;
    exitButton.current?.focus();
    if (mode !== 'fullscreen') return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') changeMode('inline');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [mode, changeMode]);
  const leaveFloating = () => {
    changeMode('inline');
    wrapper.current?.focus();
  };

  const reload = () => {
    setNote(undefined);
    setRefusals([]);
    setGeneration((n) => n + 1);
  };

  const declared = ready?.resource.permissions ?? [];
  const asking = declared.length > 0 && allowed.length === 0 && !askDismissed && !closed;

  return (
    <div
      ref={wrapper}
      className="app-frame"
      role="group"
      aria-label={t('apps.frame.label', { server: origin.server, tool })}
      tabIndex={-1}
      data-app-state={closed ? 'closed' : load.state}
    >
      {asking ? (
        <PermissionAsk
          permissions={declared}
          onAllow={() => setAllowed(declared)}
          onDismiss={() => setAskDismissed(true)}
        />
      ) : null}
      {load.state === 'unavailable' || load.state === 'failed' ? (
        <p className="app-frame-note" role="note">
          <WarningIcon /> {appLoadText(load)}
        </p>
      ) : null}
      {refusals.length > 0 && !closed ? (
        <div className="app-frame-note" role="note" aria-label={t('apps.frame.refusedLabel')}>
          <WarningIcon />{' '}
          <span>
            {t('apps.frame.refused', {
              refusals: refusals.map((refusal) => cspRefusalText(t, refusal)).join(' '),
              field: '_meta.ui.csp',
            })}
          </span>
        </div>
      ) : null}
      {note !== undefined ? (
        <div className="app-frame-note" role="note">
          <WarningIcon /> <span>{t('apps.frame.closed', { note: wordsText(note, t) })}</span>
          <Button size="sm" icon={<RestartIcon />} onClick={reload}>
            {t('apps.frame.reload')}
          </Button>
        </div>
      ) : null}
      {load.state === 'loading' ? (
        <div className="app-frame-loading" style={{ height: frameBoxHeight(height) }} aria-busy="true">
          {t('apps.frame.loading')}
        </div>
      ) : null}
      {ready && !closed ? (
        // The slot keeps the inline height while the app floats, so the row does not change size.
        <div className="app-frame-slot" style={{ height: frameBoxHeight(height) }}>
          <div
            className={clsx(
              'app-frame-host',
              `app-frame-${mode}`,
              ready.resource.prefersBorder === false && 'borderless',
            )}
            style={mode === 'inline' ? { height: frameBoxHeight(height) } : undefined}
          >
            {mode !== 'inline' ? (
              <div className="app-frame-bar">
                <span className="app-frame-bar-title">
                  {origin.server} › {tool}
                </span>
                <div className="spacer" />
                <Button ref={exitButton} size="sm" onClick={leaveFloating}>
                  {t(mode === 'fullscreen' ? 'apps.frame.exitFullscreen' : 'apps.frame.backToCard')}
                </Button>
              </div>
            ) : null}
            <div ref={slot} className="app-frame-iframe-slot" />
          </div>
        </div>
      ) : null}
      <OpenLinkDialog
        link={link}
        server={origin.server}
        onAnswer={(open) => {
          pendingLink.current?.resolve(open);
          pendingLink.current = undefined;
          setLink(undefined);
        }}
      />
    </div>
  );
}
