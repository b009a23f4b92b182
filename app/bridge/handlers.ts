import type { Handlers } from '../../shared/contract';
import type { AppInfo } from '../../shared/domain/config';
import type { AppsService } from '../apps/apps-service';
import type { BundleService } from '../bundles/bundle-service';
import type { ConfigImportService } from '../config-import/import-service';
import type { ChatService } from '../chat/chat-service';
import type { RootsService } from '../roots/roots-service';
import type { ConsentBroker } from '../consent/consent-broker';
import type { ElicitationFlow } from '../elicitation/elicitation-flow';
import type { PendingRequests } from '../pending/pending-requests';
import type { SamplingService } from '../sampling/sampling-service';
import type { OAuthSessions } from '../oauth/oauth-sessions';
import type { ServerSecrets } from '../secrets/server-secrets';
import type { SettingsStore } from '../settings/settings-store';
import type { ResourceService } from '../workspace/resource-service';
import type { EventHub } from '../events/event-hub';
import { createAppHandlers } from './handlers-app';
import { createAppsHandlers } from './handlers-apps';
import { createBundleHandlers } from './handlers-bundles';
import { createChatHandlers } from './handlers-chat';
import { createConfigImportHandlers } from './handlers-config-import';
import { createConsentHandlers } from './handlers-consent';
import { createElicitationHandlers } from './handlers-elicitation';
import { createInstructionsSettingsHandlers } from './handlers-instructions-settings';
import { createResultSettingsHandlers } from './handlers-result-settings';
import { createLogHandlers, type HandlerLogs } from './handlers-logs';
import { createOAuthHandlers } from './handlers-oauth';
import { createPendingHandlers } from './handlers-pending';
import { createPromptHandlers, type PromptHandlerDeps } from './handlers-prompts';
import { createResourceHandlers } from './handlers-resources';
import { createRootsHandlers } from './handlers-roots';
import { createSamplingHandlers } from './handlers-sampling';
import {
  createServerHandlers,
  type HandlerConfigStore,
  type HandlerSupervisor,
  type ServerHandlerDeps,
} from './handlers-servers';
import { createSettingsHandlers } from './handlers-settings';
import { createSkillsHandlers } from './handlers-skills';
import type { SkillsService } from '../skills/skills-service';
import { createProvidersHandlers } from './handlers-providers';
import { createRegistryHandlers } from './handlers-registry';
import type { RegistryService } from '../registry/registry-service';
import type { ProviderRegistry } from '../providers/provider-registry';
import { createTaskSettingsHandlers } from './handlers-task-settings';
import { createSandboxHandlers } from './handlers-sandbox';
import type { SandboxService } from '../sandbox/sandbox-service';
import { createTasksHandlers } from './handlers-tasks';
import type { TaskRegistry } from '../tasks/task-registry';
import type { ServerSync } from './server-sync';

/** The core of the host: config.json, the servers it runs, their logs. */
export interface HandlerDeps {
  config: HandlerConfigStore;
  supervisor: HandlerSupervisor;
  logs: HandlerLogs;
  events: Pick<EventHub, 'emit'>;
  sync: Pick<ServerSync, 'apply' | 'lastGoodConfig'>;
  /** Secret env values: kept in the secret store, referenced from config.json. */
  secrets: Pick<ServerSecrets, 'save' | 'forget' | 'resolve'>;
  appInfo: AppInfo;
  approvals: ServerHandlerDeps['approvals'];
  /** Background work failed with nobody waiting for it. */
  reportError(what: string, error: unknown): void;
}

/** The services behind the features: chat, settings, everything that waits for the person, roots, prompts, resources, import and sign-in. */
export interface FeatureDeps {
  chat: ChatService;
  settings: SettingsStore;
  /** Every model provider's client (Settings → Providers lists models and tests connections through it). */
  providers: Pick<ProviderRegistry, 'client'>;
  /** Everything that waits for the person. */
  pending: PendingRequests;
  consent: ConsentBroker;
  sampling: SamplingService;
  elicitation: ElicitationFlow;
  roots: RootsService;
  /** Prompts (slash commands) and argument completion. */
  promptServices: PromptHandlerDeps;
  /** The per-server resource browser. */
  resources: ResourceService;
  /** Import from other apps' config files, export to Claude Desktop. */
  configImport: ConfigImportService;
  /** OAuth sign-in to remote servers. */
  oauth: OAuthSessions;
  /** MCP tasks across servers. */
  tasks: TaskRegistry;
  /** MCP Apps: servers' UIs in the chat's cards. */
  apps: AppsService;
  /** Discover: MCP registries, install reviews, updates. */
  registry: RegistryService;
  /** MCP Bundles (.mcpb): open, review, install; their folders go with their servers. */
  bundles: BundleService;
  /** MCP skills (SEP-2640): the catalog and the person's pick from the composer. */
  skills: SkillsService;
  /** The OS sandbox of local servers: settings, policy, denials. */
  sandbox: SandboxService;
}

