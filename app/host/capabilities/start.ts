import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** Last: the config file is watched, and the configured servers start. */
export const startModule: HostModule<HostContext> = {
  name: 'start',
  phase: 'ready',
  open({ services, reportBug }) {
    services.get('config').watch();
    // Starting servers can take their whole start-up timeout: the shell must not wait for it.
    services
      .get('sync')
      .apply()
      .catch((error: unknown) => reportBug('starting the configured servers failed', error));
  },
};
