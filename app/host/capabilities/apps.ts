import { createAppsHandlers } from '../../bridge/handlers-apps';
import { createApps } from '../../apps/create-apps';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** MCP Apps: `ui://` resources shown in the sandboxed frame, their actions under the same consent as a model's. */
export const appsModule: HostModule<HostContext> = {
  name: 'apps',
  phase: 'features',
  open({ services, lifecycle, events, options, bridgeHandlers }, scope) {
    const apps = services.provide(
      'apps',
      createApps({
        lifecycle,
        servers: services.get('supervisor'),
        consent: services.get('consent'),
        logs: services.get('logs'),
        events,
        openExternal: services.get('openExternal'),
        sandboxProxyUrl: options.appSandboxProxyUrl,
        // Chat opens once the config is loaded; an app asks for its conversation only when shown.
        conversation: (id) => services.get('chat').get(id),
      }),
    );
    bridgeHandlers.register(scope.module, () => createAppsHandlers(apps));
  },
};
