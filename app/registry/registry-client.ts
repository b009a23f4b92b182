import { errorMessage } from '../../shared/error-message';
import { cleanText } from './server-json';

/**
 * A registry's answer is a page of entries or one entry: far below this. The
 * room above a normal page is for an oversized entry or two (a 5 MiB
 * description), which server-json.ts then skips one by one: refusing the
 * whole page would hide every other entry behind one bad one.
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;

/** Why a registry request failed, in words; `status` when the registry answered. */
export class RegistryRequestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RegistryRequestError';
  }
}

export interface RegistryClientOptions {
  /** Injectable for tests; default the global fetch. */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** `base` + path, keeping a base path a sub-registry may have (https://example.com/mcp-registry). */
export function registryUrl(base: string, path: string, query: Record<string, string | undefined> = {}): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  url.hash = '';
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, value);
  return url.href;
}

/**
 * GETs JSON from a registry with a timeout (and the caller's AbortSignal), a
 * size limit read as the body streams, and errors a person can act on. It
 * only fetches: what the JSON means is checked by server-json.ts.
 */
export class RegistryClient {
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: RegistryClientOptions = {}) {
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async getJson(url: string, signal?: AbortSignal): Promise<unknown> {
    const host = new URL(url).host;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers: { accept: 'application/json' },
        signal: combined,
        redirect: 'follow',
      });
    } catch (error) {
      if (timeout.aborted)
        throw new RegistryRequestError(`${host} did not answer within ${Math.round(this.timeoutMs / 1000)} s`);
      if (signal?.aborted === true) throw new RegistryRequestError('the request was cancelled');
      throw new RegistryRequestError(`cannot reach ${host} (${describeNetworkError(error)})`);
    }
    const body = await this.readBody(response, host, timeout);
    if (!response.ok) {
      const detail = errorDetail(body);
      throw new RegistryRequestError(
        `${host} answered ${response.status}${detail === undefined ? '' : `: ${detail}`}`,
        response.status,
      );
    }
    try {
      return JSON.parse(body) as unknown;
    } catch {
      throw new RegistryRequestError(`${host} answered with something that is not JSON`);
    }
  }

  private async readBody(response: Response, host: string, timeout: AbortSignal): Promise<string> {
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > MAX_RESPONSE_BYTES) {
      await response.body?.cancel();
      throw new RegistryRequestError(`${host} sent an answer of ${declared} bytes, more than a registry page can be`);
    }
    const reader = response.body?.getReader();
    if (reader === undefined) return '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > MAX_RESPONSE_BYTES) {
          await reader.cancel();
          throw new RegistryRequestError(
            `${host} sent more than ${MAX_RESPONSE_BYTES} bytes, more than a registry page can be`,
          );
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof RegistryRequestError) throw error;
      if (timeout.aborted) throw new RegistryRequestError(`${host} did not finish its answer in time`);
      throw new RegistryRequestError(`the answer from ${host} broke off (${errorMessage(error)})`);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code =
    typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string'
      ? cause.code
      : undefined;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the name does not resolve: offline?';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was closed';
  return code ?? errorMessage(cause);
}

/** The registry's own `{ error }` text, cleaned and cut short: it is shown to the person. */
function errorDetail(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed === 'object' && parsed !== null && 'error' in parsed && typeof parsed.error === 'string')
      return cleanText(parsed.error).slice(0, 200);
  } catch {
    // Not JSON: the status says enough.
  }
  return undefined;
}
