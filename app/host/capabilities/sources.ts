import { createServerSources } from '../../host-install';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** The ways a server arrives besides the form: another app's config, a registry entry, a bundle. */
export const sourcesModule: HostModule<HostContext> = {
  name: 'sources',
  phase: 'ready',
  open(context, scope) {
    const { services } = context;
    const sources = services.provide(
      'sources',
      createServerSources({
        config: services.get('config'),
        supervisor: services.get('supervisor'),
        loginEnv: services.get('loginEnv'),
        paths: context.paths,
        hostEnv: context.hostEnv,
        serverEnv: context.serverEnv,
        warn: context.warn,
        reportBug: context.reportBug,
      }),
    );
    // The bundles' start-up clean-up writes in the data dir.
    scope.onShutdown(() => sources.started);
  },
};
