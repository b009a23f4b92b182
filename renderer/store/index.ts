import { createContext, createElement, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { BerthStore } from './create-store';
import type { BerthState } from './types';

export { bindTopic, connectStore, createBerthStore, type BerthStore } from './create-store';
export { sortServers } from './servers-slice';
export { LOG_CAP } from './logs-slice';
export { reduceLiveTurn } from './chat-slice';
export { composerDraft } from './composer-slice';
export { activePendingRequest, countPending } from './pending-slice';
export { AUDIT_LIMIT } from './settings-slice';
export { resourceKey } from './resources-slice';
export { samplingUsageOf } from './sampling-slice';
export { applyTasksChanged, countRunningTasks } from './tasks-slice';
export { optionalToolsAsTasksOf } from './task-settings-slice';
export { sendsInstructionsOf } from './instructions-settings-slice';
export type * from './types';
export type * from './instructions-settings-types';

const StoreContext = createContext<BerthStore | null>(null);

export function StoreProvider({ store, children }: { store: BerthStore; children: ReactNode }) {
  return createElement(StoreContext.Provider, { value: store }, children);
}

/** The store itself, for event handlers that read state without subscribing. */
export function useBerthStore(): BerthStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useBerth must be used inside <StoreProvider>');
  return store;
}

/** One selector per value; wrap derived arrays/objects in `useShallow`. */
export function useBerth<T>(selector: (state: BerthState) => T): T {
  return useStore(useBerthStore(), selector);
}
