import { createHandlers } from '../../bridge/handlers';
import { createRouter } from '../../bridge/router';
import { BERTH_VERSION } from '../berth-version';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** The router that serves the contract over every service opened before it. */
export const bridgeModule: HostModule<HostContext> = {
  name: 'bridge',
  phase: 'ready',
  open(context) {
    const { services, paths, options, reportBug } = context;
    const consent = services.get('consent');
    const roots = services.get('roots');
    const skills = services.get('skills');
    const handlers = createHandlers({
      config: services.get('config'),
      supervisor: services.get('supervisor'),
      logs: services.get('logs'),
      events: context.events,
      sync: services.get('sync'),
      secrets: services.get('serverSecrets'),
      chat: services.get('chat'),
      settings: services.get('settings'),
      providers: services.get('providers'),
      pending: services.get('pending'),
      consent,
      sampling: services.get('sampling'),
      elicitation: services.get('elicitation'),
      roots,
      promptServices: { prompts: services.get('prompts'), completions: services.get('completions') },
      resources: services.get('resources'),
      configImport: services.get('configImport'),
      oauth: services.get('oauth'),
      tasks: services.get('tasks'),
      apps: services.get('apps'),
      registry: services.get('registry'),
      bundles: services.get('bundles'),
      skills,
      sandbox: services.get('sandbox'),
      appInfo: {
        version: BERTH_VERSION,
        shell: options.shell,
        platform: process.platform,
        configPath: paths.configFile,
        configDir: paths.configDir,
        logsDir: paths.logsDir,
      },
      approvals: {
        serverEdited: async (edit) => {
          await consent.serverEdited(edit);
          await roots.serverEdited(edit);
          await skills.serverEdited(edit);
        },
      },
      reportError: reportBug,
    });
    services.provide(
      'router',
      createRouter(handlers, { onInternalError: (method, error) => reportBug(`${method} failed with a bug`, error) }),
    );
  },
};
