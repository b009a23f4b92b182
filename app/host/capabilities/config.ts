import { removeInterruptedWrites } from '../../config/state-file';
import { createConfigSync } from '../../host-config-sync';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

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
    scope.onStopping(() => {
      sync.stop();
      config.close();
    });
    // Temp files of writes a crash cut short (the real files beside them are whole); stores load some files lazily, so sweep here.
    for (const dir of [paths.configDir, paths.stateDir]) {
      await removeInterruptedWrites(dir).catch((error: unknown) => warn(`could not remove interrupted writes in ${dir}: ${(error as Error).message}`));
    }
    await config.load();
    // Servers will start: ask the login shell now, while the rest of the host opens (never rejects).
    if (Object.values(config.servers()).some((server) => server.enabled)) void services.get('loginEnv').get();
  },
};
