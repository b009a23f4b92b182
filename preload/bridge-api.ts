import {
  IPC_CALL_CHANNEL,
  IPC_EVENT_CHANNEL,
  isTopicName,
  METHOD_NAMES,
  TOPIC_NAMES,
  type MethodName,
  type TopicName,
} from '../shared/contract';
import type { BerthPreloadApi } from '../shared/contract/preload-api';
import { fail, type Result } from '../shared/result';
import { errorMessage } from '../shared/error-message';

/** The part of `ipcRenderer` the preload uses; it never leaves this module. */
export interface PreloadIpcRenderer {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/**
 * Build the object exposed as `window.berth`: one function per contract
 * method and a topic subscription. Only plain functions and data cross the
 * context bridge; the IPC event object and ipcRenderer stay here.
 */
export function createBridgeApi(ipcRenderer: PreloadIpcRenderer): BerthPreloadApi {
  const methods = Object.fromEntries(
    METHOD_NAMES.map((name) => [name, (input: unknown) => callHost(ipcRenderer, name, input)]),
  ) as BerthPreloadApi['methods'];

  const listeners = new Map<TopicName, Set<(payload: unknown) => void>>();
  let subscribed = false;
  // One IPC listener for every topic, attached on first use and removed when
  // the last subscriber leaves, rather than one per subscription.
  const onEvent = (_event: unknown, topic: unknown, payload: unknown): void => {
    if (!isTopicName(topic)) return;
    for (const listener of [...(listeners.get(topic) ?? [])]) {
      try {
        listener(payload);
      } catch (error) {
        // One broken subscriber must not starve the others; report it where the renderer's errors go.
        console.error(`[berth:preload] a "${topic}" listener threw`, error);
      }
    }
  };

  function on(topic: TopicName, listener: (payload: unknown) => void): () => void {
    if (!isTopicName(topic)) {
      throw new TypeError(`Unknown event topic ${JSON.stringify(topic)}; expected one of: ${TOPIC_NAMES.join(', ')}`);
    }
    if (typeof listener !== 'function') {
      throw new TypeError(`The listener for "${topic}" must be a function`);
    }
    let set = listeners.get(topic);
    if (set === undefined) {
      set = new Set();
      listeners.set(topic, set);
    }
    set.add(listener);
    if (!subscribed) {
      ipcRenderer.on(IPC_EVENT_CHANNEL, onEvent);
      subscribed = true;
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const current = listeners.get(topic);
      current?.delete(listener);
      if (current?.size === 0) listeners.delete(topic);
      if (listeners.size === 0 && subscribed) {
        ipcRenderer.removeListener(IPC_EVENT_CHANNEL, onEvent);
        subscribed = false;
      }
    };
  }

  return { methods: Object.freeze(methods), on };
}

/**
 * The main process answers every call with a Result; a rejection here means
 * IPC itself failed (no handler yet, window closing), which the renderer
 * should see as a value like every other failure.
 */
async function callHost(ipcRenderer: PreloadIpcRenderer, name: MethodName, input: unknown): Promise<Result<unknown>> {
  try {
    return (await ipcRenderer.invoke(IPC_CALL_CHANNEL, name, input)) as Result<unknown>;
  } catch (error) {
    return fail('INTERNAL', `The call to "${name}" did not reach the host: ${errorMessage(error)}`);
  }
}
