import { connect } from 'node:net';
import type { HostMessage } from '../../shared/domain/host-message';
import type { ModelWaitReason } from '../../shared/domain/chat';
import { LlmError, type LlmProvider, type LlmResponse, type LlmStreamRequest } from './llm-provider';

/** How long and how often a model call is tried again after a rate limit, an overload or a network drop. */
export interface RetryPolicy {
  /** Attempts in all (the first one included) after rate limits and overloads. */
  maxAttempts: number;
  /** Time from the first failure after which no rate-limit wait starts: a retry-after past it stops at once. */
  maxTotalMs: number;
  /** The first backoff when the provider gave no retry-after; doubled at each attempt, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long to wait for a lost network before the turn stops. */
  networkMaxMs: number;
  /** The first pause between two probes of the provider's address; doubled up to `probeMaxMs`. */
  probeBaseMs: number;
  probeMaxMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  maxTotalMs: 120_000,
  baseDelayMs: 2_000,
  maxDelayMs: 30_000,
  networkMaxMs: 300_000,
  probeBaseMs: 1_000,
  probeMaxMs: 15_000,
};

/** One wait before the model is asked again, as it starts. */
export interface ModelWait {
  reason: ModelWaitReason;
  /** When the next attempt starts (epoch ms); absent while waiting for the network to come back. */
  until?: number;
  /** Waiting for the network: when the turn stops if it has not come back (epoch ms). */
  giveUpAt?: number;
  /** The attempt the wait leads to (2 for the first retry) and the most there will be (rate limits and overloads). */
  attempt: number;
  maxAttempts: number;
  /** The provider's name, where its error gave it (OpenAI-compatible providers); absent: Anthropic's API. */
  provider?: string;
  /** The failure that started the wait, as a code (chat-error.*). */
  cause?: HostMessage;
}

/**
 * A turn's waits: sleeps that Stop (the signal) ends with an error and Retry now ends early. One per running turn.
 */
export class RetryWaits {
  private wake: (() => void) | undefined;

  /** End the current wait now (Retry now); false when nothing waits. */
  retryNow(): boolean {
    const wake = this.wake;
    if (wake === undefined) return false;
    wake();
    return true;
  }

  get waiting(): boolean {
    return this.wake !== undefined;
  }

  /** Resolves after `ms`, or at once on retryNow (true then); rejects as stopped when the signal aborts. */
  sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      if (signal?.aborted === true) return reject(stopped());
      const done = (early: boolean, error?: LlmError): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.wake = undefined;
        if (error !== undefined) reject(error);
        else resolve(early);
      };
      const onAbort = (): void => done(false, stopped());
      const timer = setTimeout(() => done(false), Math.max(0, ms));
      this.wake = () => done(true);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

const stopped = (): LlmError => new LlmError('aborted', 'The request to the model was stopped.');

export interface RetryOptions {
  waits: RetryWaits;
  /** Each wait as it starts. */
  onWait: (wait: ModelWait) => void;
  /** A wait is over and the model is asked again. */
  onResume: () => void;
  policy?: Partial<RetryPolicy>;
  /** Whether the provider's address takes connections again (default: a TCP connect to the address its error named). */
  probe?: typeof addressAnswers;
  now?: () => number;
  random?: () => number;
}

/** The failure's retry-after in ms, from its coded parameters (whole seconds); undefined when it gave none. */
function retryAfterMs(error: LlmError): number | undefined {
  const seconds = error.hostMessage?.params?.retryAfter;
  return typeof seconds === 'number' && seconds > 0 ? seconds * 1000 : undefined;
}

function param(error: LlmError, name: string): string | undefined {
  const value = error.hostMessage?.params?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Where the failure says the provider is (`url`, or `host` and `port`), as host and port to connect to. */
function addressOf(error: LlmError): { host: string; port: number } | undefined {
  const url = param(error, 'url');
  if (url !== undefined) {
    try {
      const parsed = new URL(url);
      const port = parsed.port !== '' ? Number(parsed.port) : parsed.protocol === 'http:' ? 80 : 443;
      return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port };
    } catch {
      return undefined;
    }
  }
  const host = param(error, 'host');
  const port = Number(param(error, 'port'));
  return host !== undefined && Number.isInteger(port) && port > 0 ? { host, port } : undefined;
}

