import { useEffect, useRef, useState } from 'react';
import type { AppUiResource } from '../../../shared/domain/app-ui';
import { errorMessage } from '../../../shared/error-message';
import { useBerth } from '../../store';
import type { BridgeModule } from './app-session';
import { translate } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import type { HostMessage } from '../../../shared/domain/host-message';

/** A failure as the card keeps it: the host's English and its code, or a bug's text alone. */
type LoadFailure = { message: string; hostMessage?: HostMessage };

/**
 * Where a card's app is: loading, shown, or why only the text result is. Kept as facts, not words, so a
 * language switch re-words it (appLoadText).
 */
export type AppLoad =
  | { state: 'loading' }
  | { state: 'unavailable'; server: string; reason: 'notRunning' | 'gone'; failure: LoadFailure }
  | { state: 'failed'; step: 'load' | 'sandbox'; failure: LoadFailure }
  | { state: 'ready'; resource: AppUiResource; proxyUrl: string; bridgeModule: BridgeModule };

/** The bridge library, loaded once on demand (it is not part of the first screen). */
let bridgeModule: Promise<BridgeModule> | undefined;
export function loadBridgeModule(): Promise<BridgeModule> {
  bridgeModule ??= import('@modelcontextprotocol/ext-apps/app-bridge').catch((error: unknown) => {
    bridgeModule = undefined;
    throw error;
  });
  return bridgeModule;
}

/** Why a server's app cannot be read now (the text result stays below), or undefined when that is a failure. */
function unavailableReason(code: string): 'notRunning' | 'gone' | undefined {
  if (code === 'NOT_READY') return 'notRunning';
  if (code === 'NOT_FOUND') return 'gone';
  return undefined;
}

/** Why a card shows only the text result, in the person's language (the host's failure worded from its code). */
export function appLoadText(load: Extract<AppLoad, { state: 'unavailable' | 'failed' }>): string {
  const message = failureText(load.failure);
  if (load.state === 'unavailable')
    return load.reason === 'notRunning'
      ? translate('apps.load.notRunning', { server: load.server })
      : translate('apps.load.gone', { server: load.server, message });
  return translate(load.step === 'sandbox' ? 'apps.load.noSandbox' : 'apps.load.failed', { message });
}

/**
 * Reads the app's UI resource and the sandbox proxy's address, loads the
 * bridge library, and reads again when the host says the server's UI
 * resources changed (`apps.resourcesChanged`) or when `generation` changes
 * (Reload app).
 */
export function useAppResource(
  server: string,
  uri: string,
  generation: number,
  load: () => Promise<BridgeModule> = loadBridgeModule,
): AppLoad {
  const transport = useBerth((s) => s.appsTransport);
  const [state, setState] = useState<AppLoad>({ state: 'loading' });
  const [changes, setChanges] = useState(0);
  const shownGeneration = useRef(generation);

  useEffect(
    () =>
      transport.on('apps.resourcesChanged', (payload) =>
        payload.server === server ? setChanges((n) => n + 1) : undefined,
      ),
    [transport, server],
  );

  useEffect(() => {
    let current = true;
    // A changed resource replaces the running app once read; Reload app starts over at once.
    const reloading = shownGeneration.current !== generation;
    shownGeneration.current = generation;
    setState((previous) => (previous.state === 'ready' && !reloading ? previous : { state: 'loading' }));
    void (async () => {
      const [resource, sandbox] = await Promise.all([
        transport.call('apps.resource', { server, uri }),
        transport.call('apps.sandbox', {}),
      ]);
      if (!current) return;
      if (!resource.ok) {
        const reason = unavailableReason(resource.code);
        setState(
          reason !== undefined
            ? { state: 'unavailable', server, reason, failure: resource }
            : { state: 'failed', step: 'load', failure: resource },
        );
        return;
      }
      if (!sandbox.ok) {
        setState({ state: 'failed', step: 'sandbox', failure: sandbox });
        return;
      }
      try {
        const bridge = await load();
        if (current)
          setState({
            state: 'ready',
            resource: resource.value,
            proxyUrl: sandbox.value.proxyUrl,
            bridgeModule: bridge,
          });
      } catch (error) {
        if (current) setState({ state: 'failed', step: 'load', failure: { message: errorMessage(error) } });
      }
    })();
    return () => {
      current = false;
    };
  }, [transport, server, uri, generation, changes, load]);

  return state;
}
