import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** The renderer hears a server's state once the services have (the prompt catalog, say, is already updated): it joins the lifecycle after them. */
export const serverEventsModule: HostModule<HostContext> = {
  name: 'server-events',
  phase: 'features',
  open({ lifecycle, events }) {
    lifecycle.register({
      serverChanged: (state) => events.emit('servers.changed', state),
      listChanged: { resources: (server) => events.emit('resources.listChanged', { server }) },
    });
  },
};
