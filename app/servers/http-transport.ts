import { SSEClientTransport, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type {
  JSONRPCMessage,
  MessageExtraInfo,
  OAuthClientProvider,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/client';
import { dedupeRefreshes, keepHeadersAtOrigin, noteChallenges, type AuthChallenge } from '../oauth/auth-fetch';

/** The two HTTP transports Berth speaks. */
export type HttpTransportKind = 'streamable-http' | 'sse';

/** What one HTTP transport needs. */
export interface HttpTransportOptions {
  url: string;
  kind: HttpTransportKind;
  /** Sent with every request (static headers from the config, secrets resolved). */
  headers: Record<string, string>;
  /** Every JSON-RPC message in or out, as the stdio transport reports them. */
  onTrace: (direction: 'in' | 'out', message: JSONRPCMessage, bytes: number, raw: string) => void;
  /** Streamable HTTP: how often a dropped GET stream is resumed (with Last-Event-ID) before the error is reported. */
  maxStreamRetries?: number;
  /** OAuth: bearer tokens on every request, refreshed on a 401 (see app/oauth). */
  authProvider?: OAuthClientProvider;
}

/**
 * An SDK HTTP transport (Streamable HTTP or legacy HTTP+SSE) with every
 * message traced, so remote servers get the same protocol log as local ones.
 * Everything the SDK client looks for on a transport is passed through.
 */
export class TracedHttpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly kind: HttpTransportKind;
  readonly hasPerRequestStream: boolean;
  private readonly inner: Transport;
  /** Streamable HTTP only: the one that has a session to DELETE. */
  private readonly streamable: StreamableHTTPClientTransport | undefined;

  constructor(private readonly options: HttpTransportOptions) {
    this.kind = options.kind;
    const url = new URL(options.url);
    const requestInit: RequestInit = { headers: options.headers };
    // With OAuth, a 401 on the POST and on the GET stream would each refresh: one refresh per refresh token;
    // and the authorization server gets none of the server's own headers.
    const provider = options.authProvider;
    const noteChallenge = (
      provider as { noteChallenge?: (challenge: AuthChallenge) => void } | undefined
    )?.noteChallenge?.bind(provider);
    const authFetch =
      provider === undefined
        ? undefined
        : keepHeadersAtOrigin(dedupeRefreshes(fetch), url.origin, Object.keys(options.headers));
    const auth =
      provider === undefined || authFetch === undefined
        ? {}
        : {
            authProvider: provider,
            fetch: noteChallenge === undefined ? authFetch : noteChallenges(authFetch, url.origin, noteChallenge),
          };
    this.streamable =
      options.kind === 'streamable-http'
        ? new StreamableHTTPClientTransport(url, {
            requestInit,
            ...auth,
            reconnectionOptions: {
              initialReconnectionDelay: 1_000,
              maxReconnectionDelay: 30_000,
              reconnectionDelayGrowFactor: 1.5,
              maxRetries: options.maxStreamRetries ?? 2,
            },
          })
        : undefined;
    // requestInit's headers go on the SSE stream's GET as well as on each POST.
    this.inner = this.streamable ?? new SSEClientTransport(url, { requestInit, ...auth });
    this.hasPerRequestStream = this.inner.hasPerRequestStream === true;
    this.inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      const raw = JSON.stringify(message);
      this.options.onTrace('in', message, Buffer.byteLength(raw), raw);
      this.onmessage?.(message, extra);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  readonly setProtocolVersion = (version: string): void => {
    this.inner.setProtocolVersion?.(version);
  };

  readonly setSupportedProtocolVersions = (versions: string[]): void => {
    this.inner.setSupportedProtocolVersions?.(versions);
  };

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const raw = JSON.stringify(message);
    this.options.onTrace('out', message, Buffer.byteLength(raw), raw);
    await this.inner.send(message, options);
  }

  /** Streamable HTTP: DELETE the session so the server can free it (a server may refuse with 405, which is fine). */
  async terminateSession(): Promise<void> {
    if (this.streamable?.sessionId !== undefined) await this.streamable.terminateSession();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The HTTP status of a failed request, when the failure was an HTTP answer. */
export function httpStatus(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) {
    const status = (error.data as { status?: unknown } | undefined)?.status;
    return typeof status === 'number' ? status : undefined;
  }
  return undefined;
}

/** The server could not be reached at all (refused, reset, name not found): worth retrying later. */
export function isUnreachable(error: unknown): boolean {
  for (
    let current: unknown = error, depth = 0;
    current instanceof Error && depth < 4;
    current = current.cause, depth++
  ) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      /^(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT)$/.test(
        code,
      )
    )
      return true;
    if (current instanceof TypeError && current.message === 'fetch failed') return true;
  }
  return false;
}

/**
 * The server no longer knows our session: the spec's answer is 404; some
 * servers (server-everything among them) answer 400 "No valid session ID".
 */
export function isSessionGone(error: unknown, hadSession: boolean): boolean {
  if (!hadSession) return false;
  const status = httpStatus(error);
  if (status === 404) return true;
  return status === 400 && error instanceof Error && /session/i.test(error.message);
}

/**
 * Streamable HTTP failed in a way the spec's backwards-compatibility section
 * reads as "this is an old HTTP+SSE server": a 4xx answer to the first POST.
 * 401/403 are about signing in, not about the transport.
 */
export function suggestsLegacySse(error: unknown): boolean {
  const status = httpStatus(error);
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/** "HTTP 404 Not Found" and the start of the body, for a person reading the error. */
export function describeHttpError(error: unknown): string | undefined {
  if (!(error instanceof SdkHttpError)) return undefined;
  const data = error.data as { status?: number; statusText?: string; text?: string } | undefined;
  if (data?.status === undefined) return undefined;
  const body = (data.text ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 160);
  return `HTTP ${data.status}${data.statusText ? ` ${data.statusText}` : ''}${body === '' ? '' : `: ${body}`}`;
}
