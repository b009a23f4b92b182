import type { MethodInput, MethodName, MethodOutput, TopicName, TopicPayload } from '../../shared/contract';
import type { ServerState, ServerStatus } from '../../shared/domain';
import { ServerConfigSchema, ServerStateSchema } from '../../shared/domain';
import { fail, ok, type Result } from '../../shared/result';
import type { ConnectionStatus, RendererTransport } from '../transport/connection';
import { withPersonWords } from '../transport/person-words';

type Handler<M extends MethodName> = (
  input: MethodInput<M>,
) => Result<MethodOutput<M>> | Promise<Result<MethodOutput<M>>>;
export type FakeHandlers = { [M in MethodName]?: Handler<M> };

/**
 * An in-memory stand-in for the host, for store and component tests: scripted
 * answers per method, recorded calls, events pushed by the test. The real
 * WebSocket transport is tested against a real socket server separately.
 */
export interface FakeTransport extends RendererTransport {
  calls: { method: MethodName; input: unknown }[];
  handlers: FakeHandlers;
  emit<T extends TopicName>(topic: T, payload: TopicPayload<T>): void;
  /** How many listeners follow `topic` now (a view that went away must have stopped). */
  listening(topic: TopicName): number;
  setConnection(status: ConnectionStatus): void;
}

export function createFakeTransport(
  handlers: FakeHandlers = {},
  initial: ConnectionStatus = { state: 'open', everOpened: true, failedAttempts: 0 },
): FakeTransport {
  // Every mounted app tells the host whether its window is visible (task polling); a test that does not care gets the host's plain answer, not an error on stderr.
  handlers['tasks.setWindowVisible'] ??= () => ok({});
  // Likewise the Logs view asks for the trace live while it is open.
  handlers['logs.followTrace'] ??= () => ok({ followingForMs: 15_000 });
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  let status = initial;
  const fake: FakeTransport = {
    calls: [],
    handlers,
    connection: {
      get: () => status,
      subscribe: (listener) => {
        statusListeners.add(listener);
        return () => statusListeners.delete(listener);
      },
      retryNow: () => undefined,
    },
    async call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<Result<MethodOutput<M>>> {
      fake.calls.push({ method, input });
      const handler = fake.handlers[method] as Handler<M> | undefined;
      if (!handler) return fail('UNKNOWN_METHOD', `the fake host has no answer for ${method}`);
      // As the real transports do; a synchronous answer stays synchronous, so tests keep their timing.
      const answer = handler(input);
      return answer instanceof Promise ? answer.then(withPersonWords) : withPersonWords(answer);
    },
    on(topic, listener) {
      let set = listeners.get(topic);
      if (!set) listeners.set(topic, (set = new Set()));
      const untyped = listener as (payload: unknown) => void;
      set.add(untyped);
      return () => set.delete(untyped);
    },
    emit(topic, payload) {
      for (const listener of listeners.get(topic) ?? []) listener(payload);
    },
    listening: (topic) => listeners.get(topic)?.size ?? 0,
    setConnection(next) {
      status = next;
      for (const listener of statusListeners) listener(next);
    },
    close: () => undefined,
  };
  return fake;
}

/** What a state in each status carries unless a test says otherwise. */
const STATUS_DEFAULTS: Record<ServerStatus, object> = {
  stopped: {},
  starting: {},
  ready: { tools: [], readySince: 1, transport: 'stdio' },
  error: { reason: 'failed' },
  crashed: { reason: 'exited with code 1' },
  restarting: { reason: 'exited with code 1', nextRestartAt: 1 },
};

/** A server state as the host would send it, with overrides; checked like the host's, so a field of another status fails the test. */
export function serverState(name: string, overrides: Partial<ServerState> = {}): ServerState {
  const status = overrides.status ?? 'stopped';
  return ServerStateSchema.parse({
    name,
    config: ServerConfigSchema.parse({ command: 'node', args: ['server.js'] }),
    status,
    restartCount: 0,
    ...STATUS_DEFAULTS[status],
    ...overrides,
  });
}