/**
 * Whether the address takes a connection again: the cheapest request there is (a TCP handshake, whatever the
 * protocol on top). Without an address, true: the next attempt itself is the probe.
 */
export function addressAnswers(
  address: { host: string; port: number } | undefined,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (address === undefined) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host: address.host, port: address.port, timeout: 5_000 });
    const end = (answered: boolean): void => {
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(answered);
    };
    const onAbort = (): void => end(false);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => end(true));
    socket.once('timeout', () => end(false));
    socket.once('error', () => end(false));
  });
}

const waitReason = (error: LlmError): ModelWaitReason | undefined =>
  error.kind === 'rate-limit'
    ? 'rate-limit'
    : error.kind === 'overloaded'
      ? 'overloaded'
      : error.kind === 'network'
        ? 'network'
        : undefined;

/**
 * Ask the provider, and when it answers a rate limit or an overload (429, 529, 503) or the network is gone, wait and
 * ask again within the policy's bounds, telling each wait as it starts. Only a request that streamed nothing is tried
 * again: a reply cut off mid-way is kept as it is (the chat offers Continue), never written twice.
 */
export async function streamWithRetries(
  provider: LlmProvider,
  request: LlmStreamRequest,
  options: RetryOptions,
): Promise<LlmResponse> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.policy };
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const probe = options.probe ?? addressAnswers;
  const { signal } = request;
  let streamed = false;
  const mark =
    <A extends unknown[]>(callback: ((...args: A) => void) | undefined) =>
    (...args: A): void => {
      streamed = true;
      callback?.(...args);
    };
  const sent: LlmStreamRequest = {
    ...request,
    ownRetries: true,
    onText: mark(request.onText),
    onThinking: mark(request.onThinking),
    onToolUseStart: mark(request.onToolUseStart),
  };
  let attempt = 1;
  let firstFailure: number | undefined;
  let networkSince: number | undefined;
  for (;;) {
    try {
      return await provider.stream(sent);
    } catch (error) {
      const reason = error instanceof LlmError ? waitReason(error) : undefined;
      if (!(error instanceof LlmError) || reason === undefined || streamed || signal?.aborted === true) throw error;
      const started = now();
      const provider = param(error, 'provider');
      const base = {
        ...(provider !== undefined ? { provider } : {}),
        ...(error.hostMessage !== undefined ? { cause: error.hostMessage } : {}),
      };
      if (reason === 'network') {
        networkSince ??= started;
        const giveUpAt = networkSince + policy.networkMaxMs;
        if (started >= giveUpAt) throw error;
        options.onWait({ reason, giveUpAt, attempt: attempt + 1, maxAttempts: policy.maxAttempts, ...base });
        await waitForNetwork(options, policy, addressOf(error), giveUpAt, signal, now, probe, error);
      } else {
        networkSince = undefined;
        firstFailure ??= started;
        if (attempt >= policy.maxAttempts) throw error;
        const left = firstFailure + policy.maxTotalMs - started;
        const asked = retryAfterMs(error);
        const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
        // Jitter: many clients limited at once do not all come back in the same instant.
        const delay = asked ?? Math.round(backoff * (0.5 + random() * 0.5));
        if (delay > left) throw error;
        options.onWait({
          reason,
          until: started + delay,
          attempt: attempt + 1,
          maxAttempts: policy.maxAttempts,
          ...base,
        });
        await options.waits.sleep(delay, signal);
        attempt += 1;
      }
      options.onResume();
    }
  }
}

/** Probe the address at a growing pause until it answers (or Retry now); past `giveUpAt` the failure stands. */
async function waitForNetwork(
  options: RetryOptions,
  policy: RetryPolicy,
  address: { host: string; port: number } | undefined,
  giveUpAt: number,
  signal: AbortSignal | undefined,
  now: () => number,
  probe: NonNullable<RetryOptions['probe']>,
  failure: LlmError,
): Promise<void> {
  for (let pause = policy.probeBaseMs; ; pause = Math.min(policy.probeMaxMs, pause * 2)) {
    const left = giveUpAt - now();
    if (left <= 0) throw failure;
    if (await options.waits.sleep(Math.min(pause, left), signal)) return;
    if (await probe(address, signal)) return;
    if (signal?.aborted === true) throw stopped();
  }
}
