import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  OpenAIError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
import { LlmError } from './llm-provider';
import { errorMessage } from '../../shared/error-message';

// What an OpenAI-compatible server's failures mean, in words a person can act
// on. The servers differ (OpenAI, Ollama, LM Studio, vLLM, llama.cpp,
// OpenRouter…), so the checks read status, error code and message together.
// Key phrases are fixed ("nothing is listening at…", "the key was rejected",
// "model not found: <id>", "this URL did not answer like an OpenAI-compatible
// API…"): Settings' "Test connection" and the chat show them as they are.

export const STOPPED_MESSAGE = 'The request to the model was stopped.';

/** What the message needs to know about the request that failed. */
export interface OpenAiErrorContext {
  baseURL: string;
  /** The provider's own model id, when the request named one. */
  model?: string;
  /** The preset the person picked (Ollama, LM Studio…), named in "is … running?". */
  presetName?: string;
  /** Whether a key was sent (a 401 without one means the provider needs one). */
  hadKey: boolean;
  /** The request offered tools / carried images: a refusal may be about them. */
  sentTools?: boolean;
  sentImages?: boolean;
  /** The per-request timeout, for the timeout message. */
  timeoutMs?: number;
}

/** Local servers on their usual ports, named when the caller gave no preset name. */
const KNOWN_LOCAL_PORTS: Readonly<Record<string, string>> = { '11434': 'Ollama', '1234': 'LM Studio' };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** How the servers say a model has no tool support. */
const TOOLS_UNSUPPORTED = [
  /does not support tools/i, // Ollama
  /tools? (?:use |calling |calls? )?(?:is |are )?not supported/i,
  /does not support (?:tool|function)/i,
  /no endpoints found that support tool use/i, // OpenRouter
  /tool choice requires --enable-auto-tool-choice/i, // vLLM without a tool parser
  /tools param requires --jinja/i, // llama.cpp without a chat template for tools
];

const IMAGES_UNSUPPORTED = [/image/i, /vision/i, /multimodal|multi-modal/i];

const MODEL_MISSING =
  /not found|does not exist|not a valid model|no such model|unknown model|not available|is not loaded/i;

function hostAndPort(baseURL: string): { host: string; port: string } {
  try {
    const url = new URL(baseURL);
    return { host: url.hostname, port: url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80' };
  } catch {
    return { host: baseURL, port: '' };
  }
}

/** Who answered, for the person: the preset's name, else the server's host. */
export function providerName(context: Pick<OpenAiErrorContext, 'baseURL' | 'presetName'>): string {
  if (context.presetName !== undefined && context.presetName.trim() !== '') return context.presetName;
  const { host, port } = hostAndPort(context.baseURL);
  if (LOOPBACK_HOSTS.has(host) && KNOWN_LOCAL_PORTS[port] !== undefined) return KNOWN_LOCAL_PORTS[port];
  return host;
}

/** The server's name for "is … running?"; undefined when Berth has none for it ("the server"). */
function serverName(context: OpenAiErrorContext): string | undefined {
  if (context.presetName !== undefined && context.presetName.trim() !== '') return context.presetName;
  const { host, port } = hostAndPort(context.baseURL);
  return LOOPBACK_HOSTS.has(host) ? KNOWN_LOCAL_PORTS[port] : undefined;
}

/** A timeout as the seconds formatSeconds shows ("2.5 s"): one decimal. */
const seconds = (ms: number): number => Math.round(ms / 100) / 10;

/** The system error code somewhere in a fetch failure's causes (ECONNREFUSED…). */
function causeCode(error: unknown): { code?: string; message?: string } {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return { code, message: current.message };
    current = current.cause;
  }
  return current instanceof Error ? { message: current.message } : {};
}

/** The server's own words: its error message, or its body when that was not JSON. */
export function apiDetail(error: APIError): string {
  const body = error.error as { message?: unknown } | string | undefined | null;
  let detail: string;
  if (typeof body === 'string') detail = body;
  else if (body !== undefined && body !== null && typeof body.message === 'string') detail = body.message;
  else detail = error.status !== undefined ? error.message.replace(new RegExp(`^${error.status} `), '') : error.message;
  detail = detail.trim();
  if (detail.startsWith('<')) return 'an HTML page';
  return detail.length > 300 ? `${detail.slice(0, 300)}…` : detail;
}

