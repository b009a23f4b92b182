import { createRootsHandlers } from '../../bridge/handlers-roots';
import { RootsService } from '../../roots/roots-service';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** Workspace roots: which folders each server sees, asked before a server first sees one. */
export const rootsModule: HostModule<HostContext> = {
  name: 'roots',
  phase: 'loaded',
  async open(context, scope) {
    const { services, options, warn } = context;
    const config = services.get('config');
    const roots = services.provide(
      'roots',
      await RootsService.open({
        stateDir: context.paths.stateDir,
        shell: options.shell,
        servers: services.get('supervisor'),
        knownServers: () => Object.keys(config.servers()),
        pending: services.get('pending'),
        events: context.events,
        logs: services.get('logs'),
        ...(options.pickFolder !== undefined ? { pickFolder: options.pickFolder } : {}),
        warn: (text) => warn(`roots: ${text}`),
        reportError: context.reportBug,
      }),
    );
    // Servers start only once the host is ready, so every client is set up with roots.
    context.lifecycle.register(roots);
    context.bridgeHandlers.register(scope.module, () => createRootsHandlers(roots));
    services.get('sandbox').watchRoots((listener) => roots.store.onChange(listener));
    // Stops the disk checks at once; its pending saves are awaited with the rest.
    let closing: Promise<void> | undefined;
    scope.onStopping(() => {
      closing = roots.close();
    });
    scope.onShutdown(() => closing);
  },
};
