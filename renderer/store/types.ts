import type { ConsentRule } from '../../shared/domain/consent-rules';
import type { EventsSlice } from './events-types';
import type { LanguageChoice } from '../../shared/domain/language';
import type { Appearance } from '../../shared/domain/appearance';
import type { StateCreator } from 'zustand';
import type { MethodInput, MethodOutput } from '../../shared/contract';
import type { CompletionResult, PromptCatalog, PromptResult } from '../../shared/contract/prompts';
import type { FolderListing, RootsView } from '../../shared/contract/roots';
import type { SettingsView } from '../../shared/contract/settings';
import type { ProvidersView } from '../../shared/contract/providers';
import type { ProviderChanges, ProviderConfigInput, ProviderView } from '../../shared/domain/providers';
import type { InstructionsSettingsSlice } from './instructions-settings-types';
import type { ChatSlice, ComposerSlice } from './chat-types';
import type { ConfigImportSlice } from './config-import-types';
import type { UiSlice } from './ui-types';
import type { AwaitingElicitation } from '../../shared/contract/elicitation';
import type { SamplingModelTable, SamplingPolicies } from '../../shared/contract/sampling';
import type { ModelRanks } from '../../shared/domain/model-ranks';
import type { TaskServerSettings } from '../../shared/contract/task-settings';
import type { AppInfo, ConfigStatus, LogEntry, LogLevel, ServerConfigInput, ServerState } from '../../shared/domain';
import type { AuditPage, ConsentPolicy, SamplingPolicy } from '../../shared/domain/consent';
import type { TaskRecord, TasksChanged } from '../../shared/domain/task';
import type { RootExposure, RootView } from '../../shared/domain/roots';
import type { SamplingLimits, SamplingUsage } from '../../shared/domain/sampling-limits';
import type {
  PendingChange,
  PendingCounts,
  PendingKind,
  PendingRequest,
  PendingResponse,
} from '../../shared/domain/pending';
import type { Failure, Result } from '../../shared/result';
import type { ConnectionStatus, RendererTransport } from '../transport/connection';

// The slices' types live beside their own seams; this module stays the one entry that names them all.
export type * from './chat-types';
export type * from './config-import-types';
export type * from './ui-types';

/** A log entry plus its precomputed lowercase search text (filtering 200k lines must stay fast). */
export type LogRow = LogEntry & { readonly haystack: string };

export interface ServersSlice {
  /** Host-owned: replaced only by snapshots and `servers.*` events. */
  servers: Record<string, ServerState>;
  serversLoaded: boolean;
  applyServersSnapshot(list: ServerState[]): void;
  applyServerChanged(state: ServerState): void;
  applyServerRemoved(name: string): void;
  loadServers(): Promise<void>;
  startServer(name: string): Promise<void>;
  stopServer(name: string): Promise<void>;
  restartServer(name: string): Promise<void>;
  /** OAuth: starts the sign-in; the answer says which page to open (and whether the host already did). */
  signInServer(name: string): Promise<Result<MethodOutput<'servers.signIn'>>>;
  signOutServer(name: string): Promise<void>;
  setServerEnabled(name: string, enabled: boolean): Promise<void>;
  /** null: back to the server's own default. */
  setServerLogLevel(name: string, level: LogLevel | null): Promise<void>;
  /** Returns the failure so the form can show it inline. */
  addServer(name: string, config: ServerConfigInput): Promise<Result<ServerState>>;
  /** `approvals`: the person's answer when the command or address changed (keep what was approved, or revoke it; the host revokes by default). */
  updateServer(
    name: string,
    newName: string | undefined,
    config: ServerConfigInput,
    approvals?: 'keep' | 'revoke',
  ): Promise<Result<ServerState>>;
  removeServer(name: string): Promise<Result<MethodOutput<'servers.remove'>>>;
}

export interface LogsSlice {
  /** Oldest first, at most LOG_CAP entries. */
  logs: LogRow[];
  logsLoaded: boolean;
  /** Entries the host's ring buffers dropped before our snapshot. */
  logsDropped: number;
  applyLogsSnapshot(entries: LogEntry[], dropped: number): void;
  applyLogsAppended(entries: LogEntry[]): void;
  applyLogsCleared(server: string | undefined): void;
  loadLogs(): Promise<void>;
  clearLogs(server: string | undefined): Promise<void>;
  /**
   * Ask the host for the trace live (the Logs view, while it is open): it
   * sends trace entries only to windows that follow it. Resolves with how
   * long this lasts (renew well before), or undefined when the host refused.
   */
  followTrace(): Promise<number | undefined>;
  /** The trace entries the host kept while nobody followed it, merged in by seq. */
  loadTrace(): Promise<void>;
}

