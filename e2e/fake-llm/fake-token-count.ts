// The fakes' own tokenizer. A real provider counts the whole prompt (system, tools, every message)
// with a tokenizer Berth does not have, so its count differs from Berth's estimate by a factor that
// depends on the text: this count does the same (pieces of words, each punctuation mark a token,
// images by a fixed cost, a little per message), so a host that trusted its own estimate blindly
// would be found out by the fakes' usage and context windows.

/** What an image costs, whatever its size (the real APIs count pixels; the fakes cannot see them). */
export const FAKE_IMAGE_TOKENS = 1_600;
/** The framing of each message (role markers), as chat formats add. */
export const MESSAGE_OVERHEAD = 4;

const TOKEN = /[A-Za-z]{1,4}|[0-9]{1,3}|[^\sA-Za-z0-9]/gu;

/** Tokens of plain text by the fakes' tokenizer. */
export function countTextTokens(text: string): number {
  return text.match(TOKEN)?.length ?? 0;
}

/** Tokens of any JSON-like value: its strings and numbers, with the JSON punctuation, images at their fixed cost. */
export function countValueTokens(value: unknown): number {
  if (typeof value === 'string') return countTextTokens(value);
  if (value === null || typeof value !== 'object') return countTextTokens(String(value));
  if (Array.isArray(value)) return value.reduce((sum: number, item: unknown) => sum + countValueTokens(item), 0);
  const record = value as Record<string, unknown>;
  if (record.type === 'image' || record.type === 'image_url') return FAKE_IMAGE_TOKENS;
  let sum = 0;
  for (const [key, inner] of Object.entries(record)) {
    // Block types and ids are framing the model never reads as text.
    if (key === 'type' || key === 'id' || key === 'tool_use_id' || key === 'tool_call_id' || key === 'cache_control')
      continue;
    sum += countValueTokens(inner);
  }
  return sum;
}

/** The whole prompt of a request (Anthropic's or OpenAI's shape): system, tools and messages. */
export function countPromptTokens(body: { system?: unknown; tools?: unknown; messages?: readonly unknown[] }): number {
  const messages = body.messages ?? [];
  return (
    countValueTokens(body.system ?? '') +
    countValueTokens(body.tools ?? []) +
    messages.reduce((sum: number, message) => sum + MESSAGE_OVERHEAD + countValueTokens(message), 0)
  );
}
