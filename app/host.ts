import { version } from '../package.json';
import { fail } from '../shared/result';
import { createEventHub } from './bridge/event-hub';
import { createHandlers } from './bridge/handlers';
import { createRouter, errorMessage } from './bridge/router';
import { ServerSync } from './bridge/server-sync';
import { ConfigStore } from './config/config-store';
import { berthPaths } from './config/paths';
import type { Host, HostOptions } from './host-types';
import { LogHub } from './logs/log-hub';
import { ServerSupervisor } from './servers/supervisor';

/** Berth's version, as package.json states it (bundlers inline just this field). */
export const BERTH_VERSION: string = version;

/**
 * Builds the whole host for one config directory: config store (watched),
 * log hub (with files), server supervisor, the contract router and the event
 * stream. Resolves once the config is loaded; enabled servers start in the
 * background.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  const paths = berthPaths(options.configDir);
  const events = createEventHub({ onListenerError: (topic, error) => reportBug(`an event listener for ${topic} threw`, error) });
  let shuttingDown: Promise<void> | undefined;

  /** Failures with no caller to answer: stderr and the host-wide log, never silence. */
  function reportBug(what: string, error: unknown): void {
    console.error(`[berth] ${what}:`, error);
    try {
      logs.append({ server: '', time: Date.now(), source: 'host', level: 'error', text: `${what}: ${errorMessage(error)}` });
    } catch (logError) {
      console.error('[berth] the host-wide log refused an entry:', logError);
    }
  }

  const logs = new LogHub({
    onBatch: (entries) => events.emit('logs.appended', { entries }),
    files: { dir: paths.logsDir },
  });
  const supervisor = new ServerSupervisor({
    logs,
    stateDir: paths.stateDir,
    onState: (state) => events.emit('servers.changed', state),
    ...(options.env !== undefined ? { env: options.env } : {}),
    clientVersion: BERTH_VERSION,
  });
  const config = new ConfigStore({
    filePath: paths.configFile,
    // Only edits Berth did not make itself arrive here (the file watcher).
    onChange: (status) => {
      events.emit('config.changed', status);
      sync.apply().catch((error: unknown) => reportBug('applying the changed config failed', error));
    },
    onWatchError: (error) => reportBug(`watching ${paths.configFile} failed`, error),
  });
  const sync = new ServerSync({
    config,
    supervisor,
    events,
    forgetLogs: (name) => logs.removeServer(name),
    onError: (error) => reportBug('starting servers failed', error),
  });
  const router = createRouter(
    createHandlers({
      config,
      supervisor,
      logs,
      events,
      sync,
      appInfo: {
        version: BERTH_VERSION,
        shell: options.shell,
        platform: process.platform,
        configPath: paths.configFile,
        configDir: paths.configDir,
        logsDir: paths.logsDir,
      },
      reportError: reportBug,
    }),
    { onInternalError: (method, error) => reportBug(`${method} failed with a bug`, error) },
  );

  try {
    await config.load();
    config.watch();
  } catch (error) {
    // Nothing has started yet, but the log files may hold pending lines.
    config.close();
    await logs.dispose();
    throw error;
  }
  // Starting servers can take their whole start-up timeout: the shell must not wait for it.
  sync.apply().catch((error: unknown) => reportBug('starting the configured servers failed', error));

  return {
    dispatch: async (method, input) => {
      if (shuttingDown !== undefined) return fail('NOT_READY', 'Berth is shutting down');
      return router.dispatch(method, input);
    },
    subscribe: (listener) => events.subscribe(listener),
    shutdown: () => {
      shuttingDown ??= (async () => {
        sync.stop();
        config.close();
        try {
          await supervisor.shutdown();
        } finally {
          // Flushes pending batches and file writes, then ignores late appends.
          await logs.dispose();
        }
      })();
      return shuttingDown;
    },
  };
}
