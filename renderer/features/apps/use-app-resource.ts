import { useEffect, useRef, useState } from 'react';
import type { AppUiResource } from '../../../shared/domain/app-ui';
import { errorMessage } from '../../../shared/error-message';
import { useBerth } from '../../store';
import type { BridgeModule } from './app-session';
import { translate } from '../../i18n/use-t';

/** Where a card's app is: loading, shown, or why only the text result is. */
export type AppLoad =
  | { state: 'loading' }
  | { state: 'unavailable'; message: string }
  | { state: 'failed'; message: string }
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

/** The words for a server whose app cannot be read now; the text result stays below. */
export function unavailableMessage(server: string, code: string, message: string): string | undefined {
  if (code === 'NOT_READY') return translate('apps.load.notRunning', { server });
  if (code === 'NOT_FOUND') return translate('apps.load.gone', { server, message });
  return undefined;
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
        const words = unavailableMessage(server, resource.code, resource.message);
        setState(
          words !== undefined
            ? { state: 'unavailable', message: words }
            : { state: 'failed', message: translate('apps.load.failed', { message: resource.message }) },
        );
        return;
      }
      if (!sandbox.ok) {
        setState({ state: 'failed', message: translate('apps.load.noSandbox', { message: sandbox.message }) });
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
        if (current)
          setState({ state: 'failed', message: translate('apps.load.failed', { message: errorMessage(error) }) });
      }
    })();
    return () => {
      current = false;
    };
  }, [transport, server, uri, generation, changes, load]);

  return state;
}
