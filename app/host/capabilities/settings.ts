import { createSettingsHandlers } from '../../bridge/handlers-settings';
import { forgetSettingsOnRemoval } from '../../bridge/server-settings-events';
import { FileSecretStore } from '../../secrets/secret-store';
import { SettingsStore } from '../../settings/settings-store';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** The secret store (its values redacted from every log) and the settings kept in it and beside it. */
export const settingsModule: HostModule<HostContext> = {
  name: 'settings',
  phase: 'foundation',
  async open(context, scope) {
    const { services, paths, options, warn } = context;
    const secretStore = services.provide(
      'secretStore',
      services
        .get('redaction')
        .store(
          options.secrets ??
            new FileSecretStore({ filePath: paths.secretsFile, warn: (text) => warn(`secrets: ${text}`) }),
        ),
    );
    const settings = services.provide(
      'settings',
      await SettingsStore.open({
        configDir: paths.configDir,
        secrets: secretStore,
        env: context.hostEnv,
        warn: (text) => warn(`settings: ${text}`),
        ...(options.systemLanguages !== undefined ? { systemLanguages: options.systemLanguages } : {}),
      }),
    );
    scope.onShutdown(() => settings.flush());
    context.bridgeHandlers.register(scope.module, () => createSettingsHandlers(settings));
    context.lifecycle.register(forgetSettingsOnRemoval(context.events, settings, context.reportBug));
  },
};