export interface ConfigSlice {
  configStatus: ConfigStatus | undefined;
  applyConfigStatus(status: ConfigStatus): void;
  loadConfigStatus(): Promise<void>;
  saveConfigText(text: string): Promise<Result<ConfigStatus>>;
}

export interface AppSlice {
  appInfo: AppInfo | undefined;
  connection: ConnectionStatus;
  applyConnection(status: ConnectionStatus): void;
  loadAppInfo(): Promise<void>;
}

export interface PendingSlice {
  /** Host-owned, oldest first. */
  pending: PendingRequest[];
  pendingCounts: PendingCounts;
  /** Requests the person put aside with "Later": they stay in the tray but do not open by themselves. */
  deferredPending: string[];
  /** A request the person picked in the tray; shown before older ones. */
  focusedPending: string | undefined;
  awaitingElicitations: AwaitingElicitation[];
  applyPendingSnapshot(list: PendingRequest[]): void;
  applyPendingChange(change: PendingChange): void;
  applyAwaitingElicitations(list: AwaitingElicitation[]): void;
  loadPending(): Promise<void>;
  /** Failures come back so the dialog can show them and stay open. */
  answerPending<K extends PendingKind>(
    id: string,
    kind: K,
    response: PendingResponse<K>,
  ): Promise<Result<{ answered: string }>>;
  deferPending(id: string): void;
  focusPending(id: string): void;
  /** Bumped to ask the tray to open (its review list); the tray lists what waits at that moment. */
  pendingTrayAsk: number;
  /** Put these requests aside and open the tray on them: "review them together" from a dialog. */
  reviewPendingTogether(ids: readonly string[]): void;
  dismissAwaitingElicitation(id: string): Promise<void>;
}

export interface SettingsSlice {
  settings: SettingsView | undefined;
  consentPolicies: ConsentPolicy[];
  samplingPolicies: SamplingPolicies;
  audit: AuditPage | undefined;
  applySettings(settings: SettingsView): void;
  applyConsentPolicies(policies: ConsentPolicy[]): void;
  applySamplingPolicies(policies: SamplingPolicies): void;
  loadSettings(): Promise<void>;
  saveApiKey(apiKey: string): Promise<Result<SettingsView>>;
  clearApiKey(): Promise<Result<SettingsView>>;
  setDefaultModel(model: string): Promise<void>;
  /** The Language setting; the shell's locale follows the settings it answers (features/shell/locale-sync.tsx). */
  setLanguage(language: LanguageChoice): Promise<void>;
  /** The theme and the folded panes: shown at once, kept by the host; a refusal puts them back and says so. */
  setAppearance(changes: Partial<Appearance>): Promise<void>;
  loadConsentPolicies(): Promise<void>;
  /** Store a rule for a ready server (Settings); the result is the rule as listed. */
  addConsentRule(server: string, rule: ConsentRule): Promise<Result<ConsentPolicy>>;
  revokeConsentPolicy(id: string): Promise<Result<{ revoked: string }>>;
  loadSamplingPolicies(): Promise<void>;
  setSamplingPolicy(server: string, policy: SamplingPolicy): Promise<void>;
  loadAudit(): Promise<void>;
}

/** Settings → Providers: every call answers with the whole list, which the slice keeps. */
export interface ProvidersSlice {
  /** Undefined until loaded. */
  providers: ProviderView[] | undefined;
  applyProviders(view: ProvidersView): void;
  loadProviders(): Promise<void>;
  addProvider(provider: ProviderConfigInput, apiKey?: string): Promise<Result<ProvidersView>>;
  updateProvider(id: string, changes: ProviderChanges): Promise<Result<ProvidersView>>;
  removeProvider(id: string): Promise<Result<ProvidersView>>;
  setProviderKey(id: string, apiKey: string): Promise<Result<ProvidersView>>;
  clearProviderKey(id: string): Promise<Result<ProvidersView>>;
  /** Live from the provider; the failure's message says what is wrong. */
  fetchProviderModels(id: string): Promise<Result<MethodOutput<'providers.listModels'>>>;
  /** Test connection: `message` is what to show, as it is. */
  checkProvider(id: string, model?: string): Promise<Result<MethodOutput<'providers.check'>>>;
  /** The saved key, checked with the provider's cheapest call: works, refused, or unchecked (offline). */
  checkProviderKey(id: string): Promise<Result<MethodOutput<'providers.checkKey'>>>;
}

