import { fail } from '../shared/result';
import { bridgeError } from '../shared/domain/bridge-errors';
import { HandlerRegistry } from './bridge/handler-registry';
import { errorMessage } from '../shared/error-message';
import { berthPaths } from './config/paths';
import { createEventHub } from './events/event-hub';
import type { Host, HostOptions } from './host/host-types';
import { ServerLifecycle } from './servers/server-lifecycle';
import { ServiceSlots } from './host/host-context';
import type { HostContext } from './host/host-context';
import { openModules } from './host/host-modules';
import { HOST_MODULES } from './host/modules';

export { BERTH_VERSION } from './host/berth-version';

/** Environment variables a spawned server never inherits from the host (set them in its config if it needs them). */
const HOST_ONLY_ENV = ['ANTHROPIC_API_KEY'];

/**
 * Builds the whole host for one config directory: the context every module
 * shares, then each module of app/host/modules.ts in its phase. Resolves once
 * the config is loaded; enabled servers start in the background.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  const context = createHostContext(options);
  const { services } = context;
  const modules = await openModules(HOST_MODULES, context);
  const router = services.get('router');
  const redaction = services.get('redaction');
  const windows = services.get('windows');
  let shuttingDown: Promise<void> | undefined;

  return {
    dispatch: async (method, input) => {
      if (shuttingDown !== undefined) {
        const words = bridgeError('bridge-errors.shutting-down', {});
        return fail('NOT_READY', words.text, undefined, words.hostMessage);
      }
      return redaction.result(method, await router.dispatch(method, input));
    },
    subscribe: (listener) => context.events.subscribe(redaction.listener(listener)),
    clientsChanged: (count) => windows.clientsChanged(count),
    shutdown: () => (shuttingDown ??= modules.shutdown()),
  };
}

/** What every module of one host shares, before any has opened: the facts of this run, the event hub, the lists modules add to. */
export function createHostContext(options: HostOptions): HostContext {
  const hostEnv = options.env ?? process.env;
  const services = new ServiceSlots();

  /** Failures with no caller to answer: stderr and the host-wide log (once it is open), never silence. */
  function reportBug(what: string, error: unknown): void {
    console.error(`[berth] ${what}:`, error);
    try {
      services.find('logs')?.append({
        server: '',
        time: Date.now(),
        source: 'host',
        level: 'error',
        text: `${what}: ${errorMessage(error)}`,
      });
    } catch (logError) {
      console.error('[berth] the host-wide log refused an entry:', logError);
    }
  }

  return {
    options,
    paths: berthPaths(options.configDir),
    hostEnv,
    serverEnv: Object.fromEntries(Object.entries(hostEnv).filter(([key]) => !HOST_ONLY_ENV.includes(key))),
    events: createEventHub({
      onListenerError: (topic, error) => reportBug(`an event listener for ${topic} threw`, error),
    }),
    lifecycle: new ServerLifecycle({ reportError: reportBug }),
    services,
    connectionWrappers: [],
    launchWrappers: [],
    bridgeHandlers: new HandlerRegistry(),
    hostTools: [],
    logWatchers: [],
    reportBug,
    warn: (text) =>
      services.get('logs').append({ server: '', time: Date.now(), source: 'host', level: 'warning', text }),
  };
}
