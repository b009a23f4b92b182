import { createStore, type StoreApi } from 'zustand/vanilla';
import type { TopicName, TopicPayload } from '../../shared/contract';
import type { ConnectionStatus, RendererTransport } from '../transport/connection';
import { createAppSlice } from './app-slice';
import { createChatSlice } from './chat-slice';
import { createComposerSlice } from './composer-slice';
import { createConfigImportSlice } from './config-import-slice';
import { createConfigSlice } from './config-slice';
import { createEventsSlice } from './events-slice';
import { createLogsSlice } from './logs-slice';
import { createPendingSlice } from './pending-slice';
import { createPromptsSlice } from './prompts-slice';
import { createResourcesSlice } from './resources-slice';
import { createRootsSlice } from './roots-slice';
import { createSamplingSlice } from './sampling-slice';
import { createServersSlice } from './servers-slice';
import { createSettingsSlice } from './settings-slice';
import { createProvidersSlice } from './providers-slice';
import { createTaskSettingsSlice } from './task-settings-slice';
import { createInstructionsSettingsSlice } from './instructions-settings-slice';
import { createTasksSlice, watchWindowVisibility } from './tasks-slice';
import type { BerthState } from './types';
import { createUiSlice } from './ui-slice';

export type BerthStore = StoreApi<BerthState>;

/** One store from typed slices; each test makes its own, so no reset dance is needed. */
export function createBerthStore(transport: RendererTransport): BerthStore {
  return createStore<BerthState>()((...a) => ({
    appsTransport: transport,
    ...createServersSlice(transport)(...a),
    ...createLogsSlice(transport)(...a),
    ...createConfigSlice(transport)(...a),
    ...createAppSlice(transport)(...a),
    ...createUiSlice(transport)(...a),
    ...createChatSlice(transport)(...a),
    ...createComposerSlice(transport)(...a),
    ...createPendingSlice(transport)(...a),
    ...createSettingsSlice(transport)(...a),
    ...createProvidersSlice(transport)(...a),
    ...createPromptsSlice(transport)(...a),
    ...createResourcesSlice(transport)(...a),
    ...createRootsSlice(transport)(...a),
    ...createConfigImportSlice(transport)(...a),
    ...createSamplingSlice(transport)(...a),
    ...createTasksSlice(transport)(...a),
    ...createTaskSettingsSlice(transport)(...a),
    ...createInstructionsSettingsSlice(transport)(...a),
    ...createEventsSlice(transport)(...a),
  }));
}

/** Applies one host event topic to the store; returns the unsubscribe function. */
export function bindTopic<T extends TopicName>(
  store: BerthStore,
  transport: RendererTransport,
  topic: T,
  apply: (state: BerthState, payload: TopicPayload<T>) => void,
): () => void {
  return transport.on(topic, (payload) => apply(store.getState(), payload));
}

/**
 * Wires the store to the host: every topic bound, snapshots fetched, and
 * fetched again after a reconnect (events sent while we were away are lost).
 */
export function connectStore(store: BerthStore, transport: RendererTransport): () => void {
  const unbind = [
    bindTopic(store, transport, 'servers.changed', (s, state) => s.applyServerChanged(state)),
    bindTopic(store, transport, 'servers.removed', (s, { name }) => s.applyServerRemoved(name)),
    bindTopic(store, transport, 'logs.appended', (s, { entries }) => s.applyLogsAppended(entries)),
    bindTopic(store, transport, 'logs.cleared', (s, { server }) => s.applyLogsCleared(server)),
    bindTopic(store, transport, 'config.changed', (s, status) => s.applyConfigStatus(status)),
    bindTopic(store, transport, 'chat.event', (s, event) => s.applyChatEvent(event)),
    bindTopic(store, transport, 'chat.conversationsChanged', (s, delta) => s.applyConversationsDelta(delta)),
    bindTopic(store, transport, 'chat.loadedToolsChanged', (s, change) => s.applyLoadedToolsChanged(change)),
    bindTopic(store, transport, 'settings.changed', (s, settings) => s.applySettings(settings)),
    bindTopic(store, transport, 'providers.changed', (s, view) => s.applyProviders(view)),
    bindTopic(store, transport, 'pending.changed', (s, change) => s.applyPendingChange(change)),
    bindTopic(store, transport, 'consent.policiesChanged', (s, { policies }) => s.applyConsentPolicies(policies)),
    bindTopic(store, transport, 'sampling.policiesChanged', (s, { policies }) => s.applySamplingPolicies(policies)),
    bindTopic(store, transport, 'sampling.usageChanged', (s, usage) => s.applySamplingUsage(usage)),
    bindTopic(store, transport, 'sampling.budgetRefused', (s, refusal) => s.applyBudgetRefused(refusal)),
    bindTopic(store, transport, 'elicitation.awaitingChanged', (s, { awaiting }) =>
      s.applyAwaitingElicitations(awaiting),
    ),
    bindTopic(store, transport, 'prompts.changed', (s, catalog) => s.applyPromptCatalog(catalog)),
    bindTopic(store, transport, 'roots.changed', (s, view) => s.applyRootsView(view)),
    bindTopic(store, transport, 'resources.updated', (s, { server, uri }) => s.applyResourceUpdated(server, uri)),
    bindTopic(store, transport, 'resources.listChanged', (s, { server }) => s.applyResourceListChanged(server)),
    bindTopic(store, transport, 'tasks.changed', (s, change) => s.applyTasksChanged(change)),
    bindTopic(store, transport, 'tasks.serverSettingsChanged', (s, settings) => s.applyTaskServerSettings(settings)),
    bindTopic(store, transport, 'servers.instructionsSettingChanged', (s, setting) =>
      s.applyInstructionsSetting(setting),
    ),
    bindTopic(store, transport, 'events.changed', (s, catalog) => s.applyEventsCatalog(catalog)),
    bindTopic(store, transport, 'events.inboxChanged', (s, { unread }) => s.applyInboxChanged(unread)),
    bindTopic(store, transport, 'events.notice', (s, notice) => s.applyEventNotice(notice)),
  ];
  const visibility = watchWindowVisibility(store);
  const fetchSnapshots = () => {
    const s = store.getState();
    void Promise.all([
      s.loadAppInfo(),
      s.loadConfigStatus(),
      s.loadServers(),
      s.loadLogs(),
      s.loadSettings(),
      s.loadProviders(),
      s.loadConversations(),
      s.loadPending(),
      s.loadPrompts(),
      s.loadRoots(),
      s.loadSamplingUsage(),
      s.loadTasks(),
      s.loadTaskServerSettings(),
      s.loadInstructionsSettings(),
      s.loadEventsCatalog(),
      s.loadInbox(),
    ]);
    // The host assumes a visible window; a reload or reconnect while hidden must say otherwise.
    visibility.report();
  };
  // Snapshots are fetched on every transition to `open`: the first connect and each reconnect.
  let wasOpen = false;
  const onStatus = (status: ConnectionStatus) => {
    store.getState().applyConnection(status);
    const isOpen = status.state === 'open';
    if (isOpen && !wasOpen) fetchSnapshots();
    wasOpen = isOpen;
  };
  const unwatch = transport.connection.subscribe(onStatus);
  onStatus(transport.connection.get());
  return () => {
    unwatch();
    visibility.stop();
    for (const off of unbind) off();
  };
}
