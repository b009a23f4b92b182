import { countPromptTokens } from './fake-token-count';
import type { ChatCompletionsRequestBody } from './validate-openai-request';

// The fake OpenAI-compatible server's prompt cache, automatic as OpenAI's is
// (platform.openai.com/docs/guides/prompt-caching): no marks in the request;
// a prompt of at least 1,024 tokens whose beginning matches a recent prompt of
// the same model byte for byte has that common prefix served from the cache,
// counted from 1,024 tokens up in steps of 128 and reported as
// usage.prompt_tokens_details.cached_tokens (part of prompt_tokens). The
// prompt is the tools, then the messages, as the body lists them; the prompt's
// tokens are counted by the fakes' own tokenizer (fake-token-count.ts), the
// common prefix as its share of the prompt's characters. Entries live 5 minutes
// from their last use.

export const MIN_CACHED_PROMPT_TOKENS = 1024;
export const CACHE_STEP_TOKENS = 128;
export const OPENAI_CACHE_TTL_MS = 5 * 60_000;
/** Recent prompts kept per model: enough for a few conversations at once. */
const KEPT_PER_MODEL = 32;

/** What a request is billed, in Chat Completions usage terms. */
export interface OpenAiPromptBill {
  prompt_tokens: number;
  cached_tokens: number;
}

/** The prompt as the model reads it, in order. */
export function promptText(body: Pick<ChatCompletionsRequestBody, 'tools' | 'messages'>): string {
  return [JSON.stringify(body.tools ?? []), ...body.messages.map((message) => JSON.stringify(message))].join('\n');
}

function commonPrefix(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let at = 0;
  while (at < end && a.charCodeAt(at) === b.charCodeAt(at)) at += 1;
  return at;
}

/** Cached tokens for a common prefix of `tokens`, as OpenAI rounds them. */
export function cachedTokensOf(tokens: number): number {
  if (tokens < MIN_CACHED_PROMPT_TOKENS) return 0;
  return (
    MIN_CACHED_PROMPT_TOKENS + Math.floor((tokens - MIN_CACHED_PROMPT_TOKENS) / CACHE_STEP_TOKENS) * CACHE_STEP_TOKENS
  );
}

export class FakeOpenAiPromptCache {
  private readonly recent = new Map<string, Array<{ text: string; expires: number }>>();

  constructor(private readonly now: () => number = Date.now) {}

  bill(body: Pick<ChatCompletionsRequestBody, 'model' | 'tools' | 'messages'>): OpenAiPromptBill {
    const text = promptText(body);
    const promptTokens = Math.max(1, countPromptTokens(body));
    const now = this.now();
    const kept = (this.recent.get(body.model) ?? []).filter((entry) => entry.expires > now);
    let best = 0;
    for (const entry of kept) {
      const shared = commonPrefix(entry.text, text);
      if (shared > best) {
        best = shared;
        entry.expires = now + OPENAI_CACHE_TTL_MS;
      }
    }
    // A prompt long enough to cache is kept for the next request whatever it read.
    if (promptTokens >= MIN_CACHED_PROMPT_TOKENS) kept.push({ text, expires: now + OPENAI_CACHE_TTL_MS });
    this.recent.set(body.model, kept.slice(-KEPT_PER_MODEL));
    const cached =
      promptTokens < MIN_CACHED_PROMPT_TOKENS ? 0 : cachedTokensOf(Math.floor((promptTokens * best) / text.length));
    return { prompt_tokens: promptTokens, cached_tokens: Math.min(cached, promptTokens) };
  }

  clear(): void {
    this.recent.clear();
  }
}
