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
import { formatSeconds } from '../format-seconds';

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

const NOT_OPENAI_COMPATIBLE =
  'this URL did not answer like an OpenAI-compatible API — check the base URL, it usually ends in /v1';

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

function serverName(context: OpenAiErrorContext): string {
  if (context.presetName !== undefined && context.presetName.trim() !== '') return context.presetName;
  const { host, port } = hostAndPort(context.baseURL);
  return LOOPBACK_HOSTS.has(host) ? (KNOWN_LOCAL_PORTS[port] ?? 'the server') : 'the server';
}

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

function retryAfter(error: APIError): string {
  const headers = error.headers;
  const milliseconds = Number(headers?.get('retry-after-ms'));
  let seconds =
    Number.isFinite(milliseconds) && milliseconds > 0 ? milliseconds / 1000 : Number(headers?.get('retry-after'));
  if (!Number.isFinite(seconds) || seconds <= 0) {
    const date = Date.parse(headers?.get('retry-after') ?? '');
    seconds = Number.isFinite(date) ? (date - Date.now()) / 1000 : Number.NaN;
  }
  return Number.isFinite(seconds) && seconds > 0
    ? ` Try again in ${Math.ceil(seconds)} s.`
    : ' Wait a moment, then retry.';
}

export function notOpenAiCompatible(context: Pick<OpenAiErrorContext, 'baseURL'>, status?: number): LlmError {
  return new LlmError('not-found', `Unexpected answer from ${context.baseURL}: ${NOT_OPENAI_COMPATIBLE}.`, status);
}

export function modelNotFound(context: OpenAiErrorContext, model: string, status?: number, detail?: string): LlmError {
  const said =
    detail !== undefined && detail !== '' ? ` (${status ?? ''}${status !== undefined ? ': ' : ''}${detail})` : '';
  return new LlmError(
    'not-found',
    `${providerName(context)} answered: model not found: ${model}${said}. Pick a model it lists in Settings.`,
    status ?? 404,
  );
}

export function toolsUnsupported(context: OpenAiErrorContext, detail: string, status?: number): LlmError {
  const model = context.model ?? 'This model';
  return new LlmError(
    'bad-request',
    `${model} cannot use tools (${detail}). Switch off this conversation's tools or pick a model that supports them.`,
    status,
    'tools',
  );
}

export function imagesUnsupported(context: OpenAiErrorContext, detail?: string, status?: number): LlmError {
  const model = context.model ?? 'This model';
  const said = detail !== undefined ? ` (${detail})` : '';
  return new LlmError(
    'bad-request',
    `${model} does not take images${said}. Remove the image or pick a model that can see images.`,
    status,
    'images',
  );
}

function networkError(error: APIConnectionError, context: OpenAiErrorContext): LlmError {
  const { code, message } = causeCode(error.cause);
  const { host, port } = hostAndPort(context.baseURL);
  // Node's fetch gives up after 5 minutes without headers or body, whatever the request's own timeout.
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new LlmError(
      'timeout',
      `${providerName(context)} sent nothing for 5 minutes, so the request was given up. A large prompt on a local model can take that long: try a smaller model or fewer tools.`,
    );
  }
  if (code === 'ECONNREFUSED')
    return new LlmError(
      'network',
      `Could not connect: nothing is listening at ${host}:${port} — is ${serverName(context)} running?`,
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new LlmError(
      'network',
      `Could not connect: the host ${host} was not found — check the base URL and the network.`,
    );
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return new LlmError(
      'network',
      `The connection to ${host}:${port} was closed before an answer came. Retry; if it keeps happening, check the server's log.`,
    );
  if (code !== undefined && /CERT|SSL|TLS/i.test(code))
    return new LlmError('network', `Could not connect securely to ${host}: ${message ?? code}.`);
  return new LlmError(
    'network',
    `Could not reach ${context.baseURL}${message !== undefined ? `: ${message}` : ''}. Check the base URL and the network connection.`,
  );
}

function statusError(error: APIError, status: number, context: OpenAiErrorContext): LlmError {
  const detail = apiDetail(error);
  const name = providerName(context);
  if (status === 401 || error instanceof AuthenticationError) {
    const next = context.hadKey ? 'Check the key in Settings.' : 'This provider needs a key: enter one in Settings.';
    return new LlmError('auth', `${name} refused the request: the key was rejected (401: ${detail}). ${next}`, 401);
  }
  if (status === 403 || error instanceof PermissionDeniedError)
    return new LlmError('permission', `${name} does not allow this key to do that (403: ${detail}).`, 403);
  if (status === 429 || error instanceof RateLimitError)
    return new LlmError('rate-limit', `Rate limited by ${name} (429: ${detail}).${retryAfter(error)}`, 429);
  if (context.sentTools === true && TOOLS_UNSUPPORTED.some((pattern) => pattern.test(detail)))
    return toolsUnsupported(context, detail, status);
  if (status >= 500) {
    if (status === 503)
      return new LlmError(
        'overloaded',
        `${name} is overloaded or still starting (503: ${detail}).${retryAfter(error)}`,
        status,
      );
    return new LlmError('server', `${name} had an internal error (${status}: ${detail}). Retry in a moment.`, status);
  }
  const modelMissing = error.code === 'model_not_found' || (/model/i.test(detail) && MODEL_MISSING.test(detail));
  if ((status === 404 || status === 400) && modelMissing && context.model !== undefined)
    return modelNotFound(context, context.model, status, detail);
  if (context.sentImages === true && IMAGES_UNSUPPORTED.some((pattern) => pattern.test(detail)))
    return imagesUnsupported(context, detail, status);
  // A wrong base URL: a web page, a bare "404 page not found", or a route that takes no POST.
  if ((status === 404 || status === 405) && bodyWasNotJson(error)) return notOpenAiCompatible(context, status);
  if (status === 404)
    return new LlmError('not-found', `${name} answered 404: ${detail}. Check the base URL and the model.`, 404);
  if (status >= 400 && status < 500)
    return new LlmError('bad-request', `${name} rejected the request (${status}: ${detail}).`, status);
  return new LlmError('unknown', `${name} answered ${status}: ${detail}.`, status);
}

/** Whatever the `openai` package (or the stream) threw, as an LlmError a person can read. */
export function toOpenAiLlmError(error: unknown, context: OpenAiErrorContext): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof APIUserAbortError) return new LlmError('aborted', STOPPED_MESSAGE);
  if (error instanceof APIConnectionTimeoutError) {
    const after = context.timeoutMs !== undefined ? ` after ${formatSeconds(context.timeoutMs)}` : '';
    return new LlmError(
      'timeout',
      `The request to ${context.baseURL} timed out${after}. A local model may still be loading: try again.`,
    );
  }
  if (error instanceof APIConnectionError) return networkError(error, context);
  if (error instanceof APIError) {
    if (error.status !== undefined) return statusError(error, error.status, context);
    // An error inside the stream (`data: {"error": …}`) has no HTTP status.
    const detail = apiDetail(error);
    if (context.sentTools === true && TOOLS_UNSUPPORTED.some((pattern) => pattern.test(detail)))
      return toolsUnsupported(context, detail);
    return new LlmError('server', `${providerName(context)} reported an error mid-reply (${detail}). Retry.`);
  }
  // The stream's data was not JSON: not a Chat Completions server.
  if (error instanceof SyntaxError) return notOpenAiCompatible(context);
  if (error instanceof OpenAIError)
    return new LlmError('unknown', `The answer from ${context.baseURL} could not be read: ${error.message}`);
  return new LlmError('unknown', `The model call failed: ${errorMessage(error)}`);
}
