import type { AppsService } from '../apps/apps-service';
import type { AnthropicAccess } from '../chat/anthropic-access';
import type { ConfigStore } from '../config/config-store';
import type { TightenReport } from '../config/private-files';
import type { HostChat } from '../chat/chat-service';
import type { HostRedaction } from './redaction';
import type { HostRoots } from '../roots/roots-service';
import type { BundleService } from '../bundles/bundle-service';
import type { ConfigImportService } from '../config-import/import-service';
import type { RegistryService } from '../registry/registry-service';
import type { HostWorkflow } from '../host-workflow';
import type { LogHub } from '../logs/log-hub';
import type { OAuthSessions } from '../oauth/oauth-sessions';
import type { ProviderRegistry } from '../providers/provider-registry';
import type { SandboxService } from '../sandbox/sandbox-service';
import type { SecretStore } from '../secrets/secret-store';
import type { ServerSecrets } from '../secrets/server-secrets';
import type { ServerSync } from '../bridge/server-sync';
import type { Router } from '../bridge/router';
import type { LoginShellEnvironment } from '../servers/login-env';
import type { ServerSupervisor } from '../servers/supervisor';
import type { SettingsStore } from '../settings/settings-store';
import type { SkillsService } from '../skills/skills-service';
import type { TaskRegistry } from '../tasks/task-registry';
import type { ToolTasks } from '../tasks/tool-tasks';
import type { CompletionBroker } from '../workspace/completion-broker';
import type { PromptCatalogService } from '../workspace/prompt-catalog';
import type { ResourceService } from '../workspace/resource-service';
import type { HostWorkflowOptions } from '../host-workflow';

/** Every service a host module provides, by the name others get it with (app/host/modules.ts says who provides which). */
export interface HostServices {
  redaction: HostRedaction;
  logs: LogHub;
  /** What making Berth's files private found (the conversation files' identities, for the conversations index). */
  privateFiles: TightenReport;
  secretStore: SecretStore;
  settings: SettingsStore;
  anthropic: AnthropicAccess;
  providers: ProviderRegistry;
  /** The models and provider sampling uses. */
  samplingModels: Pick<HostWorkflowOptions, 'llm' | 'samplingModels' | 'llmReady'>;
  loginEnv: LoginShellEnvironment;
  serverSecrets: ServerSecrets;
  openExternal: (url: string) => Promise<void>;
  workflow: HostWorkflow;
  oauth: OAuthSessions;
  tasks: TaskRegistry;
  toolTasks: ToolTasks;
  sandbox: SandboxService;
  supervisor: ServerSupervisor;
  prompts: PromptCatalogService;
  completions: CompletionBroker;
  resources: ResourceService;
  apps: AppsService;
  skills: SkillsService;
  config: ConfigStore;
  sync: ServerSync;
  pinIssuer: (server: string, issuer: string) => Promise<void>;
  roots: HostRoots;
  chat: HostChat;
  configImport: ConfigImportService;
  registry: RegistryService;
  bundles: BundleService;
  router: Router;
}