/**
 * Every contract method, served by the host's modules: one handler file per
 * contract file (handlers-<domain>.ts serves shared/contract/<domain>.ts).
 * Inputs arrive parsed by the router.
 */
export function createHandlers(deps: HandlerDeps & FeatureDeps): Handlers {
  const announceConfig = (): void => deps.events.emit('config.changed', deps.config.status());
  // A rename moves the server's sandbox setting and folders too, before the sync forgets the old name.
  const settings = deps.settings;
  const serverHandlers = createServerHandlers({
    ...deps,
    settings: {
      renameServer: async (from: string, to: string) => {
        await settings.renameServer(from, to);
        await deps.sandbox.renameServer(from, to);
      },
    },
  });
  const addServer = serverHandlers['servers.add'];
  // The sandbox chosen in a review is set before the server is added, so its first start is already sandboxed.
  serverHandlers['servers.add'] = async (input) => {
    const { sandbox, ...add } = input;
    const preset = sandbox !== undefined && deps.config.rawServer(input.name) === undefined;
    if (preset) await deps.sandbox.preset(input.name, sandbox, input.config.command !== undefined);
    try {
      return await addServer(add);
    } catch (error) {
      if (preset) await deps.sandbox.forgetPreset(input.name);
      throw error;
    }
  };
  const removeServer = serverHandlers['servers.remove'];
  // Removing a server installed from a bundle removes the bundle's folder too, whichever button did it.
  serverHandlers['servers.remove'] = async (input) => {
    const bundle = (deps.config.rawServer(input.name) ?? deps.sync.lastGoodConfig(input.name))?.bundle;
    const removed = await removeServer(input);
    if (bundle !== undefined) await deps.bundles.removeFolder(bundle.path);
    return removed;
  };
  return {
    ...createAppHandlers(deps),
    ...serverHandlers,
    ...createBundleHandlers({
      service: deps.bundles,
      servers: serverHandlers,
      rawServer: (name) => deps.config.rawServer(name),
    }),
    ...createOAuthHandlers({
      sessions: deps.oauth,
      rawServer: (name) => deps.config.rawServer(name),
      resolveSecrets: (name, config) => deps.secrets.resolve(name, config),
      supervisor: deps.supervisor,
    }),
    ...createLogHandlers(deps.logs, deps.events),
    ...createChatHandlers(deps.chat),
    ...createSettingsHandlers(deps.settings),
    ...createProvidersHandlers({ settings: deps.settings, providers: deps.providers }),
    ...createPendingHandlers(deps.pending),
    ...createConsentHandlers(deps.consent),
    ...createSamplingHandlers({
      budget: deps.sampling.budget,
      review: deps.sampling.review,
      settings: deps.settings,
      servers: deps.supervisor,
      models: deps.sampling.models,
    }),
    ...createElicitationHandlers(deps.elicitation),
    ...createRootsHandlers(deps.roots),
    ...createPromptHandlers(deps.promptServices),
    ...createResourceHandlers(deps.resources),
    ...createConfigImportHandlers({
      service: deps.configImport,
      announceConfig,
      sync: deps.sync,
      sandbox: deps.sandbox,
      isLocal: (name) => deps.config.rawServer(name)?.command !== undefined,
    }),
    ...createTasksHandlers(deps.tasks),
    ...createAppsHandlers(deps.apps),
    ...createRegistryHandlers({ service: deps.registry, servers: serverHandlers }),
    ...createTaskSettingsHandlers({ settings: deps.settings, servers: deps.supervisor, events: deps.events }),
    ...createInstructionsSettingsHandlers({ settings: deps.settings, servers: deps.supervisor, events: deps.events }),
    ...createResultSettingsHandlers({ settings: deps.settings, servers: deps.supervisor, events: deps.events }),
    ...createSkillsHandlers(deps.skills),
    ...createSandboxHandlers(deps.sandbox),
  };
}
