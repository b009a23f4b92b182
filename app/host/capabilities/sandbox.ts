import { createSandboxHandlers } from '../../bridge/handlers-sandbox';
import { openSandbox } from '../../sandbox/create-sandbox';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** Wrapper orders: the sandbox watches the bare connection and prepares the launch last (see tasks). */
export const SANDBOX_CONNECTION_ORDER = 10;
export const SANDBOX_LAUNCH_ORDER = 10;

/** Local servers in an OS sandbox: wraps their launch, watches their connections and logs for denials. */
export const sandboxModule: HostModule<HostContext> = {
  name: 'sandbox',
  phase: 'services',
  async open(context, scope) {
    const { services } = context;
    const sandbox = services.provide(
      'sandbox',
      await openSandbox({
        paths: context.paths,
        // The supervisor and the roots open later; the sandbox reads them only for a running server.
        servers: () => services.get('supervisor'),
        roots: () => services.find('roots'),
        events: context.events,
        logs: services.get('logs'),
        warn: context.warn,
        reportError: context.reportBug,
        ownPorts: context.options.ownPorts,
      }),
    );
    context.lifecycle.register(sandbox);
    context.logWatchers.push((entries) => sandbox.sawLogs(entries));
    context.connectionWrappers.push({
      order: SANDBOX_CONNECTION_ORDER,
      wrap: (open) => sandbox.watchConnections(open),
    });
    context.launchWrappers.push({ order: SANDBOX_LAUNCH_ORDER, wrap: (prepare) => sandbox.wrap(prepare) });
    scope.onShutdown(() => sandbox.close());
    context.bridgeHandlers.register(scope.module, () => createSandboxHandlers(sandbox));
  },
};
