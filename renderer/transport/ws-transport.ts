import type {
  CallMessage,
  MethodInput,
  MethodName,
  MethodOutput,
  TopicName,
  TopicPayload,
} from '../../shared/contract';
import { WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../../shared/contract/wire';
import { fail, type Result } from '../../shared/result';
import { translate } from '../i18n/use-t';
import { connectionLostMessage, type ConnectionStatus, type RendererTransport } from './connection';
import { inPersonWords } from './person-words-lazy';
import { errorMessage } from '../../shared/error-message';

/** The subset of the WebSocket API the transport uses (browser WebSocket and the `ws` client both fit). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type SocketFactory = new (url: string, protocols: string[]) => SocketLike;

export interface WsTransportOptions {
  /** `ws://127.0.0.1:PORT/bridge` */
  url: string;
  token: string;
  /** Defaults to the browser's WebSocket; tests inject the `ws` package's client. */
  WebSocketImpl?: SocketFactory;
  /** Reconnect backoff: first delay, doubled per failure up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

const OPEN = 1;

interface PendingCall {
  message: CallMessage;
  resolve: (result: Result<unknown> | Promise<Result<unknown>>) => void;
  sent: boolean;
}

/**
 * The browser-mode bridge: JSON call/reply/event messages over one loopback
 * WebSocket, authenticated by the token subprotocol. Never leaves a call
 * hanging: calls queue while connecting and fail when the socket closes.
 */
export function createWsTransport(options: WsTransportOptions): RendererTransport {
  const Impl = options.WebSocketImpl ?? (globalThis.WebSocket as unknown as SocketFactory | undefined);
  if (!Impl) throw new Error('This browser has no WebSocket support; Berth needs it to talk to its host.');
  const initialDelayMs = options.initialDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 10_000;

  const pending = new Map<number, PendingCall>();
  const listeners = new Map<TopicName, Set<(payload: unknown) => void>>();
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  let status: ConnectionStatus = { state: 'connecting', everOpened: false, failedAttempts: 0 };
  let socket: SocketLike | undefined;
  let nextId = 1;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let closedForGood = false;

  function setStatus(next: ConnectionStatus): void {
    status = next;
    for (const listener of [...statusListeners]) listener(status);
  }

  function connect(): void {
    retryTimer = undefined;
    setStatus({ state: 'connecting', everOpened: status.everOpened, failedAttempts: status.failedAttempts });
    let ws: SocketLike;
    try {
      ws = new Impl!(options.url, [WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX + options.token]);
    } catch (error) {
      console.error('Berth bridge: cannot open the WebSocket', error);
      onSocketClosed();
      return;
    }
    socket = ws;
    ws.onopen = () => {
      if (socket !== ws) return;
      setStatus({ state: 'open', everOpened: true, failedAttempts: 0 });
      for (const call of pending.values()) {
        if (!call.sent) sendCall(ws, call);
      }
    };
    ws.onmessage = (event) => {
      if (socket === ws) handleMessage(event.data);
    };
    // Browsers fire `error` then `close`; the close handler does the work.
    ws.onerror = () => undefined;
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = undefined;
      onSocketClosed();
    };
  }

  function onSocketClosed(): void {
    // Every call in flight or queued fails: the host may or may not have run it.
    const calls = [...pending.values()];
    pending.clear();
    for (const call of calls) call.resolve(fail('INTERNAL', connectionLostMessage()));
    if (closedForGood) return;
    const failedAttempts = status.failedAttempts + 1;
    const delay = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(failedAttempts - 1, 20));
    setStatus({ state: 'lost', everOpened: status.everOpened, failedAttempts, retryAt: Date.now() + delay });
    retryTimer = setTimeout(connect, delay);
  }

  function sendCall(ws: SocketLike, call: PendingCall): void {
    try {
      ws.send(JSON.stringify(call.message));
      call.sent = true;
    } catch (error) {
      pending.delete(call.message.id);
      const reason = errorMessage(error);
      call.resolve(fail('INVALID_INPUT', translate('transport.sendFailed', { reason })));
    }
  }

  function handleMessage(data: unknown): void {
    if (typeof data !== 'string') {
      console.error('Berth bridge: ignored a binary message');
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      console.error('Berth bridge: ignored a message that is not JSON', data.slice(0, 200));
      return;
    }
    if (!isRecord(message)) {
      console.error('Berth bridge: ignored a message that is not an object');
      return;
    }
    if (message.kind === 'reply' && typeof message.id === 'number' && isResult(message.result)) {
      const call = pending.get(message.id);
      if (!call) {
        console.error(`Berth bridge: reply for unknown call ${message.id}`);
        return;
      }
      pending.delete(message.id);
      // The router's contract wording is for developers; the person reads words (person-words.ts).
      call.resolve(inPersonWords(message.result));
      return;
    }
    // Any topic name is accepted here: the names and schemas live in the validating layer
    // (./validated-events.ts, loaded on demand), and a topic nobody subscribed to has no listeners.
    if (message.kind === 'event' && typeof message.topic === 'string') {
      const set = listeners.get(message.topic as TopicName);
      if (!set) return;
      for (const listener of [...set]) {
        try {
          listener(message.payload);
        } catch (error) {
          console.error(`Berth bridge: a listener for ${message.topic} threw`, error);
        }
      }
      return;
    }
    console.error('Berth bridge: ignored a malformed message', data.slice(0, 200));
  }

  connect();

  return {
    connection: {
      get: () => status,
      subscribe(listener) {
        statusListeners.add(listener);
        return () => statusListeners.delete(listener);
      },
      retryNow() {
        if (status.state !== 'lost' || closedForGood) return;
        clearTimeout(retryTimer);
        connect();
      },
    },
    call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<Result<MethodOutput<M>>> {
      if (closedForGood || status.state === 'lost') {
        return Promise.resolve(fail('INTERNAL', connectionLostMessage()));
      }
      return new Promise((resolve) => {
        const call: PendingCall = {
          message: { kind: 'call', id: nextId++, method, input },
          resolve: resolve as (result: Result<unknown> | Promise<Result<unknown>>) => void,
          sent: false,
        };
        pending.set(call.message.id, call);
        if (socket && socket.readyState === OPEN) sendCall(socket, call);
      });
    },
    on<T extends TopicName>(topic: T, listener: (payload: TopicPayload<T>) => void): () => void {
      let set = listeners.get(topic);
      if (!set) {
        set = new Set();
        listeners.set(topic, set);
      }
      const untyped = listener as (payload: unknown) => void;
      set.add(untyped);
      return () => set.delete(untyped);
    },
    close() {
      closedForGood = true;
      clearTimeout(retryTimer);
      const ws = socket;
      socket = undefined;
      ws?.close(1000, 'closed by the page');
      onSocketClosed();
      setStatus({ ...status, state: 'lost', retryAt: undefined });
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isResult(value: unknown): value is Result<unknown> {
  if (!isRecord(value)) return false;
  if (value.ok === true) return 'value' in value;
  return value.ok === false && typeof value.code === 'string' && typeof value.message === 'string';
}