/** The answer was not JSON at all (a web page, a bare "404 page not found"). */
function bodyWasNotJson(error: APIError): boolean {
  return error.error === undefined && !/status code \(no body\)$/.test(error.message);
}

/** The server's retry-after in whole seconds; 0 when it gave none. */
function retryAfter(error: APIError): number {
  const headers = error.headers;
  const milliseconds = Number(headers?.get('retry-after-ms'));
  let seconds =
    Number.isFinite(milliseconds) && milliseconds > 0 ? milliseconds / 1000 : Number(headers?.get('retry-after'));
  if (!Number.isFinite(seconds) || seconds <= 0) {
    const date = Date.parse(headers?.get('retry-after') ?? '');
    seconds = Number.isFinite(date) ? (date - Date.now()) / 1000 : Number.NaN;
  }
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 0;
}

export function notOpenAiCompatible(context: Pick<OpenAiErrorContext, 'baseURL'>, status?: number): LlmError {
  return LlmError.of('not-found', 'chat-error.provider-not-openai', { url: context.baseURL }, status);
}

export function modelNotFound(context: OpenAiErrorContext, model: string, status?: number, detail?: string): LlmError {
  const provider = providerName(context);
  if (detail === undefined || detail === '')
    return LlmError.of('not-found', 'chat-error.provider-model-not-found', { provider, model }, status ?? 404);
  const said = `${status ?? ''}${status !== undefined ? ': ' : ''}${detail}`;
  return LlmError.of(
    'not-found',
    'chat-error.provider-model-not-found-detail',
    { provider, model, detail: said },
    status ?? 404,
  );
}

// Without a model id the English says "This model"; such a failure has no code (the host's English is shown).
export function toolsUnsupported(context: OpenAiErrorContext, detail: string, status?: number): LlmError {
  if (context.model === undefined)
    return new LlmError(
      'bad-request',
      `This model cannot use tools (${detail}). Switch off this conversation's tools or pick a model that supports them.`,
      status,
      'tools',
    );
  return LlmError.of('bad-request', 'chat-error.model-no-tools', { model: context.model, detail }, status, 'tools');
}

export function imagesUnsupported(context: OpenAiErrorContext, detail?: string, status?: number): LlmError {
  const model = context.model;
  if (model === undefined) {
    const said = detail !== undefined ? ` (${detail})` : '';
    return new LlmError(
      'bad-request',
      `This model does not take images${said}. Remove the image or pick a model that can see images.`,
      status,
      'images',
    );
  }
  return detail === undefined
    ? LlmError.of('bad-request', 'chat-error.model-no-images', { model }, status, 'images')
    : LlmError.of('bad-request', 'chat-error.model-no-images-detail', { model, detail }, status, 'images');
}

