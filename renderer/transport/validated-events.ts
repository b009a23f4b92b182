import type { MethodInput, MethodName, MethodOutput, TopicName, TopicPayload } from '../../shared/contract';
import { errorMessage } from '../../shared/error-message';
import { fail, type Result } from '../../shared/result';
import { translate } from '../i18n/use-t';
import type { RendererTransport } from './connection';
import type { checkTopicPayload } from './topic-check';

export type TopicChecker = typeof checkTopicPayload;

/** Loads the topic schemas (zod and the contract) as their own chunk. */
export const loadTopicChecker = (): Promise<TopicChecker> =>
  import('./topic-check').then((module) => module.checkTopicPayload);

/**
 * Host events are checked against the topic schemas before any store sees them: a
 * payload that does not match is dropped and reported, so a host bug cannot corrupt
 * renderer state.
 *
 * The schemas load on demand so the first screen paints without them (zod and the
 * contract are a fifth of the page's JavaScript). Until they are in, subscriptions and
 * calls wait, in the order they were made, and are then passed on in that order: a
 * listener is in place before any call whose reply it must follow, and no event
 * reaches a store unchecked. Events the host sends before then reach no listener,
 * as events sent before the page subscribed always did; the stores' first calls
 * (snapshots) are made after, so they include them.
 */
export function withValidatedEvents(
  inner: RendererTransport,
  loadChecker: () => Promise<TopicChecker> = loadTopicChecker,
): RendererTransport {
  let check: TopicChecker | undefined;
  let loadFailure: string | undefined;
  const waiting: Array<() => void> = [];
  const ready = loadChecker().then(
    (loaded) => {
      check = loaded;
    },
    (error: unknown) => {
      // Without the schemas no event can be checked: none is delivered, and every call says why.
      loadFailure = translate('transport.checksFailed', { reason: errorMessage(error) });
      console.error('Berth:', loadFailure);
    },
  );
  void ready.then(() => {
    for (const run of waiting.splice(0)) run();
  });

  function subscribe<T extends TopicName>(
    topic: T,
    listener: (payload: TopicPayload<T>) => void,
    checker: TopicChecker,
  ): () => void {
    return inner.on(topic, (payload) => {
      const checked = checker(topic, payload);
      if (!checked.ok) {
        console.error(`Berth: dropped an invalid "${topic}" event from the host: ${checked.problem}`);
        return;
      }
      listener(checked.payload);
    });
  }

  return {
    connection: inner.connection,
    close: () => inner.close(),
    call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<Result<MethodOutput<M>>> {
      if (check) return inner.call(method, input);
      if (loadFailure !== undefined) return Promise.resolve(fail('INTERNAL', loadFailure));
      return new Promise((resolve) => {
        waiting.push(() => {
          if (loadFailure !== undefined) resolve(fail('INTERNAL', loadFailure));
          else resolve(inner.call(method, input));
        });
      });
    },
    on<T extends TopicName>(topic: T, listener: (payload: TopicPayload<T>) => void): () => void {
      if (check) return subscribe(topic, listener, check);
      let unsubscribe: (() => void) | undefined;
      let cancelled = false;
      waiting.push(() => {
        if (!cancelled && check) unsubscribe = subscribe(topic, listener, check);
      });
      return () => {
        cancelled = true;
        unsubscribe?.();
      };
    },
  };
}
