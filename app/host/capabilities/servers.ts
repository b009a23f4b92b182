import { createServerHandlers } from '../../bridge/handlers-servers';
import { ServerConnection } from '../../servers/server-connection';
import { createLaunchPreparer } from '../../servers/server-launch';
import { withServerHome } from '../../servers/server-home';
import { ServerSupervisor } from '../../servers/supervisor';
import { BERTH_VERSION } from '../berth-version';
import { applyWrappers } from '../host-context';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';
import type { ServerHandlers } from '../../bridge/handlers-servers';

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
        // The home is set before the wrappers run: the sandbox starts the server in it and lets it write there.
        prepareLaunch: applyWrappers(
          withServerHome(
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
            context.paths.configDir,
          ),
          context.launchWrappers,
        ),
        clientVersion: BERTH_VERSION,
        clientSetup: (server, client) => lifecycle.clientSetup(server, client),
        onListChanged: (server, kind) => lifecycle.listChanged(server, kind),
        openConnection: applyWrappers(ServerConnection.open, context.connectionWrappers),
      }),
    );
    context.bridgeHandlers.register(scope.module, () => serverHandlers(context));
    // The services hear that Berth quits before anything closes; the servers stop once what uses them has closed.
    scope.onStopping(() => lifecycle.shutdown());
    scope.onShutdown(() => supervisor.shutdown());
  },
};

/**
 * Add, edit, remove, start and stop servers. What other modules keep per
 * server follows an edit: approvals, folder access and loaded skills, the
 * sandbox setting and folders, a bundle's folder.
 */
function serverHandlers({ services, events, reportBug }: HostContext): ServerHandlers {
  const config = services.get('config');
  const sync = services.get('sync');
  const settings = services.get('settings');
  const sandbox = services.get('sandbox');
  const bundles = services.get('bundles');
  const consent = services.get('consent');
  const roots = services.get('roots');
  const skills = services.get('skills');
  const handlers = createServerHandlers({
    config,
    supervisor: services.get('supervisor'),
    events,
    sync,
    secrets: services.get('serverSecrets'),
    oauth: services.get('oauth'),
    approvals: {
      serverEdited: async (edit) => {
        await consent.serverEdited(edit);
        await roots.serverEdited(edit);
        await skills.serverEdited(edit);
      },
    },
    // A rename moves the server's sandbox setting and folders too, before the sync forgets the old name.
    settings: {
      renameServer: async (from: string, to: string) => {
        await settings.renameServer(from, to);
        await sandbox.renameServer(from, to);
      },
    },
    reportError: reportBug,
  });
  const addServer = handlers['servers.add'];
  const removeServer = handlers['servers.remove'];
  return {
    ...handlers,
    // The sandbox chosen in a review is set before the server is added, so its first start is already sandboxed.
    'servers.add': async (input) => {
      const { sandbox: chosen, ...add } = input;
      const preset = chosen !== undefined && config.rawServer(input.name) === undefined;
      if (preset) await sandbox.preset(input.name, chosen, input.config.command !== undefined);
      try {
        return await addServer(add);
      } catch (error) {
        if (preset) await sandbox.forgetPreset(input.name);
        throw error;
      }
    },
    // Removing a server installed from a bundle removes the bundle's folder too, whichever button did it.
    'servers.remove': async (input) => {
      const bundle = (config.rawServer(input.name) ?? sync.lastGoodConfig(input.name))?.bundle;
      const removed = await removeServer(input);
      if (bundle !== undefined) await bundles.removeFolder(bundle.path);
      return removed;
    },
  };
}