function networkError(error: APIConnectionError, context: OpenAiErrorContext): LlmError {
  const { code, message } = causeCode(error.cause);
  const { host, port } = hostAndPort(context.baseURL);
  // Node's fetch gives up after 5 minutes without headers or body, whatever the request's own timeout.
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return LlmError.of('timeout', 'chat-error.provider-silent', { provider: providerName(context) });
  if (code === 'ECONNREFUSED') {
    const provider = serverName(context);
    return provider === undefined
      ? LlmError.of('network', 'chat-error.provider-refused-unnamed', { host, port })
      : LlmError.of('network', 'chat-error.provider-refused', { host, port, provider });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return LlmError.of('network', 'chat-error.provider-host-not-found', { host });
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return LlmError.of('network', 'chat-error.provider-connection-closed', { host, port });
  if (code !== undefined && /CERT|SSL|TLS/i.test(code))
    return LlmError.of('network', 'chat-error.provider-insecure', { host, detail: message ?? code });
  const url = context.baseURL;
  return message !== undefined
    ? LlmError.of('network', 'chat-error.provider-unreachable-detail', { url, detail: message })
    : LlmError.of('network', 'chat-error.provider-unreachable', { url });
}

function statusError(error: APIError, status: number, context: OpenAiErrorContext): LlmError {
  const detail = apiDetail(error);
  const provider = providerName(context);
  const facts = { provider, status, detail };
  if (status === 401 || error instanceof AuthenticationError)
    return LlmError.of(
      'auth',
      context.hadKey ? 'chat-error.provider-key-rejected' : 'chat-error.provider-needs-key',
      { ...facts, status: 401 },
      401,
    );
  if (status === 403 || error instanceof PermissionDeniedError)
    return LlmError.of('permission', 'chat-error.provider-key-not-allowed', { ...facts, status: 403 }, 403);
  if (status === 429 || error instanceof RateLimitError)
    return LlmError.of(
      'rate-limit',
      'chat-error.provider-rate-limited',
      { ...facts, status: 429, retryAfter: retryAfter(error) },
      429,
    );
  if (context.sentTools === true && TOOLS_UNSUPPORTED.some((pattern) => pattern.test(detail)))
    return toolsUnsupported(context, detail, status);
  if (status >= 500) {
    if (status === 503)
      return LlmError.of(
        'overloaded',
        'chat-error.provider-overloaded',
        { ...facts, retryAfter: retryAfter(error) },
        status,
      );
    return LlmError.of('server', 'chat-error.provider-internal', facts, status);
  }
  const modelMissing = error.code === 'model_not_found' || (/model/i.test(detail) && MODEL_MISSING.test(detail));
  if ((status === 404 || status === 400) && modelMissing && context.model !== undefined)
    return modelNotFound(context, context.model, status, detail);
  if (context.sentImages === true && IMAGES_UNSUPPORTED.some((pattern) => pattern.test(detail)))
    return imagesUnsupported(context, detail, status);
  // A wrong base URL: a web page, a bare "404 page not found", or a route that takes no POST.
  if ((status === 404 || status === 405) && bodyWasNotJson(error)) return notOpenAiCompatible(context, status);
  if (status === 404) return LlmError.of('not-found', 'chat-error.provider-not-found', { provider, detail }, 404);
  if (status >= 400 && status < 500) return LlmError.of('bad-request', 'chat-error.provider-rejected', facts, status);
  return LlmError.of('unknown', 'chat-error.provider-status', facts, status);
}

/** Whatever the `openai` package (or the stream) threw, as an LlmError a person can read. */
export function toOpenAiLlmError(error: unknown, context: OpenAiErrorContext): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof APIUserAbortError) return new LlmError('aborted', STOPPED_MESSAGE);
  if (error instanceof APIConnectionTimeoutError) {
    const url = context.baseURL;
    return context.timeoutMs === undefined
      ? LlmError.of('timeout', 'chat-error.provider-timed-out', { url })
      : LlmError.of('timeout', 'chat-error.provider-timed-out-after', { url, seconds: seconds(context.timeoutMs) });
  }
  if (error instanceof APIConnectionError) return networkError(error, context);
  if (error instanceof APIError) {
    if (error.status !== undefined) return statusError(error, error.status, context);
    // An error inside the stream (`data: {"error": …}`) has no HTTP status.
    const detail = apiDetail(error);
    if (context.sentTools === true && TOOLS_UNSUPPORTED.some((pattern) => pattern.test(detail)))
      return toolsUnsupported(context, detail);
    return LlmError.of('server', 'chat-error.provider-error-mid-reply', { provider: providerName(context), detail });
  }
  // The stream's data was not JSON: not a Chat Completions server.
  if (error instanceof SyntaxError) return notOpenAiCompatible(context);
  // The body of a stream whose connection closed before its end ends with undici's bare "terminated".
  if (error instanceof Error && error.message === 'terminated')
    return LlmError.of('network', 'chat-error.connection-lost-mid-reply', { url: context.baseURL });
  if (error instanceof OpenAIError)
    return LlmError.of('unknown', 'chat-error.provider-reply-unreadable', {
      url: context.baseURL,
      detail: error.message,
    });
  return LlmError.of('unknown', 'chat-error.model-call-failed', { detail: errorMessage(error) });
}
