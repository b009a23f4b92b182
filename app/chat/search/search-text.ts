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