/** Prompts of ready servers (host-owned, read-only here) and the calls that use them. */
export interface PromptsSlice {
  /** Undefined until the first answer. */
  promptCatalog: PromptCatalog | undefined;
  /** Why the catalog could not be read, shown in the slash menu. */
  promptCatalogError: string | undefined;
  applyPromptCatalog(catalog: PromptCatalog): void;
  loadPrompts(): Promise<void>;
  getPrompt(input: MethodInput<'prompts.get'>): Promise<Result<PromptResult>>;
  completeArgument(input: MethodInput<'completion.complete'>): Promise<Result<CompletionResult>>;
}

/**
 * The resource browser's shared state: what is subscribed, which subscribed
 * resources changed since they were last read, and which resource another
 * view asked the browser to open. Pages and previews live in the components:
 * they are the person's browsing, not host state.
 */
export interface ResourcesSlice {
  /** Subscribed URIs per server, as the host last said. */
  resourceSubscriptions: Record<string, string[]>;
  /** resources.updated notifications not yet followed by a read, per resourceKey. */
  resourceUpdates: Record<string, number>;
  /** Bumped when a server says its resource list changed, so an open browser reloads. */
  resourceListVersions: Record<string, number>;
  /** A resource to open in the browser (set by "Open in resource browser"). */
  resourceFocus: { server: string; uri: string } | undefined;
  listResources(input: MethodInput<'resources.list'>): Promise<Result<MethodOutput<'resources.list'>>>;
  listResourceTemplates(
    input: MethodInput<'resources.templates'>,
  ): Promise<Result<MethodOutput<'resources.templates'>>>;
  /** Reading clears the resource's "updated" mark. */
  readResource(input: MethodInput<'resources.read'>): Promise<Result<MethodOutput<'resources.read'>>>;
  loadResourceSubscriptions(server: string): Promise<void>;
  setResourceSubscribed(
    server: string,
    uri: string,
    subscribed: boolean,
  ): Promise<Result<MethodOutput<'resources.subscribe'>>>;
  applyResourceUpdated(server: string, uri: string): void;
  applyResourceListChanged(server: string): void;
  openResourceInBrowser(server: string, uri: string): void;
  clearResourceFocus(): void;
}

/** Workspace roots (host-owned, replaced by snapshots and `roots.changed`) and the calls that edit them. */
export interface RootsSlice {
  /** Undefined until the first answer. */
  rootsView: RootsView | undefined;
  /** Why the roots could not be read, shown in the roots view (worded as it renders, so a language switch re-words it). */
  rootsError: Failure | undefined;
  applyRootsView(view: RootsView): void;
  loadRoots(): Promise<void>;
  /**
   * Failures come back so the add dialog can show them inline; one at path
   * `confirmBroad` (see `needsBroadConfirmation` in the roots feature) asks the person to
   * confirm, then to call again with `confirmBroad`.
   */
  addRoot(path: string, name?: string, confirmBroad?: boolean): Promise<Result<RootView>>;
  /** Share the folder a root's link leads to now; fails like addRoot for a broad folder. */
  confirmRootTarget(id: string, confirmBroad?: boolean): Promise<Result<RootView>>;
  renameRoot(id: string, name: string): Promise<Result<RootView>>;
  /** Removes it and offers Undo in a toast (restores it with who sees it and the answers about it). */
  removeRoot(id: string): Promise<void>;
  setRootExposure(server: string, exposure: RootExposure): Promise<void>;
  /** Forgets the person's answers so the server is asked again. */
  resetRootConsent(server: string, rootIds?: string[]): Promise<void>;
  browseFolders(path?: string): Promise<Result<FolderListing>>;
  pickFolder(): Promise<Result<{ path: string | null }>>;
}

