import { version } from '../package.json';
import { fail } from '../shared/result';
import { createEventHub } from './events/event-hub';
import { createHandlers } from './bridge/handlers';
import { createRouter } from './bridge/router';
import { errorMessage } from '../shared/error-message';
import { removeInterruptedWrites } from './config/state-file';
import { berthPaths } from './config/paths';
import { tightenBerthFiles } from './config/private-files';
import { HostChat } from './host-chat';
import { HostRedaction } from './host-redaction';
import { forgetSettingsOnRemoval } from './bridge/server-settings-events';
import { HostRoots } from './host-roots';
import { CompletionBroker } from './workspace/completion-broker';
import { PromptCatalogService } from './workspace/prompt-catalog';
import { ResourceService } from './workspace/resource-service';
import type { Host, HostOptions } from './host-types';
import { defaultOpenExternal } from './default-open-external';
import { HostWorkflow } from './host-workflow';
import { TaskRegistry } from './tasks/task-registry';
import { TaskReceivers } from './tasks/task-receiver';
import { LogHub } from './logs/log-hub';
import { FileSecretStore } from './secrets/secret-store';
import { ServerSecrets } from './secrets/server-secrets';
import { OAuthSessions } from './oauth/oauth-sessions';
import { LoginShellEnvironment } from './servers/login-env';
import { createServerSources } from './host-install';
import { createConfigSync } from './host-config-sync';
import { createLaunchPreparer } from './servers/server-launch';
import { ServerLifecycle } from './servers/server-lifecycle';
import { ServerConnection } from './servers/server-connection';
import { ServerSupervisor } from './servers/supervisor';
import { ToolTasks } from './tasks/tool-tasks';
import { createProviders } from './providers/create-providers';
import { createApps } from './apps/create-apps';
import { createSkills } from './skills/create-skills';
import { skillToolProvider } from './skills/skill-tools';
import { SettingsStore } from './settings/settings-store';
import { openSandbox } from './sandbox/create-sandbox';
import type { SandboxService } from './sandbox/sandbox-service';

/** Berth's version, as package.json states it (bundlers inline just this field). */
export const BERTH_VERSION: string = version;

/** Environment variables a spawned server never inherits from the host (set them in its config if it needs them). */
const HOST_ONLY_ENV = ['ANTHROPIC_API_KEY'];

