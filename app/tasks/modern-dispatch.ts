import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { DispatchError } from '@modelcontextprotocol/ext-tasks/client';
import type {
  DispatchOptions,
  JsonRpcResponse,
  RawClientDispatch,
  V2RequestFraming,
} from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { formatSeconds } from '../format-seconds';
import type { BerthClient } from '../servers/berth-client';

/**
 * What ext-tasks needs, besides the Client, to run tasks of the 2026-07-28
 * era (`io.modelcontextprotocol/tasks`): pass both to
 * `createTaskSessionFromClient(client, { endpointId, ...these })`.
 */
export interface ModernTaskSessionOptions {
  readonly rawDispatch: RawClientDispatch;
  readonly v2RequestFraming: V2RequestFraming;
  /**
   * Hears the progress the server reports under `token`, a progress token
   * the caller put in a request's `_meta` (it must start with
   * {@linkcode RAW_REQUEST_ID_PREFIX}: the SDK Client never sees it); returns
   * the way to stop listening.
   */
  readonly watchProgress: (token: string, listener: (progress: RawProgress) => void) => () => void;
}

/** One `notifications/progress` of a raw request. */
export interface RawProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface ModernDispatchSettings {
  /** How long one raw request may wait for its answer when the caller sets no `requestTimeoutMs` (the server's request timeout). */
  readonly requestTimeoutMs: number;
}

/**
 * The SDK Client (2.4) refuses `resultType: "task"` and strips `resultType`
 * from what it returns, so ext-tasks sends `tools/call` and `tasks/*` of a
 * modern-era session past it: each request goes straight onto the
 * connection's transport, and its answer is taken off the transport before
 * the Client sees it. `client` must be connected in the modern era.
 */
export function modernTaskSessionOptions(
  client: BerthClient,
  settings: ModernDispatchSettings,
): ModernTaskSessionOptions {
  const envelope = client.requestEnvelope();
  const protocolVersion = envelope?.[PROTOCOL_VERSION_META_KEY];
  if (client.getProtocolEra() !== 'modern' || typeof protocolVersion !== 'string') {
    throw new Error('the 2026-07-28 tasks adapter needs a client connected in the modern era');
  }
  const raw = rawRequestsOf(client);
  return {
    rawDispatch: (request, options) => raw.dispatch(request, options ?? {}, settings.requestTimeoutMs),
    watchProgress: (token, listener) => raw.watchProgress(token, listener),
    v2RequestFraming: {
      protocolVersion,
      clientInfo: jsonObject(envelope?.[CLIENT_INFO_META_KEY], 'client info'),
      clientCapabilities: jsonObject(envelope?.[CLIENT_CAPABILITIES_META_KEY], 'client capabilities'),
    },
  };
}

/** Ids of this prefix are Berth's own raw requests: the SDK numbers its requests, so the two never meet. */
export const RAW_REQUEST_ID_PREFIX = 'berth-task-';

interface Waiting {
  readonly answered: (message: JSONRPCMessage) => void;
  readonly failed: (error: Error) => void;
  /** The server reported progress on it (only asked for when the caller resets its timeout on progress). */
  readonly progressed: () => void;
}

/** One per transport, for its whole life: the interception is installed once. */
const routers = new WeakMap<Transport, RawRequests>();

function rawRequestsOf(client: BerthClient): RawRequests {
  const transport = client.transport;
  if (transport === undefined) throw new Error('the 2026-07-28 tasks adapter needs a connected client');
  let router = routers.get(transport);
  if (router === undefined) {
    router = new RawRequests(client, transport);
    routers.set(transport, router);
  }
  return router;
}

/** Raw JSON-RPC requests on one transport, their answers claimed before the SDK Client's handler sees them. */
class RawRequests {
  private readonly waiting = new Map<string, Waiting>();
  /** A waiting request's progress token, when the caller chose it (else the token is the request's id). */
  private readonly tokens = new Map<string, string>();
  private readonly watchers = new Map<string, (progress: RawProgress) => void>();
  private sent = 0;
  private closed = false;

