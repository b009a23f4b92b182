import { familyWords, type EnglishOf } from './host-wording';

// Why a chat turn (or a model call) failed, as codes the renderer words from renderer/i18n/locales/<locale>/chat-error.json.
// `detail` is the provider's own words (its error message), shown as it is; `retryAfter` is whole seconds, 0 when
// the provider did not say.

/** The codes of chat failures, each with its parameters. */
export type ChatErrorMessages = {
  'chat-error.anthropic-no-key': Record<string, never>;
  'chat-error.anthropic-key-first': Record<string, never>;
  'chat-error.api-timed-out': { url: string };
  'chat-error.api-refused': { url: string };
  'chat-error.api-host-not-found': { url: string };
  'chat-error.api-unreachable': { url: string };
  'chat-error.api-unreachable-detail': { url: string; detail: string };
  'chat-error.api-key-rejected': { status: number; detail: string };
  'chat-error.api-key-not-allowed': { status: number; detail: string };
  'chat-error.api-rate-limited': { status: number; detail: string; retryAfter: number };
  'chat-error.api-rate-limited-mid-reply': { detail: string };
  'chat-error.api-overloaded': { status: number; detail: string; retryAfter: number };
  'chat-error.api-overloaded-mid-reply': { detail: string };
  'chat-error.api-model-not-found': { status: number; detail: string; model: string };
  'chat-error.api-rejected': { status: number; detail: string };
  'chat-error.api-error-mid-reply': { type: string; detail: string };
  'chat-error.api-internal': { status: number; detail: string };
  'chat-error.api-status': { status: number; detail: string };
  'chat-error.api-reply-unreadable': { url: string; detail: string };
  'chat-error.connection-lost-mid-reply': { url: string };
  'chat-error.model-call-failed': { detail: string };
  'chat-error.api-no-context-management': { detail: string };
  'chat-error.provider-key-rejected': { provider: string; status: number; detail: string };
  'chat-error.provider-needs-key': { provider: string; status: number; detail: string };
  'chat-error.provider-key-not-allowed': { provider: string; status: number; detail: string };
  'chat-error.provider-rate-limited': { provider: string; status: number; detail: string; retryAfter: number };
  'chat-error.provider-overloaded': { provider: string; status: number; detail: string; retryAfter: number };
  'chat-error.provider-internal': { provider: string; status: number; detail: string };
  'chat-error.provider-model-not-found': { provider: string; model: string };
  'chat-error.provider-model-not-found-detail': { provider: string; model: string; detail: string };
  'chat-error.provider-not-openai': { url: string };
  'chat-error.provider-not-found': { provider: string; detail: string };
  'chat-error.provider-rejected': { provider: string; status: number; detail: string };
  'chat-error.provider-status': { provider: string; status: number; detail: string };
  'chat-error.provider-error-mid-reply': { provider: string; detail: string };
  'chat-error.provider-timed-out': { url: string };
  'chat-error.provider-timed-out-after': { url: string; seconds: number };
  'chat-error.provider-silent': { provider: string };
  'chat-error.provider-refused': { host: string; port: string; provider: string };
  'chat-error.provider-refused-unnamed': { host: string; port: string };
  'chat-error.provider-host-not-found': { host: string };
  'chat-error.provider-connection-closed': { host: string; port: string };
  'chat-error.provider-insecure': { host: string; detail: string };
  'chat-error.provider-unreachable': { url: string };
  'chat-error.provider-unreachable-detail': { url: string; detail: string };
  'chat-error.provider-reply-unreadable': { url: string; detail: string };
  'chat-error.provider-removed': { model: string; provider: string };
  'chat-error.provider-key-missing': { provider: string };
  'chat-error.model-no-tools': { model: string; detail: string };
  'chat-error.model-no-images': { model: string };
  'chat-error.model-no-images-detail': { model: string; detail: string };
  'chat-error.model-no-images-sampling': { model: string };
  'chat-error.too-many-rounds': { rounds: number };
  'chat-error.context-full-ask': { model: string; estimate: number; window: number };
  'chat-error.context-message-too-big': { model: string; estimate: number };
  'chat-error.context-message-too-big-window': { model: string; estimate: number; window: number };
  'chat-error.context-still-full': { model: string; after: number; window: number; cut: 'compact' | 'drop' };
  'chat-error.context-refused': { detail: string };
};
export type ChatErrorCode = keyof ChatErrorMessages;

const n = (value: number): string => value.toLocaleString('en-US');
const retry = (seconds: number): string =>
  seconds > 0 ? ` Try again in ${Math.ceil(seconds)} s.` : ' Wait a moment, then retry.';