/**
 * Builds the whole host for one config directory: config store (watched),
 * log hub (with files), settings and secrets, server supervisor (with the
 * sampling and elicitation handlers), pending requests, consent, chat, the
 * contract router and the event stream. Resolves once the config is loaded;
 * enabled servers start in the background.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  const paths = berthPaths(options.configDir);
  const hostEnv = options.env ?? process.env;
  const serverEnv = Object.fromEntries(Object.entries(hostEnv).filter(([key]) => !HOST_ONLY_ENV.includes(key)));
  const events = createEventHub({ onListenerError: (topic, error) => reportBug(`an event listener for ${topic} threw`, error) });
  let shuttingDown: Promise<void> | undefined;

  /** Failures with no caller to answer: stderr and the host-wide log, never silence. */
  function reportBug(what: string, error: unknown): void {
    console.error(`[berth] ${what}:`, error);
    try {
      logs.append({ server: '', time: Date.now(), source: 'host', level: 'error', text: `${what}: ${errorMessage(error)}` });
    } catch (logError) {
      console.error('[berth] the host-wide log refused an entry:', logError);
    }
  }
  const warn = (text: string): void => logs.append({ server: '', time: Date.now(), source: 'host', level: 'warning', text });

  const redaction = new HostRedaction({ env: hostEnv, sdkLine: (level, text) => logs.append({ server: '', time: Date.now(), source: 'host', level, text }) });
  let sandbox: SandboxService | undefined = undefined; // set below: no earlier log batch holds a sandboxed server's line
  const logs = new LogHub({
    onBatch: (entries) => {
      events.emit('logs.appended', { entries });
      sandbox?.sawLogs(entries);
    },
    // A window gets the trace live only while its Logs view is open (logs.followTrace).
    liveTrace: 'when-followed',
    files: { dir: paths.logsDir },
    redact: (text) => redaction.redact(text),
  });
  // Before anything is read or written: what an older Berth left readable by others becomes private.
  // The walk lstats every conversation file; the conversations index checks each one's identity with that (HostChat below).
  const privacy = await tightenBerthFiles(paths.configDir, { keepIdentitiesIn: paths.conversationsDir });
  if (privacy.tightened.length > 0) {
    logs.append({ server: '', time: Date.now(), source: 'host', level: 'info', text: `made ${privacy.tightened.length} of Berth's files and folders private to you (no access for group or others)` });
  }
  for (const failure of privacy.failures) warn(`could not make this private to you (others may read it): ${failure}`);
  const secretStore = redaction.store(options.secrets ?? new FileSecretStore({ filePath: paths.secretsFile, warn: (text) => warn(`secrets: ${text}`) }));
  let settings: SettingsStore;
  try {
    settings = await SettingsStore.open({
      configDir: paths.configDir,
      secrets: secretStore,
      env: hostEnv,
      warn: (text) => warn(`settings: ${text}`),
    });
  } catch (error) {
    await logs.dispose();
    redaction.close();
    throw error;
  }
  const { anthropic, registry: providers, sampling } = createProviders({ settings, events });
  // Asked once the config shows servers to start (below), not here: a host with none never runs the shell.
  const loginEnv = new LoginShellEnvironment({ baseEnv: serverEnv, warn: (text) => warn(`launch environment: ${text}`) });
  const serverSecrets: ServerSecrets = new ServerSecrets({
    store: secretStore,
    // Declared below; only called once the config is loading.
    configText: (): string => config.text(),
    info: (text) => logs.append({ server: '', time: Date.now(), source: 'host', level: 'info', text: `secrets: ${text}` }),
    warn: (text) => warn(`secrets: ${text}`),
    // config.json was edited by hand with a new value for a secret: servers running with the old one restart.
    onValuesChanged: (names) => {
      for (const name of names) {
        const status = supervisor.get(name)?.status;
        if (status === undefined || status === 'stopped') continue;
        supervisor.restart(name).catch((error: unknown) => reportBug(`restarting ${name} with its new secret value failed`, error));
      }
    },
  });
  const openExternal = options.openExternal ?? defaultOpenExternal(options.shell);
  const workflow = new HostWorkflow({
    stateDir: paths.stateDir,
    logs,
    events,
    settings,
    anthropic,
    ...sampling,
    openExternal,
    ...(options.clientGraceMs !== undefined ? { clientGraceMs: options.clientGraceMs } : {}),
    reportError: reportBug,
  });
  const oauth = new OAuthSessions({
    store: secretStore,
    // Electron opens the system browser; browser mode leaves it to the renderer (the person's own browser).
    ...(options.shell === 'electron' && options.openExternal !== undefined ? { openExternal: options.openExternal } : {}),
    log: (server, level, text) => logs.append({ server, time: Date.now(), source: 'host', level, text }),
    clientMetadataUrl: () => settings.oauthClientMetadataUrl(),
    onIssuerPinned: (server, issuer) => {
      pinIssuer(server, issuer).catch((error: unknown) => reportBug(`remembering the authorization server of '${server}' failed`, error));
    },
    onSignedIn: (server) => {
      // The state says "signed in" at once, even if the start that follows fails for another reason.
      supervisor
        .signInChanged(server)
        .then(() => supervisor.restart(server))
        .catch((error: unknown) => reportBug(`starting '${server}' after signing in failed`, error));
    },
  });
  // The services that keep something per server join here; each event reaches them in the order they join (ServerLifecycle).
  const tasks = new TaskRegistry({
    onChange: (change) => {
      events.emit('tasks.changed', change);
      toolTasks?.registryChanged(change);
    },
  });
  // Declared before it is assigned: the registry's first changes come from opening it (the tasks of the last run).
  // eslint-disable-next-line prefer-const
  let toolTasks: ToolTasks | undefined;
  toolTasks = await ToolTasks.open({
    stateDir: paths.stateDir,
    registry: tasks,
    logs,
    optionalAsTasks: (server) => settings.tasksForOptionalTools(server),
    // A 2026-07-28 call's questions (inputRequests): the same review and form, labelled with the call.
    questions: {
      sampling: (server, params, context) => workflow.answerSampling(server, params, context),
      elicitation: (server, params, context) => workflow.answerElicitation(server, params, context),
    },
  });
  const openedSandbox = await openSandbox({ paths, servers: () => supervisor, roots: () => roots, events, logs, warn, reportError: reportBug, ownPorts: options.ownPorts });
  const lifecycle = new ServerLifecycle({ reportError: reportBug });
  sandbox = openedSandbox;
  lifecycle.register(openedSandbox);
  lifecycle.register({ serverRemoved: (name) => logs.removeServer(name) });
  lifecycle.register(forgetSettingsOnRemoval(events, settings, reportBug));
  lifecycle.register(workflow);
  // After the workflow: its plain sampling/elicitation handlers must be in place before the receiver binds over them.
  lifecycle.register(
    new TaskReceivers({
      registry: tasks,
      pending: workflow.pending,
      questions: {
        sampling: (server, params, context) => workflow.answerSampling(server, params, context),
        elicitation: (server, params, context) => workflow.answerElicitation(server, params, context),
        samplingRefusal: (server) => workflow.samplingRefusal(server),
      },
      origin: (server) => workflow.toolCalls.originOf(server),
      logs,
    }),
  );
  lifecycle.register(toolTasks);
  workflow.pending.onChange((change) => toolTasks?.questionsChanged(change));
  const supervisor = new ServerSupervisor({
    authProviderFor: (server, config) => oauth.providerFor(server, config),
    logs,
    stateDir: paths.stateDir,
    onState: (state) => lifecycle.serverChanged(state),
    env: serverEnv,
    prepareLaunch: openedSandbox.wrap(
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
    ),
    clientVersion: BERTH_VERSION,
    clientSetup: (server, client) => lifecycle.clientSetup(server, client),
    onListChanged: (server, kind) => lifecycle.listChanged(server, kind),
    // Tool calls run as MCP tasks where the tool and the server say so (app/tasks).
    openConnection: toolTasks.wrap(openedSandbox.watchConnections(ServerConnection.open)),
  });
  const prompts: PromptCatalogService = new PromptCatalogService({ servers: supervisor, onChange: (catalog) => events.emit('prompts.changed', catalog) });
  const completions = new CompletionBroker(supervisor);
  const resources: ResourceService = new ResourceService({
    servers: supervisor,
    onUpdated: (server, uri) => events.emit('resources.updated', { server, uri }),
    logs,
  });
  lifecycle.register(prompts);
  lifecycle.register(resources);
  const apps = createApps({ lifecycle, servers: supervisor, consent: workflow.consent, logs, events, openExternal, sandboxProxyUrl: options.appSandboxProxyUrl, conversation: (id) => chat.get(id) });
  const skills = createSkills({ lifecycle, servers: supervisor, pending: workflow.pending, stateDir: paths.stateDir, events, warn, roots: () => roots });
  lifecycle.register({ shuttingDown: () => completions.close() });
  // The renderer hears a state once the services have (the prompt catalog, say, is already updated).
  lifecycle.register({
    serverChanged: (state) => events.emit('servers.changed', state),
    listChanged: { resources: (server) => events.emit('resources.listChanged', { server }) },
  });
  const { config, sync, pinIssuer } = createConfigSync({ paths, events, supervisor, serverSecrets, logs, warn, reportBug, serverRemoved: (name) => lifecycle.serverRemoved(name) });

  let chat: HostChat;
  let roots: HostRoots | undefined;
  try {
    // Temp files of writes a crash cut short (the real files beside them are whole); stores load some files lazily, so sweep here.
    for (const dir of [paths.configDir, paths.stateDir]) {
      await removeInterruptedWrites(dir).catch((error: unknown) => warn(`could not remove interrupted writes in ${dir}: ${(error as Error).message}`));
    }
    await config.load();
    // Servers will start: ask the login shell now, while the rest of the host opens (never rejects).
    if (Object.values(config.servers()).some((server) => server.enabled)) void loginEnv.get();
    roots = await HostRoots.open({
      stateDir: paths.stateDir,
      shell: options.shell,
      servers: supervisor,
      knownServers: () => Object.keys(config.servers()),
      pending: workflow.pending,
      events,
      logs,
      ...(options.pickFolder !== undefined ? { pickFolder: options.pickFolder } : {}),
      warn: (text) => warn(`roots: ${text}`),
      reportError: reportBug,
    });
    // Servers start only once the config is applied (below), so every client is set up with roots.
    lifecycle.register(roots);
    const openRoots = roots;
    openedSandbox.watchRoots((listener) => openRoots.store.onChange(listener));
    chat = await HostChat.open({
      configDir: paths.configDir,
      seenConversationFiles: privacy.identities,
      supervisor,
      consent: workflow.consent,
      toolCalls: workflow.toolCalls,
      apps,
      settings,
      providers,
      events,
      logs,
      redact: (text) => redaction.redact(text),
      // Host tools of features that need more than the conversation store (app/chat/host-tools/host-tool.ts);
      // tool search and the result reader register themselves in HostChat.
      hostToolProviders: () => [skillToolProvider(skills)],
      onConversationDeleted: (conversationId) => skills.forgetConversation(conversationId),
      // The server may not cancel what it asked for when its tool call is cancelled: nothing keeps waiting for a stopped turn.
      onTurnStopped: (conversationId) =>
        workflow.pending.withdrawWhere((request) => request.conversationId === conversationId && request.kind !== 'tool-call', 'the chat reply that caused this was stopped'),
      reportError: reportBug,
    });
    config.watch();
  } catch (error) {
    // Nothing has started yet, but the log files may hold pending lines.
    config.close();
    await roots?.close();
    await workflow.close();
    await logs.dispose();
    redaction.close();
    throw error;
  }
  // Until the stored policies are read, every tool call simply asks (the safe default).
  workflow.consent.load().catch((error: unknown) => reportBug('reading the consent policies failed', error));

  const { configImport, registry, bundles, started: sourcesStarted } = createServerSources({ config, supervisor, loginEnv, paths, hostEnv, serverEnv, warn, reportBug });

  const router = createRouter(
    createHandlers({
      config,
      supervisor,
      logs,
      events,
      sync,
      secrets: serverSecrets,
      chat,
      settings,
      providers,
      workflow,
      roots,
      promptServices: { prompts, completions },
      resources,
      configImport,
      oauth,
      tasks,
      apps,
      registry,
      bundles,
      skills,
      sandbox: openedSandbox,
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
          await workflow.serverEdited(edit);
          await roots?.serverEdited(edit);
          await skills.serverEdited(edit);
        },
      },
      reportError: reportBug,
    }),
    { onInternalError: (method, error) => reportBug(`${method} failed with a bug`, error) },
  );

  // Starting servers can take their whole start-up timeout: the shell must not wait for it.
  sync.apply().catch((error: unknown) => reportBug('starting the configured servers failed', error));

  return {
    dispatch: async (method, input) => {
      if (shuttingDown !== undefined) return fail('NOT_READY', 'Berth is shutting down');
      return redaction.result(method, await router.dispatch(method, input));
    },
    subscribe: (listener) => events.subscribe(redaction.listener(listener)),
    clientsChanged: (count) => workflow.clientsChanged(count),
    shutdown: () => {
      shuttingDown ??= (async () => {
        sync.stop();
        config.close();
        loginEnv.close();
        oauth.close();
        // Stops the disk checks at once; its pending saves are awaited below.
        const rootsClosed = roots.close();
        lifecycle.shutdown();
        try {
          // Prompts first: a turn waiting for a yes then ends with a denial, and stops at once.
          await workflow.close();
          await chat.close();
          await supervisor.shutdown();
          await openedSandbox.close();
          await toolTasks.flush();
          await rootsClosed;
          await settings.flush();
          await skills.flush();
          await sourcesStarted;
        } finally {
          // Flushes pending batches and file writes, then ignores late appends.
          await logs.dispose();
          redaction.close();
        }
      })();
      return shuttingDown;
    },
  };
}
