import { createOAuthHandlers } from '../../bridge/handlers-oauth';
import { OAuthSessions } from '../../oauth/oauth-sessions';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** Sign-in to HTTP servers: tokens in the secret store; a sign-in restarts its server, a pinned issuer is written to the config. */
export const oauthModule: HostModule<HostContext> = {
  name: 'oauth',
  phase: 'services',
  open(context, scope) {
    const { services, options, reportBug } = context;
    const logs = services.get('logs');
    const settings = services.get('settings');
    const oauth = services.provide(
      'oauth',
      new OAuthSessions({
        store: services.get('secretStore'),
        // Electron opens the system browser; browser mode leaves it to the renderer (the person's own browser).
        ...(options.shell === 'electron' && options.openExternal !== undefined
          ? { openExternal: options.openExternal }
          : {}),
        log: (server, level, text) => logs.append({ server, time: Date.now(), source: 'host', level, text }),
        clientMetadataUrl: () => settings.oauthClientMetadataUrl(),
        // The config and the supervisor open later: a sign-in happens only once servers run.
        onIssuerPinned: (server, issuer) => {
          services
            .get('pinIssuer')(server, issuer)
            .catch((error: unknown) => reportBug(`remembering the authorization server of '${server}' failed`, error));
        },
        onSignedIn: (server) => {
          const supervisor = services.get('supervisor');
          // The state says "signed in" at once, even if the start that follows fails for another reason.
          supervisor
            .signInChanged(server)
            .then(() => supervisor.restart(server))
            .catch((error: unknown) => reportBug(`starting '${server}' after signing in failed`, error));
        },
      }),
    );
    scope.onStopping(() => oauth.close());
    context.bridgeHandlers.register(scope.module, () => {
      const config = services.get('config');
      const serverSecrets = services.get('serverSecrets');
      return createOAuthHandlers({
        sessions: oauth,
        rawServer: (name) => config.rawServer(name),
        resolveSecrets: (name, serverConfig) => serverSecrets.resolve(name, serverConfig),
        supervisor: services.get('supervisor'),
      });
    });
  },
};
