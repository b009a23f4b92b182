import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ContextCut, Conversation } from '../../../shared/domain/chat';

// A conversation's cut (shared/domain/chat.ts ContextCut) applied to a request: the messages before it
// stay saved and shown, only the request leaves them out, with the summary (compact) or a note (drop)
// where they were.

/** The messages requests carry now: those after the cut (all of them when the cut's message is gone, e.g. after an edit). */
export function messagesAfterCut(conversation: Pick<Conversation, 'messages' | 'contextCut'>): ChatMessage[] {
  const cut = conversation.contextCut;
  if (cut === undefined) return conversation.messages;
  const index = conversation.messages.findIndex((message) => message.id === cut.throughMessageId);
  return index === -1 ? conversation.messages : conversation.messages.slice(index + 1);
}

/** The cut that applies to `conversation`, if its message is still there. */
export function activeCut(conversation: Pick<Conversation, 'messages' | 'contextCut'>): ContextCut | undefined {
  const cut = conversation.contextCut;
  return cut !== undefined && conversation.messages.some((message) => message.id === cut.throughMessageId)
    ? cut
    : undefined;
}

/** What the model reads in place of the messages a cut left out. */
export function cutPreface(cut: ContextCut): string {
  return cut.summary !== undefined
    ? `[Earlier in this conversation (${cut.messageCount} messages) the context window filled up, so Berth replaced those messages with this summary, written by you. It is what you remember of them:]\n\n${cut.summary}\n\n[End of the summary; the conversation goes on below.]`
    : `[The ${cut.messageCount} oldest messages of this conversation were left out to fit the context window; the user still sees them. Ask the user if you need something from them.]`;
}

/** `messages` with the cut's preface as the first block of the first user message (requests begin with one). */
export function withCutPreface(messages: MessageParam[], cut: ContextCut | undefined): MessageParam[] {
  if (cut === undefined) return messages;
  const [first, ...rest] = messages;
  const preface = { type: 'text' as const, text: cutPreface(cut) };
  if (first === undefined || first.role !== 'user') return [{ role: 'user', content: [preface] }, ...messages];
  const content = typeof first.content === 'string' ? [{ type: 'text' as const, text: first.content }] : first.content;
  return [{ role: 'user', content: [preface, ...content] }, ...rest];
}