  constructor(
    private readonly client: BerthClient,
    private readonly transport: Transport,
  ) {
    const deliver = transport.onmessage;
    if (deliver === undefined)
      throw new Error('the 2026-07-28 tasks adapter needs a connected client (its transport has no message handler)');
    transport.onmessage = (message, extra) => {
      if (!this.claim(message)) deliver.call(transport, message, extra);
    };
    const closing = transport.onclose;
    transport.onclose = () => {
      this.closed = true;
      for (const waiting of [...this.waiting.values()])
        waiting.failed(new DispatchError('the connection to the server closed before it answered'));
      closing?.call(transport);
    };
  }

  dispatch(request: JsonValue, options: DispatchOptions, defaultTimeoutMs: number): Promise<JsonRpcResponse> {
    if (!isJsonObject(request) || typeof request.method !== 'string') {
      return Promise.reject(new DispatchError('a raw MCP request must be an object with a method'));
    }
    const method = request.method;
    if (this.closed)
      return Promise.reject(new DispatchError(`cannot send '${method}': the connection to the server is closed`));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    this.sent += 1;
    const id = `${RAW_REQUEST_ID_PREFIX}${this.sent}`;
    const timeoutMs = options.context?.requestTimeoutMs ?? defaultTimeoutMs;
    const resetOnProgress = options.context?.resetTimeoutOnProgress === true;
    const callerToken = progressTokenOf(request.params);
    if (callerToken !== undefined) this.tokens.set(callerToken, id);
    const message = {
      ...request,
      params: this.withMeta(request.params, resetOnProgress && callerToken === undefined ? id : undefined),
      jsonrpc: '2.0',
      id,
    } as unknown as JSONRPCMessage;
    // Over Streamable HTTP closing the request's stream is the cancellation (2026-07-28); elsewhere notifications/cancelled.
    const stream = this.transport.hasPerRequestStream === true ? new AbortController() : undefined;

    return new Promise<JsonRpcResponse>((resolve, reject) => {
      const done = (): void => {
        this.waiting.delete(id);
        if (callerToken !== undefined && this.tokens.get(callerToken) === id) this.tokens.delete(callerToken);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const giveUp = (reason: Error): void => {
        if (!this.waiting.has(id)) return;
        done();
        this.tellServerGivenUp(id, reason, stream);
        reject(reason);
      };
      const onAbort = (): void =>
        giveUp(signal === undefined ? new DispatchError(`'${method}' was cancelled`) : abortReason(signal));
      const timedOut = (): void =>
        giveUp(new DispatchError(`the server did not answer '${method}' within ${formatSeconds(timeoutMs)}`));
      let timer = setTimeout(timedOut, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, {
        answered: (answer) => {
          done();
          resolve(asResponse(answer));
        },
        failed: (error) => {
          done();
          reject(error);
        },
        progressed: () => {
          if (!resetOnProgress) return;
          clearTimeout(timer);
          timer = setTimeout(timedOut, timeoutMs);
        },
      });
      this.transport
        .send(message, { headers: options.context?.headers, requestSignal: stream?.signal })
        .catch((error: unknown) => {
          this.waiting
            .get(id)
            ?.failed(
              new DispatchError(
                `could not send '${method}': ${error instanceof Error ? error.message : String(error)}`,
                false,
                { cause: error },
              ),
            );
        });
    });
  }

  /**
   * An answer to one of ours, or progress on it, is kept from the SDK Client
   * (which would report an unknown id or token). One that comes after its
   * request was given up on (timed out, cancelled) is dropped: the caller
   * has already been told. One to an id in our namespace that was never sent
   * is reported like the SDK reports an unknown id (the server log).
   */
  private claim(message: JSONRPCMessage): boolean {
    if ('method' in message) {
      if (message.method !== 'notifications/progress') return false;
      const token: unknown = message.params?.progressToken;
      if (typeof token !== 'string' || !token.startsWith(RAW_REQUEST_ID_PREFIX)) return false;
      this.waiting.get(this.tokens.get(token) ?? token)?.progressed();
      const {
        progress,
        total,
        message: text,
      } = message.params as { progress?: unknown; total?: unknown; message?: unknown };
      if (typeof progress === 'number') {
        this.watchers.get(token)?.({
          progress,
          ...(typeof total === 'number' ? { total } : {}),
          ...(typeof text === 'string' ? { message: text } : {}),
        });
      }
      return true;
    }
    if (!('id' in message) || typeof message.id !== 'string' || !message.id.startsWith(RAW_REQUEST_ID_PREFIX))
      return false;
    const waiting = this.waiting.get(message.id);
    if (waiting !== undefined) waiting.answered(message);
    else if (!this.wasSent(message.id))
      this.client.onerror?.(new Error(`the server answered request ${message.id}, which Berth never sent; ignored`));
    return true;
  }

  watchProgress(token: string, listener: (progress: RawProgress) => void): () => void {
    if (!token.startsWith(RAW_REQUEST_ID_PREFIX))
      throw new Error(`a raw request's progress token must start with '${RAW_REQUEST_ID_PREFIX}'`);
    this.watchers.set(token, listener);
    return () => {
      if (this.watchers.get(token) === listener) this.watchers.delete(token);
    };
  }

  private wasSent(id: string): boolean {
    const number = Number(id.slice(RAW_REQUEST_ID_PREFIX.length));
    return Number.isInteger(number) && number >= 1 && number <= this.sent;
  }

  /**
   * The log level the person set rides along, as on the SDK's own requests
   * (the modern era has no logging/setLevel); a progress token (the request's
   * id) when progress should re-arm the timeout.
   */
  private withMeta(params: JsonValue | undefined, progressToken: string | undefined): JsonValue | undefined {
    const level = this.client.requestLogLevel;
    if ((level === undefined && progressToken === undefined) || !isJsonObject(params)) return params;
    const meta = isJsonObject(params._meta) ? params._meta : {};
    return {
      ...params,
      _meta: {
        ...meta,
        ...(level === undefined ? {} : { [LOG_LEVEL_META_KEY]: level }),
        ...(progressToken === undefined ? {} : { progressToken }),
      },
    };
  }

  private tellServerGivenUp(id: string, reason: Error, stream: AbortController | undefined): void {
    if (stream !== undefined) {
      stream.abort(reason);
      return;
    }
    if (this.closed) return;
    this.client
      .notification({ method: 'notifications/cancelled', params: { requestId: id, reason: reason.message } })
      .catch((error: unknown) => {
        this.client.onerror?.(
          new Error(
            `could not tell the server that request ${id} was given up: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      });
  }
}

/**
 * A result or error as ext-tasks reads it. SEP-2322: a 2026-07-28 result
 * without `resultType` means "complete" (as app/servers/berth-client.ts reads
 * the SDK's own answers).
 */
function asResponse(message: JSONRPCMessage): JsonRpcResponse {
  if ('error' in message) {
    const { code, message: text, data } = message.error;
    return {
      kind: 'error',
      error: {
        code: Number.isInteger(code) ? code : -32603,
        message: String(text),
        ...(data === undefined ? {} : { data: data as JsonValue }),
      },
    };
  }
  const result = 'result' in message ? (message.result as JsonValue) : null;
  if (isJsonObject(result) && !('resultType' in result))
    return { kind: 'result', result: { ...result, resultType: 'complete' } };
  return { kind: 'result', result };
}

function progressTokenOf(params: JsonValue | undefined): string | undefined {
  const meta = isJsonObject(params) && isJsonObject(params._meta) ? params._meta : undefined;
  return typeof meta?.progressToken === 'string' ? meta.progressToken : undefined;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DispatchError(`cancelled: ${String(signal.reason)}`);
}

function isJsonObject(value: unknown): value is Readonly<Record<string, JsonValue>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function jsonObject(value: unknown, what: string): Readonly<Record<string, JsonValue>> {
  if (!isJsonObject(value)) throw new Error(`the client's request envelope has no ${what}`);
  return value;
}