/** Each server's sampling cap and session budget (host-owned, replaced by snapshots and `sampling.usageChanged`). */
export interface SamplingSlice {
  /** Servers with their own limits or any spending; the others have `samplingDefaults` and nothing spent. */
  samplingUsage: Record<string, SamplingUsage>;
  samplingDefaults: SamplingLimits;
  applySamplingUsage(usage: SamplingUsage): void;
  /** A request was refused for lack of budget: tell the person, not only the server. */
  applyBudgetRefused(refusal: { server: string; message: string; usage: SamplingUsage }): void;
  loadSamplingUsage(): Promise<void>;
  /** Failures come back so the form can show them; null goes back to the defaults. */
  setSamplingLimits(server: string, limits: SamplingLimits | null): Promise<Result<SamplingUsage>>;
  resetSamplingUsage(server: string): Promise<void>;
  /** Decline every waiting sampling question of one server (a flood), and maybe refuse it for the session. */
  declineAllSampling(server: string, refuseForSession: boolean): Promise<Result<{ declined: number }>>;
  /** The models sampling chooses among, with their tier and ranks (Settings); undefined until loaded. */
  samplingModels: SamplingModelTable | undefined;
  loadSamplingModels(): Promise<void>;
  /** One model's tier and ranks; null goes back to its defaults. Failures come back for the editor to show. */
  setModelRanks(model: string, ranks: ModelRanks | null): Promise<Result<SamplingModelTable>>;
}

/** MCP tasks across servers (host-owned, replaced by snapshots and `tasks.changed`) and the link from a task to its tool card. */
export interface TasksSlice {
  /** Newest first, running and finished. */
  tasks: TaskRecord[];
  tasksLoaded: boolean;
  /** Why the list could not be read, shown in the Tasks view. */
  tasksError: string | undefined;
  /** A tool card the chat should bring into view and focus ("Show in chat"); the message list clears it once done. */
  toolCardFocus: { conversationId: string; toolUseId: string } | undefined;
  /** A task the Tasks view should bring into view and focus ("Open in Tasks" on a tool card); the view clears it once done. */
  taskFocus: string | undefined;
  applyTasksSnapshot(list: TaskRecord[]): void;
  /** One `tasks.changed` event: only what changed. */
  applyTasksChanged(change: TasksChanged): void;
  loadTasks(): Promise<void>;
  /** Failures are shown as a toast; an id the host no longer knows leaves the list. */
  cancelTask(id: string): Promise<void>;
  clearFinishedTasks(): Promise<void>;
  reportWindowVisible(visible: boolean): Promise<void>;
  /** Opens the conversation in the chat and asks its message list to show and focus the call's card. */
  showToolCallInChat(conversationId: string, toolUseId: string): void;
  clearToolCardFocus(): void;
  openTaskInView(id: string): void;
  clearTaskFocus(): void;
}

/** Per-server task choices (settings.json in the host). */
export interface TaskSettingsSlice {
  /** Servers the host reported; a server not listed has the default (yes). */
  optionalToolsAsTasks: Record<string, boolean>;
  applyTaskServerSettings(settings: TaskServerSettings): void;
  loadTaskServerSettings(): Promise<void>;
  /** Shown at once; put back, with a toast, if the host refuses. */
  setOptionalToolsAsTasks(server: string, asTasks: boolean): Promise<void>;
}

/**
 * MCP Apps: the app frames route each request of an app to one contract method
 * (apps.*, resources.* bound to the card's server) and follow two topics, from
 * the apps chunk loaded on demand; the first screen carries only this handle.
 */
export interface AppsSlice {
  appsTransport: Pick<RendererTransport, 'call' | 'on'>;
}

export type BerthState = AppsSlice &
  EventsSlice &
  ServersSlice &
  LogsSlice &
  ConfigSlice &
  AppSlice &
  UiSlice &
  ChatSlice &
  ComposerSlice &
  PendingSlice &
  SettingsSlice &
  ProvidersSlice &
  PromptsSlice &
  RootsSlice &
  ResourcesSlice &
  ConfigImportSlice &
  SamplingSlice &
  TasksSlice &
  TaskSettingsSlice &
  InstructionsSettingsSlice;

/** A slice creator that also gets the transport its actions call. */
export type SliceCreator<S> = (transport: RendererTransport) => StateCreator<BerthState, [], [], S>;
