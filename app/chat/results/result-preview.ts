import type {
  ChatFork,
  ChatContentBlock,
  ChatEvent,
  ChatMessage,
  ChatToolResultBlock,
  Conversation,
  McpContentBlock,
} from '../../../shared/domain/chat';
import { wholeResultText } from '../../../shared/domain/result-text';

// What of a big tool result travels to the windows and into the conversation's
// file: a bounded preview with the `whole` reference; the whole is stored once
// beside the conversation (result-files.ts) and read in pages (chat.readResult).
// The model is not concerned: the engine keeps the whole result in memory and
// cuts it for the model as before (result-cap.ts).

/**
 * Above this many characters (the result's content and structured content as JSON, about) a result travels as a
 * preview. 256 KiB: the card's first screen shows at most 20,000 characters of a text and 100 blocks, so the preview
 * loses nothing it shows; and ~60 such results fit the bridge's 16 MiB per-window backlog (ws-server.ts), so even a
 * turn of many parallel calls cannot get a window dropped as too slow.
 */
export const RESULT_PREVIEW_CHARS = 256 * 1024;
/** Characters of one text the preview keeps: what the card shows before "Show all" (renderer large-result.tsx). */
export const PREVIEW_TEXT_CHARS = 20_000;
/** Blocks the preview keeps: what the card shows (renderer large-result.tsx PREVIEW_BLOCKS). */
export const PREVIEW_BLOCKS = 100;
/** What a block's envelope (type, mimeType, uri…) costs in the estimate besides its long strings. */
const BLOCK_OVERHEAD = 200;

/** About the JSON size of one block, without serializing a 20 MiB string to learn it. */
function blockChars(block: McpContentBlock): number {
  switch (block.type) {
    case 'text':
      return BLOCK_OVERHEAD + block.text.length;
    case 'image':
    case 'audio':
      return BLOCK_OVERHEAD + block.data.length;
    case 'resource':
      return (
        BLOCK_OVERHEAD +
        block.resource.uri.length +
        ('text' in block.resource && typeof block.resource.text === 'string' ? block.resource.text.length : 0) +
        ('blob' in block.resource && typeof block.resource.blob === 'string' ? block.resource.blob.length : 0)
      );
    default:
      return BLOCK_OVERHEAD + JSON.stringify(block).length;
  }
}

function resultChars(result: Pick<ChatToolResultBlock, 'content' | 'structuredContent'>): number {
  let chars = result.structuredContent === undefined ? 0 : JSON.stringify(result.structuredContent).length;
  for (const block of result.content) chars += blockChars(block);
  return chars;
}

/** Whether a result is too big to travel whole (and is not a preview already). */
export function isBigResult(result: ChatToolResultBlock): boolean {
  return result.whole === undefined && resultChars(result) > RESULT_PREVIEW_CHARS;
}

/** The first `chars` characters, never ending inside a surrogate pair. */
function head(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const code = text.charCodeAt(chars - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? chars - 1 : chars);
}

function leftOut(block: McpContentBlock): McpContentBlock {
  const what = block.type === 'resource' ? `resource ${block.resource.uri}` : block.type;
  const mime = 'mimeType' in block && typeof block.mimeType === 'string' ? ` (${block.mimeType})` : '';
  return {
    type: 'text',
    text: `[${what}${mime}: ${blockChars(block).toLocaleString('en-US')} characters, too big for the preview]`,
  };
}

/** One block as the preview keeps it: long texts shortened, what does not fit named in a line instead. */
function previewBlock(block: McpContentBlock, room: number): McpContentBlock {
  const chars = Math.max(0, Math.min(PREVIEW_TEXT_CHARS, room - BLOCK_OVERHEAD));
  if (block.type === 'text') return { ...block, text: head(block.text, chars) };
  if (block.type === 'resource' && 'text' in block.resource && typeof block.resource.text === 'string')
    return { ...block, resource: { ...block.resource, text: head(block.resource.text, chars) } };
  return blockChars(block) <= room ? block : leftOut(block);
}

/** A big result's preview with its `whole` reference; any other result as it is. */
export function previewResult(result: ChatToolResultBlock): ChatToolResultBlock {
  if (!isBigResult(result)) return result;
  let room = RESULT_PREVIEW_CHARS;
  const content: McpContentBlock[] = [];
  for (const block of result.content.slice(0, PREVIEW_BLOCKS)) {
    if (room <= BLOCK_OVERHEAD) break;
    const kept = previewBlock(block, room);
    content.push(kept);
    room -= blockChars(kept);
  }
  const { structuredContent, ...rest } = result;
  const keepStructured = structuredContent !== undefined && JSON.stringify(structuredContent).length <= room;
  return {
    ...rest,
    content,
    ...(keepStructured ? { structuredContent } : {}),
    whole: { chars: wholeResultText(result).length, blocks: result.content.length },
  };
}

/** Whether a block holds a big result: a tool result, or the one a background task brought (task_result). */
export function holdsBigResult(block: ChatContentBlock): boolean {
  if (block.type === 'tool_result') return isBigResult(block);
  return block.type === 'task_result' && isBigResult(block.result);
}

/** The block with its result as the preview (see previewResult). */
export function previewBlockResult(block: ChatContentBlock): ChatContentBlock {
  if (block.type === 'tool_result') return previewResult(block);
  if (block.type === 'task_result') return { ...block, result: previewResult(block.result) };
  return block;
}

function previewMessage(message: ChatMessage): ChatMessage {
  if (!message.content.some(holdsBigResult)) return message;
  return { ...message, content: message.content.map(previewBlockResult) };
}

/** The conversation as a window gets it: every big result as its preview. */
export function previewConversation(conversation: Conversation): Conversation {
  const messages = conversation.messages.map(previewMessage);
  // Stored versions (branches) carry previews too: a window never gets a whole big result it did not ask for.
  if (conversation.forks !== undefined) return { ...conversation, messages, forks: previewForks(conversation.forks) };
  return messages.some((message, index) => message !== conversation.messages[index])
    ? { ...conversation, messages }
    : conversation;
}

function previewForks(forks: ChatFork[]): ChatFork[] {
  return forks.map((fork) => ({
    ...fork,
    versions: fork.versions.map((version) => ({
      messages: version.messages.map(previewMessage),
      ...(version.forks !== undefined ? { forks: previewForks(version.forks) } : {}),
    })),
  }));
}

/** A chat event as the windows get it: a finished call's result and a saved message carry previews. */
export function previewChatEvent(event: ChatEvent): ChatEvent {
  if (event.type === 'tool-call-finished' && event.result !== undefined)
    return { ...event, result: previewResult(event.result) };
  if (event.type === 'message-saved' || event.type === 'task-finished')
    return { ...event, message: previewMessage(event.message) };
  return event;
}