const ENGLISH: EnglishOf<ChatErrorMessages> = {
  'chat-error.anthropic-no-key': () => 'No Anthropic API key: enter one in Settings or set ANTHROPIC_API_KEY.',
  'chat-error.anthropic-key-first': () =>
    'Add your Anthropic API key first (Settings → Anthropic API key, or ANTHROPIC_API_KEY), then try again.',
  'chat-error.api-timed-out': ({ url }) => `The request to ${url} timed out.`,
  'chat-error.api-refused': ({ url }) =>
    `Could not reach ${url}: nothing is listening there. Check the network connection (and ANTHROPIC_BASE_URL if it is set).`,
  'chat-error.api-host-not-found': ({ url }) =>
    `Could not reach ${url}: its host was not found. Check the network connection (and ANTHROPIC_BASE_URL if it is set).`,
  'chat-error.api-unreachable': ({ url }) =>
    `Could not reach ${url}. Check the network connection (and ANTHROPIC_BASE_URL if it is set).`,
  'chat-error.api-unreachable-detail': ({ url, detail }) =>
    `Could not reach ${url}: ${detail}. Check the network connection (and ANTHROPIC_BASE_URL if it is set).`,
  'chat-error.api-key-rejected': ({ status, detail }) =>
    `The API key was rejected (${status}: ${detail}). Enter a valid key in Settings.`,
  'chat-error.api-key-not-allowed': ({ status, detail }) => `The API key may not do this (${status}: ${detail}).`,
  'chat-error.api-rate-limited': ({ status, detail, retryAfter }) =>
    `Rate limited by the API (${status}: ${detail}).${retry(retryAfter)}`,
  'chat-error.api-rate-limited-mid-reply': ({ detail }) =>
    `Rate limited by the API (${detail}). Wait a moment, then retry.`,
  'chat-error.api-overloaded': ({ status, detail, retryAfter }) =>
    `The API is overloaded right now (${status}: ${detail}).${retry(retryAfter)}`,
  'chat-error.api-overloaded-mid-reply': ({ detail }) =>
    `The API is overloaded right now (${detail}). Wait a moment, then retry.`,
  'chat-error.api-model-not-found': ({ status, detail, model }) =>
    `Not found (${status}: ${detail}). Check that the model '${model}' exists.`,
  'chat-error.api-rejected': ({ status, detail }) => `The API rejected the request (${status}: ${detail}).`,
  'chat-error.api-error-mid-reply': ({ type, detail }) =>
    `The API reported an error mid-reply (${type}: ${detail}). Retry.`,
  'chat-error.api-internal': ({ status, detail }) =>
    `The API had an internal error (${status}: ${detail}). Retry in a moment.`,
  'chat-error.api-status': ({ status, detail }) => `The API answered ${status}: ${detail}.`,
  'chat-error.api-reply-unreadable': ({ url, detail }) => `The reply from ${url} could not be read: ${detail}`,
  'chat-error.connection-lost-mid-reply': ({ url }) =>
    `The connection to ${url} closed in the middle of the reply. Check the network connection, then try again.`,
  'chat-error.model-call-failed': ({ detail }) => `The model call failed: ${detail}`,
  'chat-error.api-no-context-management': ({ detail }) =>
    `Anthropic refused to manage this conversation's context itself (${detail}).`,
  'chat-error.provider-key-rejected': ({ provider, status, detail }) =>
    `${provider} refused the request: the key was rejected (${status}: ${detail}). Check the key in Settings.`,
  'chat-error.provider-needs-key': ({ provider, status, detail }) =>
    `${provider} refused the request: the key was rejected (${status}: ${detail}). This provider needs a key: enter one in Settings.`,
  'chat-error.provider-key-not-allowed': ({ provider, status, detail }) =>
    `${provider} does not allow this key to do that (${status}: ${detail}).`,
  'chat-error.provider-rate-limited': ({ provider, status, detail, retryAfter }) =>
    `Rate limited by ${provider} (${status}: ${detail}).${retry(retryAfter)}`,
  'chat-error.provider-overloaded': ({ provider, status, detail, retryAfter }) =>
    `${provider} is overloaded or still starting (${status}: ${detail}).${retry(retryAfter)}`,
  'chat-error.provider-internal': ({ provider, status, detail }) =>
    `${provider} had an internal error (${status}: ${detail}). Retry in a moment.`,
  'chat-error.provider-model-not-found': ({ provider, model }) =>
    `${provider} answered: model not found: ${model}. Pick a model it lists in Settings.`,
  'chat-error.provider-model-not-found-detail': ({ provider, model, detail }) =>
    `${provider} answered: model not found: ${model} (${detail}). Pick a model it lists in Settings.`,
  'chat-error.provider-not-openai': ({ url }) =>
    `Unexpected answer from ${url}: this URL did not answer like an OpenAI-compatible API — check the base URL, it usually ends in /v1.`,
  'chat-error.provider-not-found': ({ provider, detail }) =>
    `${provider} answered 404: ${detail}. Check the base URL and the model.`,
  'chat-error.provider-rejected': ({ provider, status, detail }) =>
    `${provider} rejected the request (${status}: ${detail}).`,
  'chat-error.provider-status': ({ provider, status, detail }) => `${provider} answered ${status}: ${detail}.`,
  'chat-error.provider-error-mid-reply': ({ provider, detail }) =>
    `${provider} reported an error mid-reply (${detail}). Retry.`,
  'chat-error.provider-timed-out': ({ url }) =>
    `The request to ${url} timed out. A local model may still be loading: try again.`,
  'chat-error.provider-timed-out-after': ({ url, seconds }) =>
    `The request to ${url} timed out after ${seconds} s. A local model may still be loading: try again.`,
  'chat-error.provider-silent': ({ provider }) =>
    `${provider} sent nothing for 5 minutes, so the request was given up. A large prompt on a local model can take that long: try a smaller model or fewer tools.`,
  'chat-error.provider-refused': ({ host, port, provider }) =>
    `Could not connect: nothing is listening at ${host}:${port} — is ${provider} running?`,
  'chat-error.provider-refused-unnamed': ({ host, port }) =>
    `Could not connect: nothing is listening at ${host}:${port} — is the server running?`,
  'chat-error.provider-host-not-found': ({ host }) =>
    `Could not connect: the host ${host} was not found — check the base URL and the network.`,
  'chat-error.provider-connection-closed': ({ host, port }) =>
    `The connection to ${host}:${port} was closed before an answer came. Retry; if it keeps happening, check the server's log.`,
  'chat-error.provider-insecure': ({ host, detail }) => `Could not connect securely to ${host}: ${detail}.`,
  'chat-error.provider-unreachable': ({ url }) =>
    `Could not reach ${url}. Check the base URL and the network connection.`,
  'chat-error.provider-unreachable-detail': ({ url, detail }) =>
    `Could not reach ${url}: ${detail}. Check the base URL and the network connection.`,
  'chat-error.provider-reply-unreadable': ({ url, detail }) => `The answer from ${url} could not be read: ${detail}`,
  'chat-error.provider-removed': ({ model, provider }) =>
    `This conversation's model '${model}' came from the provider '${provider}', which is no longer in Settings. Pick another model in the message box, or add the provider again.`,
  'chat-error.provider-key-missing': ({ provider }) =>
    `Add the API key of ${provider} in Settings (Providers) to use its models.`,
  'chat-error.model-no-tools': ({ model, detail }) =>
    `${model} cannot use tools (${detail}). Switch off this conversation's tools or pick a model that supports them.`,
  'chat-error.model-no-images': ({ model }) =>
    `${model} does not take images. Remove the image or pick a model that can see images.`,
  'chat-error.model-no-images-detail': ({ model, detail }) =>
    `${model} does not take images (${detail}). Remove the image or pick a model that can see images.`,
  'chat-error.model-no-images-sampling': ({ model }) =>
    `${model} does not take images. Pick a model that takes images, or remove them.`,
  'chat-error.too-many-rounds': ({ rounds }) =>
    `The model was still calling tools after ${rounds} rounds in one turn, so Berth stopped the loop. Send a message to let it continue.`,
  'chat-error.context-full-ask': ({ model, estimate, window }) =>
    `This conversation no longer fits ${model}'s context window (about ${n(estimate)} of ${n(window)} tokens with room for the reply), and it is set to stop and ask. Choose Compact and retry to summarise the oldest turns, or change what Berth does when the context is full.`,
  'chat-error.context-message-too-big': ({ model, estimate }) =>
    `The newest message alone does not fit ${model}'s context window (about ${n(estimate)} tokens). Shorten it, remove attachments, or switch off tools for this conversation.`,
  'chat-error.context-message-too-big-window': ({ model, estimate, window }) =>
    `The newest message alone does not fit ${model}'s context window (about ${n(estimate)} tokens of ${n(window)}). Shorten it, remove attachments, or switch off tools for this conversation.`,
  'chat-error.context-still-full': ({ model, after, window, cut }) =>
    `Even after ${cut === 'compact' ? 'compacting' : 'leaving out'} the older turns, the newest turn does not fit ${model}'s context window (about ${n(after)} of ${n(window)} tokens). Shorten the last message, remove attachments, or switch off tools for this conversation.`,
  'chat-error.context-refused': ({ detail }) =>
    `The model refused the request as too long (${detail}). The conversation does not fit the model's context window: choose Compact and retry.`,
};

/** A chat failure's English and its code, from the same facts. */
export const chatError = familyWords<ChatErrorMessages>(ENGLISH);
