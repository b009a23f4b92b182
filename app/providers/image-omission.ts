import { chatNotice } from '../../shared/domain/chat-notice';
import type { Worded } from '../../shared/domain/host-wording';
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';

// A model that takes no images (marked so in Settings, guessed from its name,
// or refusing them) is not sent any: each image in the request — a person's
// attachment, an image a tool returned — becomes a short note in its place, so
// the model knows something was there and can say so, and the person is told
// once per turn. The conversation keeps the images; only the request changes.

/** What the model reads where an image was. */
export function imageOmittedNote(modelName: string): string {
  return `[image omitted: ${modelName} does not take images]`;
}

/** What the person reads above the reply. */
export function noImagesNotice(modelName: string, count: number): Worded {
  return chatNotice('chat-notice.no-images', { model: modelName, count });
}

type ToolResultContent = Exclude<ToolResultBlockParam['content'], string | undefined>;

function blocksWithout(
  blocks: readonly ContentBlockParam[],
  note: string,
  counter: { omitted: number },
): ContentBlockParam[] {
  return blocks.map((block): ContentBlockParam => {
    if (block.type === 'image') {
      counter.omitted += 1;
      return { type: 'text', text: note };
    }
    if (block.type === 'tool_result' && Array.isArray(block.content)) {
      const content = block.content.map((part): ToolResultContent[number] => {
        if (part.type !== 'image') return part;
        counter.omitted += 1;
        return { type: 'text', text: note };
      });
      return { ...block, content };
    }
    return block;
  });
}

/** `messages` with every image (in user messages and tool results) replaced by the note; `omitted` says how many. */
export function withoutImages(
  messages: readonly MessageParam[],
  modelName: string,
): { messages: MessageParam[]; omitted: number } {
  const counter = { omitted: 0 };
  const note = imageOmittedNote(modelName);
  // Only the person's side carries images (attachments, tool results).
  const out = messages.map((message): MessageParam =>
    message.role !== 'user' || typeof message.content === 'string'
      ? message
      : { ...message, content: blocksWithout(message.content, note, counter) },
  );
  return { messages: counter.omitted === 0 ? [...messages] : out, omitted: counter.omitted };
}

/** How many images a request carries (user messages and tool results). */
export function countImages(messages: readonly MessageParam[]): number {
  return withoutImages(messages, '').omitted;
}
