import type { MethodName, TopicName } from './index';
import type { Result } from '../result';

/**
 * What the Electron preload exposes on `window.berth` through contextBridge:
 * one function per contract method (generated from the contract keys) and a
 * topic subscription. Never ipcRenderer itself.
 */
export interface BerthPreloadApi {
  methods: { readonly [M in MethodName]: (input: unknown) => Promise<Result<unknown>> };
  on(topic: TopicName, listener: (payload: unknown) => void): () => void;
}

/** The global name the preload uses. */
export const PRELOAD_GLOBAL = 'berth';
