import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';

/** What the model is told when it is to go on from a reply it did not finish (in English, as Berth's other notes to it). */
export const CONTINUE_TEXT = 'Continue from where you stopped.';

/**
 * The request's history for Continue, when it ends with the unfinished reply: that reply as the last assistant
 * message (a prefill, which the model goes on from) where the model takes one, else followed by a short user turn
 * asking to continue. The turn is for this request only: it is never saved or shown as the person's words.
 */
export function continuation(messages: MessageParam[], prefill: boolean): MessageParam[] {
  const last = messages.at(-1);
  // The reply held nothing the model reads again (thinking only): the person's message is simply answered anew.
  if (last === undefined || last.role !== 'assistant') return messages;
  if (prefill) {
    const trimmed = withoutTrailingSpace(last.content);
    if (trimmed.length > 0) return [...messages.slice(0, -1), { role: 'assistant', content: trimmed }];
  }
  return [...messages, { role: 'user', content: [{ type: 'text', text: CONTINUE_TEXT }] }];
}

/** The API refuses a final assistant message that ends in whitespace ("final assistant content cannot end with trailing whitespace"). */
function withoutTrailingSpace(content: MessageParam['content']): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];
  const end = blocks.at(-1);
  if (end?.type !== 'text') return blocks;
  const text = end.text.trimEnd();
  return text === '' ? blocks.slice(0, -1) : [...blocks.slice(0, -1), { ...end, text }];
}
