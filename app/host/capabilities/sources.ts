import { homedir } from 'node:os';
import { join } from 'node:path';
import { createBundleHandlers } from '../../bridge/handlers-bundles';
import { createConfigImportHandlers } from '../../bridge/handlers-config-import';
import { createRegistryHandlers } from '../../bridge/handlers-registry';
import { BundleService } from '../../bundles/bundle-service';
import type { BerthPaths } from '../../config/paths';
import type { ConfigStore } from '../../config/config-store';
import { ConfigImportService } from '../../config-import/import-service';
import { RegistryCache } from '../../registry/registry-cache';
import { RegistryClient } from '../../registry/registry-client';
import { RegistryService } from '../../registry/registry-service';
import { DEFAULT_REGISTRY, RegistrySources } from '../../registry/registry-sources';
import type { LoginShellEnvironment } from '../../servers/login-env';
import type { ServerSupervisor } from '../../servers/supervisor';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

export interface ServerSourcesOptions {
  config: Pick<ConfigStore, 'servers' | 'names' | 'addServers'>;
  supervisor: Pick<ServerSupervisor, 'list'>;
  loginEnv: Pick<LoginShellEnvironment, 'get'>;
  paths: Pick<BerthPaths, 'stateDir' | 'configDir' | 'bundlesDir'>;
  /** Berth's own environment (BERTH_REGISTRY_URL, HOME). */
  hostEnv: NodeJS.ProcessEnv;
  /** What a server would see: `${env:NAME}` in an imported file resolves against it, never ANTHROPIC_API_KEY. */
  serverEnv: Record<string, string | undefined>;
  warn(text: string): void;
  reportBug(what: string, error: unknown): void;
}

/** The three ways a server arrives besides the form: another app's config, a registry entry, a bundle. */
export interface ServerSources {
  configImport: ConfigImportService;
  registry: RegistryService;
  bundles: BundleService;
  /** Settles when the bundles' start-up clean-up has (it writes in the data dir): shutdown waits for it. */
  started: Promise<void>;
}

/**
 * Builds the import, registry and bundle services over the same facts: the
 * servers configured, the names taken (a server still running from a broken
 * entry keeps its name too), and the PATH a start would use, on which the
 * review finds the program a command runs.
 */
export function createServerSources(options: ServerSourcesOptions): ServerSources {
  const { config, supervisor, loginEnv, paths, hostEnv, warn } = options;
  const shared = {
    servers: () => config.servers(),
    takenNames: () => [...new Set([...config.names(), ...supervisor.list().map((state) => state.name)])],
    launchPath: async () => (await loginEnv.get()).env.PATH,
    cwd: process.cwd(),
  };
  const home = hostEnv.HOME ?? hostEnv.USERPROFILE ?? homedir();
  const configImport = new ConfigImportService({
    config: {
      servers: shared.servers,
      takenNames: shared.takenNames,
      addServers: (entries) => config.addServers(entries),
    },
    platform: process.platform,
    home,
    env: options.serverEnv,
    launchPath: shared.launchPath,
    cwd: shared.cwd,
  });
  const registry = new RegistryService({
    client: new RegistryClient(),
    cache: new RegistryCache(join(paths.stateDir, 'registry-cache'), (text) => warn(`registry: ${text}`)),
    sources: new RegistrySources(paths.configDir, hostEnv.BERTH_REGISTRY_URL ?? DEFAULT_REGISTRY, (text) =>
      warn(`registry: ${text}`),
    ),
    ...shared,
  });
  const bundles = new BundleService({ bundlesDir: paths.bundlesDir, home, platform: process.platform, ...shared });
  // Leftovers of a previous run (staged bundles, uploads) go; bundle methods wait for it.
  const started = bundles
    .start()
    .catch((error: unknown) => options.reportBug('clearing the bundles staging folders failed', error));
  return { configImport, registry, bundles, started };
}

/** The server sources, once the config is loaded. */
export const sourcesModule: HostModule<HostContext> = {
  name: 'sources',
  phase: 'ready',
  open(context, scope) {
    const { services } = context;
    const sources = createServerSources({
      config: services.get('config'),
      supervisor: services.get('supervisor'),
      loginEnv: services.get('loginEnv'),
      paths: context.paths,
      hostEnv: context.hostEnv,
      serverEnv: context.serverEnv,
      warn: context.warn,
      reportBug: context.reportBug,
    });
    services.provide('configImport', sources.configImport);
    services.provide('registry', sources.registry);
    services.provide('bundles', sources.bundles);
    // The bundles' start-up clean-up writes in the data dir.
    scope.onShutdown(() => sources.started);
    // An import, an install or a bundle saves its server as the form does: through servers.add and servers.update.
    context.bridgeHandlers.register(scope.module, (served) => {
      const config = services.get('config');
      const sandbox = services.get('sandbox');
      return {
        ...createConfigImportHandlers({
          service: sources.configImport,
          announceConfig: () => context.events.emit('config.changed', config.status()),
          sync: services.get('sync'),
          sandbox,
          isLocal: (name) => config.rawServer(name)?.command !== undefined,
        }),
        ...createRegistryHandlers({ service: sources.registry, servers: served }),
        ...createBundleHandlers({
          service: sources.bundles,
          servers: served,
          rawServer: (name) => config.rawServer(name),
        }),
      };
    });
  },
};
