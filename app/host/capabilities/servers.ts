import { ServerConnection } from '../../servers/server-connection';
import { createLaunchPreparer } from '../../servers/server-launch';
import { ServerSupervisor } from '../../servers/supervisor';
import { BERTH_VERSION } from '../berth-version';
import { applyWrappers } from '../host-context';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** The supervisor: one client per configured server, opened through every connection wrapper and launch preparer registered before it. */
export const serversModule: HostModule<HostContext> = {
  name: 'servers',
  phase: 'servers',
  open(context, scope) {
    const { services, lifecycle } = context;
    const loginEnv = services.get('loginEnv');
    const serverSecrets = services.get('serverSecrets');
    const redaction = services.get('redaction');
    const oauth = services.get('oauth');
    const supervisor = services.provide(
      'supervisor',
      new ServerSupervisor({
        authProviderFor: (server, config) => oauth.providerFor(server, config),
        logs: services.get('logs'),
        stateDir: context.paths.stateDir,
        onState: (state) => lifecycle.serverChanged(state),
        env: context.serverEnv,
        prepareLaunch: applyWrappers(
          createLaunchPreparer({
            launchEnv: () => loginEnv.get(),
            settledLaunchEnv: () => loginEnv.settled(),
            baseLaunchEnv: (pathSource) => loginEnv.base(pathSource),
            resolveSecrets: async (name, config) => {
              const resolved = await serverSecrets.resolve(name, config);
              redaction.serverResolved(name, resolved);
              return resolved;
            },
          }),
          context.launchWrappers,
        ),
        clientVersion: BERTH_VERSION,
        clientSetup: (server, client) => lifecycle.clientSetup(server, client),
        onListChanged: (server, kind) => lifecycle.listChanged(server, kind),
        openConnection: applyWrappers(ServerConnection.open, context.connectionWrappers),
      }),
    );
    // The services hear that Berth quits before anything closes; the servers stop once what uses them has closed.
    scope.onStopping(() => lifecycle.shutdown());
    scope.onShutdown(() => supervisor.shutdown());
  },
};
