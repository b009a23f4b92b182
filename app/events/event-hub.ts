import type { TopicName, TopicPayload } from '../../shared/contract';

/** A listener of every host event (the shells' event stream). */
export type HostEventListener = <T extends TopicName>(topic: T, payload: TopicPayload<T>) => void;

/**
 * Typed pub/sub for the renderer's event stream: what the host tells the
 * shells, each of which subscribes once and forwards. Not the host's internal
 * bus: services hear about servers through the ServerLifecycle (app/servers).
 */
export interface EventHub {
  emit<T extends TopicName>(topic: T, payload: TopicPayload<T>): void;
  /** Returns an unsubscribe function (calling it twice is harmless). */
  subscribe(listener: HostEventListener): () => void;
  readonly listenerCount: number;
}

export interface EventHubOptions {
  /** A listener threw; the other listeners still got the event. Defaults to stderr. */
  onListenerError?(topic: TopicName, error: unknown): void;
}

export function createEventHub(options: EventHubOptions = {}): EventHub {
  const listeners = new Set<HostEventListener>();
  const report =
    options.onListenerError ??
    ((topic: TopicName, error: unknown) => console.error(`[berth] an event listener for ${topic} threw:`, error));

  return {
    emit(topic, payload) {
      // Iterate over a snapshot: a listener may unsubscribe itself (or others) while handling.
      for (const listener of [...listeners]) {
        if (!listeners.has(listener)) continue;
        try {
          listener(topic, payload);
        } catch (error) {
          try {
            report(topic, error);
          } catch (reportError) {
            console.error(`[berth] reporting a listener error for ${topic} failed:`, reportError, error);
          }
        }
      }
    },
    subscribe(listener) {
      // Wrap so the same function subscribed twice gets two independent subscriptions.
      const entry: HostEventListener = (topic, payload) => listener(topic, payload);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    get listenerCount() {
      return listeners.size;
    },
  };
}
