import type { ChatMessage } from '../../../shared/domain/chat';

/** Whose words a searchable text is: the person's, the model's, or what a tool returned. */
export type SearchTextRole = 'user' | 'assistant' | 'tool';

/** One message's words as search sees them. */
export interface SearchText {
  messageId: string;
  role: SearchTextRole;
  text: string;
}

/** The person's and the model's words indexed per message: more than any message the person types. */
export const WORDS_CAP = 20_000;
/** What a message's tool results give search: their beginning. A 20 MB result must not make the index 20 MB bigger. */
export const TOOL_TEXT_CAP = 4_000;

function capped(parts: readonly string[], cap: number): string {
  let text = '';
  for (const part of parts) {
    text = text === '' ? part : `${text}\n${part}`;
    if (text.length >= cap) return text.slice(0, cap);
  }
  return text;
}

/** The text parts of tool results (and of background tasks' results) in a message. */
function toolTexts(message: ChatMessage): string[] {
  const texts: string[] = [];
  for (const block of message.content) {
    const result = block.type === 'tool_result' ? block : block.type === 'task_result' ? block.result : undefined;
    if (result === undefined) continue;
    for (const part of result.content) if (part.type === 'text') texts.push(part.text);
  }
  return texts;
}

/** What search reads of a conversation's messages, in order: each message's words, then its tools' text. */
export function searchTexts(messages: readonly ChatMessage[]): SearchText[] {
  const texts: SearchText[] = [];
  for (const message of messages) {
    const words: string[] = [];
    for (const block of message.content) if (block.type === 'text') words.push(block.text);
    const own = capped(words, WORDS_CAP);
    if (own !== '') texts.push({ messageId: message.id, role: message.role, text: own });
    const tools = capped(toolTexts(message), TOOL_TEXT_CAP);
    if (tools !== '') texts.push({ messageId: message.id, role: 'tool', text: tools });
  }
  return texts;
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;
const textsOf = (blocks: unknown): string[] =>
  Array.isArray(blocks)
    ? blocks
        .filter(isObject)
        .flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : []))
    : [];

/**
 * The same texts as `searchTexts`, read straight from a conversation file's JSON (or a conversation in memory): only the
 * fields search shows are looked at, so a snippet costs a JSON parse, not the whole schema's check (up to 50 a query).
 * What does not have the expected shape is skipped; the file's own check happens where it is loaded to be used.
 */
export function looseSearchTexts(conversation: unknown): SearchText[] {
  if (!isObject(conversation) || !Array.isArray(conversation.messages)) return [];
  const texts: SearchText[] = [];
  for (const message of conversation.messages) {
    if (!isObject(message) || typeof message.id !== 'string' || !Array.isArray(message.content)) continue;
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const own = capped(textsOf(message.content), WORDS_CAP);
    if (own !== '') texts.push({ messageId: message.id, role: message.role, text: own });
    const tools: string[] = [];
    for (const block of message.content) {
      if (!isObject(block)) continue;
      const result = block.type === 'tool_result' ? block : block.type === 'task_result' ? block.result : undefined;
      if (isObject(result)) tools.push(...textsOf(result.content));
    }
    const toolText = capped(tools, TOOL_TEXT_CAP);
    if (toolText !== '') texts.push({ messageId: message.id, role: 'tool', text: toolText });
  }
  return texts;
}
