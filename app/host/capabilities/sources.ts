import { homedir } from 'node:os';
import { join } from 'node:path';
import { createBundleHandlers } from '../../bridge/handlers-bundles';
import { createConfigImportHandlers } from '../../bridge/handlers-config-import';
import { createRegistryHandlers } from '../../bridge/handlers-registry';
import { BundleService } from '../../bundles/bundle-service';
import { ConfigImportService } from '../../config-import/import-service';
import { RegistryCache } from '../../registry/registry-cache';
import { RegistryClient } from '../../registry/registry-client';
import { RegistryService } from '../../registry/registry-service';
import { DEFAULT_REGISTRY, RegistrySources } from '../../registry/registry-sources';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/**
 * The three ways a server arrives besides the form: another app's config, a
 * registry entry, a bundle. Once the config is loaded, they are built over
 * the same facts: the servers configured, the names taken (a server still
 * running from a broken entry keeps its name too), and the PATH a start would
 * use, on which the review finds the program a command runs.
 */
export const sourcesModule: HostModule<HostContext> = {
  name: 'sources',
  phase: 'ready',
  open(context, scope) {
    const { services, paths, hostEnv, warn } = context;
    const config = services.get('config');
    const supervisor = services.get('supervisor');
    const loginEnv = services.get('loginEnv');
    const shared = {
      servers: () => config.servers(),
      takenNames: () => [...new Set([...config.names(), ...supervisor.list().map((state) => state.name)])],
      launchPath: async () => (await loginEnv.get()).env.PATH,
      cwd: process.cwd(),
    };
    const home = hostEnv.HOME ?? hostEnv.USERPROFILE ?? homedir();
    const configImport = services.provide(
      'configImport',
      new ConfigImportService({
        config: {
          servers: shared.servers,
          takenNames: shared.takenNames,
          addServers: (entries) => config.addServers(entries),
        },
        platform: process.platform,
        home,
        // What a server would see: `${env:NAME}` in an imported file resolves against it, never ANTHROPIC_API_KEY.
        env: context.serverEnv,
        launchPath: shared.launchPath,
        cwd: shared.cwd,
      }),
    );
    const registry = services.provide(
      'registry',
      new RegistryService({
        client: new RegistryClient(),
        cache: new RegistryCache(join(paths.stateDir, 'registry-cache'), (text) => warn(`registry: ${text}`)),
        sources: new RegistrySources(paths.configDir, hostEnv.BERTH_REGISTRY_URL ?? DEFAULT_REGISTRY, (text) =>
          warn(`registry: ${text}`),
        ),
        ...shared,
      }),
    );
    const bundles = services.provide(
      'bundles',
      new BundleService({ bundlesDir: paths.bundlesDir, home, platform: process.platform, ...shared }),
    );
    // Leftovers of a previous run (staged bundles, uploads) go; bundle methods wait for it.
    const started = bundles
      .start()
      .catch((error: unknown) => context.reportBug('clearing the bundles staging folders failed', error));
    // The bundles' start-up clean-up writes in the data dir.
    scope.onShutdown(() => started);
    // An import, an install or a bundle saves its server as the form does: through servers.add and servers.update.
    context.bridgeHandlers.register(scope.module, (served) => {
      const sandbox = services.get('sandbox');
      return {
        ...createConfigImportHandlers({
          service: configImport,
          announceConfig: () => context.events.emit('config.changed', config.status()),
          sync: services.get('sync'),
          sandbox,
          isLocal: (name) => config.rawServer(name)?.command !== undefined,
        }),
        ...createRegistryHandlers({ service: registry, servers: served }),
        ...createBundleHandlers({ service: bundles, servers: served, rawServer: (name) => config.rawServer(name) }),
      };
    });
  },
};
