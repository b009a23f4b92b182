import { createAppHandlers } from '../../bridge/handlers-app';
import { ServerSync } from '../../bridge/server-sync';
import type { SyncSupervisor } from '../../bridge/server-sync';
import { ConfigStore } from '../../config/config-store';
import type { BerthPaths } from '../../config/paths';
import { removeInterruptedWrites } from '../../config/state-file';
import type { EventHub } from '../../events/event-hub';
import type { LogHub } from '../../logs/log-hub';
import { createIssuerPinning } from '../../oauth/issuer-pinning';
import type { ServerSecrets } from '../../secrets/server-secrets';
import { BERTH_VERSION } from '../berth-version';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** What {@linkcode createConfigSync} needs of the host. */
export interface ConfigSyncDeps {
  paths: Pick<BerthPaths, 'configFile'>;
  events: Pick<EventHub, 'emit'>;
  supervisor: SyncSupervisor;
  serverSecrets: Pick<ServerSecrets, 'moveOutOfText'>;
  logs: Pick<LogHub, 'append'>;
  warn: (text: string) => void;
  reportBug: (what: string, error: unknown) => void;
  /** A removed server's process is gone (the host's lifecycle forgets what it kept for it). */
  serverRemoved: (name: string) => void;
}

/**
 * The config file and what keeps the running servers in step with it: the
 * store (an edit Berth did not make is applied at once), the sync that starts,
 * restarts and stops servers, and the OAuth issuer pinning that writes to the
 * file and applies it again. The three refer to each other, so they are made
 * together; the module below loads the store, and the start module watches it.
 */
export function createConfigSync(deps: ConfigSyncDeps): {
  config: ConfigStore;
  sync: ServerSync;
  pinIssuer: (server: string, issuer: string) => Promise<void>;
} {
  const { paths, events, reportBug } = deps;
  const config = new ConfigStore({
    filePath: paths.configFile,
    // Only edits Berth did not make itself arrive here (the file watcher).
    onChange: (status) => {
      events.emit('config.changed', status);
      sync.apply().catch((error: unknown) => reportBug('applying the changed config failed', error));
    },
    onWatchError: (error) => reportBug(`watching ${paths.configFile} failed`, error),
    moveSecretsOut: (text) => deps.serverSecrets.moveOutOfText(text),
    warn: (text) => deps.warn(`config: ${text}`),
  });
  const pinIssuer = createIssuerPinning({
    pin: (server, issuer) => config.pinServerOAuthIssuer(server, issuer),
    announceConfig: () => events.emit('config.changed', config.status()),
    applyConfig: () => sync.apply(),
    warn: (server, text) =>
      deps.logs.append({ server, time: Date.now(), source: 'host', level: 'warning', text: `OAuth: ${text}` }),
  });
  const sync = new ServerSync({
    config,
    supervisor: deps.supervisor,
    events,
    serverRemoved: deps.serverRemoved,
    onError: (error) => reportBug('starting servers failed', error),
  });
  return { config, sync, pinIssuer };
}

/** config.json and the sync that keeps the running servers in step with it; loaded here, watched once the host is ready. */
export const configModule: HostModule<HostContext> = {
  name: 'config',
  phase: 'features',
  async open(context, scope) {
    const { services, paths, warn, lifecycle } = context;
    const { config, sync, pinIssuer } = createConfigSync({
      paths,
      events: context.events,
      supervisor: services.get('supervisor'),
      serverSecrets: services.get('serverSecrets'),
      logs: services.get('logs'),
      warn,
      reportBug: context.reportBug,
      serverRemoved: (name) => lifecycle.serverRemoved(name),
    });
    services.provide('config', config);
    services.provide('sync', sync);
    services.provide('pinIssuer', pinIssuer);
    // What Berth is, and config.json as text.
    context.bridgeHandlers.register(scope.module, () =>
      createAppHandlers({
        appInfo: {
          version: BERTH_VERSION,
          shell: context.options.shell,
          platform: process.platform,
          configPath: paths.configFile,
          configDir: paths.configDir,
          logsDir: paths.logsDir,
        },
        config,
        events: context.events,
        sync,
      }),
    );
    scope.onStopping(() => {
      sync.stop();
      config.close();
    });
    // Temp files of writes a crash cut short (the real files beside them are whole); stores load some files lazily, so sweep here.
    for (const dir of [paths.configDir, paths.stateDir]) {
      await removeInterruptedWrites(dir).catch((error: unknown) =>
        warn(`could not remove interrupted writes in ${dir}: ${(error as Error).message}`),
      );
    }
    await config.load();
    // Servers will start: ask the login shell now, while the rest of the host opens (never rejects).
    if (Object.values(config.servers()).some((server) => server.enabled)) void services.get('loginEnv').get();
  },
};
