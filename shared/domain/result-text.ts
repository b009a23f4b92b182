import type { ChatToolResultBlock } from './chat';

/**
 * Everything textual in a tool result, as the whole-result viewer shows it: texts, embedded resources' texts (each
 * under its URI), structured content. The host pages through this same text (chat.readResult), so the pieces a
 * window fetches join into exactly what it would have built from the whole result.
 */
export function wholeResultText(result: Pick<ChatToolResultBlock, 'content' | 'structuredContent'>): string {
  const parts: string[] = [];
  for (const block of result.content) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource' && 'text' in block.resource && typeof block.resource.text === 'string')
      parts.push(`Resource ${block.resource.uri}:\n${block.resource.text}`);
  }
  if (result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.join('\n');
}
