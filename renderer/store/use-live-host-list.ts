import { useEffect, useState } from 'react';
import type { MethodInput, MethodName, MethodOutput, TopicName, TopicPayload } from '../../shared/contract';
import { useBerth } from '.';

/**
 * Something the host owns that a view reads once and then follows: `method` answers what it is now,
 * `topic` says when it changed. The view's own state, not a store slice: only that view reads it.
 */
export interface LiveHostList<M extends MethodName, T extends TopicName, V> {
  method: M;
  input: MethodInput<M>;
  topic: T;
  /** What the view keeps from the first answer. */
  fromAnswer(answer: MethodOutput<M>): V;
  /** What the view keeps from an event, or undefined when the event is about something else (another server). */
  fromEvent(payload: TopicPayload<T>): { value: V } | undefined;
}

export interface LiveHostValue<V> {
  /** False until the first answer or event. */
  loaded: boolean;
  value: V | undefined;
  /** Why the first read failed, until an event brings the value. */
  error: string | undefined;
}

const NOT_LOADED = { loaded: false, value: undefined, error: undefined } as const;

/**
 * Reads `method` and follows `topic`, again whenever `deps` change (keeping what it had until then).
 * An event is newer than the first answer (it may arrive before it), so once one is heard the answer
 * is dropped.
 */
export function useLiveHostList<M extends MethodName, T extends TopicName, V>(
  list: LiveHostList<M, T, V>,
  deps: readonly unknown[],
): LiveHostValue<V> {
  const transport = useBerth((s) => s.appsTransport);
  const [state, setState] = useState<LiveHostValue<V>>(NOT_LOADED);
  useEffect(() => {
    let current = true;
    let heard = false;
    const off = transport.on(list.topic, (payload) => {
      const next = list.fromEvent(payload);
      if (next === undefined) return;
      heard = true;
      setState({ loaded: true, value: next.value, error: undefined });
    });
    void transport.call(list.method, list.input).then((result) => {
      if (!current || heard) return;
      setState(
        result.ok
          ? { loaded: true, value: list.fromAnswer(result.value), error: undefined }
          : { loaded: false, value: undefined, error: result.message },
      );
    });
    return () => {
      current = false;
      off();
    };
    // The list is configuration written inline by the caller; `deps` says when it means something else.
  }, [transport, ...deps]);
  return state;
}
