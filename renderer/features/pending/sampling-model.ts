import type { SamplingBlock, SamplingMessageView } from '../../../shared/domain/pending';
import { canonicalJson } from './pending-model';

/** A message's content as a list, whichever form the server used. */
export function blocksOf(content: SamplingBlock | SamplingBlock[]): SamplingBlock[] {
  return Array.isArray(content) ? content : [content];
}

/** Messages with list content, so the dialog can edit block `i` of message `m` in place. */
export function editableMessages(messages: readonly SamplingMessageView[]): SamplingMessageView[] {
  return messages.map((message) => ({ ...message, content: blocksOf(message.content) }));
}

/** A copy of `messages` with the text of one block replaced. */
export function withBlockText(messages: readonly SamplingMessageView[], messageIndex: number, blockIndex: number, text: string): SamplingMessageView[] {
  return messages.map((message, m) => {
    if (m !== messageIndex) return message;
    const blocks = blocksOf(message.content).map((block, b) => (b === blockIndex && block.type === 'text' ? { ...block, text } : block));
    return { ...message, content: blocks };
  });
}

/** A copy of `content` with the text of one block replaced (the answer stage). */
export function withAnswerText(content: readonly SamplingBlock[], blockIndex: number, text: string): SamplingBlock[] {
  return content.map((block, b) => (b === blockIndex && block.type === 'text' ? { ...block, text } : block));
}

/** Whether the person changed anything, ignoring list-vs-single content form. */
export function messagesEdited(original: readonly SamplingMessageView[], edited: readonly SamplingMessageView[]): boolean {
  return canonicalJson(editableMessages(original)) !== canonicalJson(editableMessages(edited));
}

export function contentEdited(original: SamplingBlock | SamplingBlock[], edited: readonly SamplingBlock[]): boolean {
  return canonicalJson(blocksOf(original)) !== canonicalJson(edited);
}

/** `0.8` → `80%`: model-preference priorities are 0…1. */
export function formatPriority(value: number | undefined): string | undefined {
  return value === undefined ? undefined : `${Math.round(value * 100)}%`;
}

/** Readable `includeContext` values. */
export const INCLUDE_CONTEXT_LABELS: Record<'none' | 'thisServer' | 'allServers', string> = {
  none: 'None',
  thisServer: 'This server’s context',
  allServers: 'Every server’s context',
};
