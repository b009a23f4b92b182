import { createAppHandlers } from '../../bridge/handlers-app';
import { ServerSync } from '../../bridge/server-sync';
import { ConfigStore } from '../../config/config-store';
import { removeInterruptedWrites } from '../../config/state-file';
import { createIssuerPinning } from '../../oauth/issuer-pinning';
import { BERTH_VERSION } from '../berth-version';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/**
 * config.json and what keeps the running servers in step with it: the store
 * (an edit Berth did not make is applied at once), the sync that starts,
 * restarts and stops servers, and the OAuth issuer pinning that writes to the
 * file and applies it again. The three refer to each other, so they are made
 * together; the store is loaded here, and the start module watches it.
 */
export const configModule: HostModule<HostContext> = {
  name: 'config',
  phase: 'features',
  async open(context, scope) {
    const { services, paths, events, warn, reportBug, lifecycle } = context;
    const logs = services.get('logs');
    const serverSecrets = services.get('serverSecrets');
    const config = new ConfigStore({
      filePath: paths.configFile,
      // Only edits Berth did not make itself arrive here (the file watcher).
      onChange: (status) => {
        events.emit('config.changed', status);
        sync.apply().catch((error: unknown) => reportBug('applying the changed config failed', error));
      },
      onWatchError: (error) => reportBug(`watching ${paths.configFile} failed`, error),
      moveSecretsOut: (text) => serverSecrets.moveOutOfText(text),
      warn: (text) => warn(`config: ${text}`),
    });
    const pinIssuer = createIssuerPinning({
      pin: (server, issuer) => config.pinServerOAuthIssuer(server, issuer),
      announceConfig: () => events.emit('config.changed', config.status()),
      applyConfig: () => sync.apply(),
      warn: (server, text) =>
        logs.append({ server, time: Date.now(), source: 'host', level: 'warning', text: `OAuth: ${text}` }),
    });
    const sync = new ServerSync({
      config,
      supervisor: services.get('supervisor'),
      events,
      // A removed server's process is gone: the host's lifecycle forgets what it kept for it.
      serverRemoved: (name) => lifecycle.serverRemoved(name),
      onError: (error) => reportBug('starting servers failed', error),
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
        events,
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
