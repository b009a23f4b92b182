import { ServerSecrets } from '../../secrets/server-secrets';
import { LoginShellEnvironment } from '../../servers/login-env';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** What a server's launch reads: the login shell's environment (asked once servers are to start) and its secrets. */
export const launchModule: HostModule<HostContext> = {
  name: 'launch',
  phase: 'foundation',
  open(context, scope) {
    const { services, warn, reportBug } = context;
    const logs = services.get('logs');
    const loginEnv = services.provide(
      'loginEnv',
      new LoginShellEnvironment({ baseEnv: context.serverEnv, warn: (text) => warn(`launch environment: ${text}`) }),
    );
    scope.onStopping(() => loginEnv.close());
    services.provide(
      'serverSecrets',
      new ServerSecrets({
        store: services.get('secretStore'),
        // The config and the supervisor open later; these are called only once the config is loading.
        configText: () => services.get('config').text(),
        info: (text) =>
          logs.append({ server: '', time: Date.now(), source: 'host', level: 'info', text: `secrets: ${text}` }),
        warn: (text) => warn(`secrets: ${text}`),
        // config.json was edited by hand with a new value for a secret: servers running with the old one restart.
        onValuesChanged: (names) => {
          const supervisor = services.get('supervisor');
          for (const name of names) {
            const status = supervisor.get(name)?.status;
            if (status === undefined || status === 'stopped') continue;
            supervisor
              .restart(name)
              .catch((error: unknown) => reportBug(`restarting ${name} with its new secret value failed`, error));
          }
        },
      }),
    );
  },
};
