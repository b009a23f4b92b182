import type { MethodInput, MethodName, MethodOutput, TopicName, TopicPayload } from '../../shared/contract';
import type { BerthPreloadApi } from '../../shared/contract/preload-api';
import type { Result } from '../../shared/result';
import { alwaysOpenMonitor, type RendererTransport } from './connection';
import { inPersonWords } from './person-words-lazy';

/**
 * The Electron bridge: the preload already exposes one function per contract
 * method, so this only forwards. IPC cannot drop while the window lives.
 */
export function createIpcTransport(api: BerthPreloadApi): RendererTransport {
  let closed = false;
  const unsubscribers = new Set<() => void>();
  return {
    connection: alwaysOpenMonitor(),
    call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<Result<MethodOutput<M>>> {
      // The router's contract wording is for developers; the person reads words (person-words.ts).
      return (api.methods[method](input) as Promise<Result<MethodOutput<M>>>).then(inPersonWords);
    },
    on<T extends TopicName>(topic: T, listener: (payload: TopicPayload<T>) => void): () => void {
      if (closed) return () => undefined;
      const off = api.on(topic, listener as (payload: unknown) => void);
      unsubscribers.add(off);
      return () => {
        unsubscribers.delete(off);
        off();
      };
    },
    close() {
      closed = true;
      for (const off of unsubscribers) off();
      unsubscribers.clear();
    },
  };
}
