import { createRouter } from '../../bridge/router';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** The router that serves the contract: every method from the module that registered it, once all have opened. */
export const bridgeModule: HostModule<HostContext> = {
  name: 'bridge',
  phase: 'ready',
  open({ services, bridgeHandlers, reportBug }) {
    services.provide(
      'router',
      createRouter(bridgeHandlers.build(), {
        onInternalError: (method, error) => reportBug(`${method} failed with a bug`, error),
      }),
    );
  },
};
