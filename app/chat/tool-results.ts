import type { CallToolResult } from '@modelcontextprotocol/client';
import type {
  DocumentBlockParam,
  ImageBlockParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { McpContentBlockSchema } from '../../shared/domain/chat';
import type { ChatToolResultBlock, McpContentBlock } from '../../shared/domain/chat';
import { isModelImageType, MAX_MODEL_IMAGE_BYTES, MODEL_IMAGE_TYPES } from '../../shared/domain/attachment-limits';

/** The part of a stored tool_result that comes from the MCP answer. */
export type McpToolOutcome = Pick<ChatToolResultBlock, 'content' | 'structuredContent' | 'isError'>;

/** What the model reads when the person said no. */
export const DENIED_TEXT = 'The user denied this tool call';
/** A call whose consent question Berth withdrew before the user answered. */
export const NOT_ASKED_TEXT = 'This tool call did not run: the user was not able to answer whether it may run';

/** What the model reads first when the person changed its arguments before the call ran. */
export function editedArgumentsText(sentInput: Record<string, unknown>): string {
  return `The user edited the arguments before this tool call ran, so the result below is for these arguments, not the ones you wrote:\n${JSON.stringify(sentInput)}`;
}

type ApiImageType = (typeof MODEL_IMAGE_TYPES)[number];

const MAX_IMAGE_BYTES = MAX_MODEL_IMAGE_BYTES;

type ToolResultContent = TextBlockParam | ImageBlockParam | DocumentBlockParam;

function isApiImageType(mimeType: string): mimeType is ApiImageType {
  return isModelImageType(mimeType);
}

/** Decoded size of base64 data, without decoding it. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The MCP answer as Berth stores it. Blocks of a type this Berth does not
 * know (a newer protocol) are kept as a text note rather than dropped, so the
 * model and the person both see that something was there.
 */
export function outcomeFromCallToolResult(result: CallToolResult): McpToolOutcome {
  const raw: unknown[] = Array.isArray(result.content) ? result.content : [];
  const content: McpContentBlock[] = raw.map((block) => {
    const parsed = McpContentBlockSchema.safeParse(block);
    if (parsed.success) return parsed.data;
    const type = typeof block === 'object' && block !== null && 'type' in block ? String(block.type) : typeof block;
    return { type: 'text', text: `[The tool returned a '${type}' content block that Berth cannot show to the model]` };
  });
  const structured = result.structuredContent;
  return {
    content,
    ...(structured !== undefined && structured !== null && typeof structured === 'object' && !Array.isArray(structured)
      ? { structuredContent: structured as Record<string, unknown> }
      : {}),
    isError: result.isError === true,
  };
}

function text(value: string): TextBlockParam {
  return { type: 'text', text: value };
}

/** Deep equality of JSON values, object key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every(
    (key) =>
      Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** A string shorter than this is carried only by a text block equal to it: a short one could appear in a text by chance. */
const MIN_CONTAINED_CHARS = 32;

/** The text blocks' texts, and what each parses to when it is JSON. */
interface TextView {
  texts: string[];
  json: unknown[];
}

function textView(blocks: readonly McpContentBlock[]): TextView {
  const texts: string[] = [];
  const json: unknown[] = [];
  for (const block of blocks) {
    const value: unknown =
      block.type === 'text'
        ? block.text
        : block.type === 'resource' && 'text' in block.resource
          ? block.resource.text
          : undefined;
    if (typeof value !== 'string') continue;
    texts.push(value);
    const trimmed = value.trimStart();
    if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) continue;
    try {
      json.push(JSON.parse(value));
    } catch {
      // Text that only looks like JSON carries what it says as text.
    }
  }
  return { texts, json };
}

/** Whether one field of structuredContent is already in the blocks: as their JSON, as a text, or as the blocks themselves. */
function carries(view: TextView, blocks: readonly McpContentBlock[], value: unknown): boolean {
  if (typeof value === 'string') {
    const wanted = value.trim();
    return view.texts.some(
      (text) => text.trim() === wanted || (wanted.length >= MIN_CONTAINED_CHARS && text.includes(wanted)),
    );
  }
  if (typeof value !== 'object' || value === null) return false;
  return view.json.some((parsed) => sameJson(parsed, value)) || sameJson(value, blocks);
}

/**
 * What of structuredContent the model still needs beside the content blocks: undefined when the
 * blocks carry all of it. MCP asks tools to mirror structuredContent in text, and servers do it
 * as the same JSON (server-memory's read_graph), as the JSON of its one field (create_entities:
 * `{entities: [...]}`), or as the text the object wraps (server-filesystem's read_text_file:
 * `{content: "<the file>"}`); sending such a copy again doubled a file and, once cut, showed the
 * model the tail of escaped JSON instead of the file's end.
 */
export function structuredRemainder(
  blocks: readonly McpContentBlock[],
  structured: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const view = textView(blocks);
  if (view.json.some((parsed) => sameJson(parsed, structured))) return undefined;
  const left = Object.entries(structured).filter(([, value]) => !carries(view, blocks, value));
  return left.length === 0 ? undefined : Object.fromEntries(left);
}

/** The structured part of a result as the model reads it: the whole object as JSON, or the fields the text lacks. */
function structuredText(blocks: readonly McpContentBlock[], structured: Record<string, unknown>): string | undefined {
  const left = structuredRemainder(blocks, structured);
  if (left === undefined) return undefined;
  if (Object.keys(left).length === Object.keys(structured).length) return JSON.stringify(structured);
  return `Structured content (its other fields are in the text above): ${JSON.stringify(left)}`;
}

function mapImage(data: string, mimeType: string, what: string): ToolResultContent {
  const bytes = base64Bytes(data);
  if (!isApiImageType(mimeType)) {
    return text(
      `[${what}: ${mimeType}, ${formatBytes(bytes)}. The model cannot view this image type (it accepts JPEG, PNG, GIF and WebP); it was shown to the user.]`,
    );
  }
  if (bytes > MAX_IMAGE_BYTES) {
    return text(
      `[${what}: ${mimeType}, ${formatBytes(bytes)}. Too large to send to the model (limit ${formatBytes(MAX_IMAGE_BYTES)}); it was shown to the user.]`,
    );
  }
  return { type: 'image', source: { type: 'base64', media_type: mimeType.toLowerCase() as ApiImageType, data } };
}

/** One MCP content block as the Messages API can take it (what it cannot take is described in text). */
export function toAnthropicContent(block: McpContentBlock): ToolResultContent {
  switch (block.type) {
    case 'text':
      return text(block.text);
    case 'image':
      return mapImage(block.data, block.mimeType, 'Image');
    case 'audio':
      // The Messages API has no audio input: say what there was instead.
      return text(
        `[Audio: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}. The model cannot hear audio; it was played to the user.]`,
      );
    case 'resource': {
      const resource = block.resource;
      const mime = resource.mimeType ?? 'unknown type';
      if ('text' in resource) return text(`Resource ${resource.uri} (${mime}):\n${resource.text}`);
      if (resource.mimeType !== undefined && isApiImageType(resource.mimeType))
        return mapImage(resource.blob, resource.mimeType, `Image resource ${resource.uri}`);
      if (resource.mimeType === 'application/pdf') {
        return {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: resource.blob },
          title: resource.uri,
        };
      }
      return text(
        `[Binary resource ${resource.uri}: ${mime}, ${formatBytes(base64Bytes(resource.blob))}. Its content cannot be shown to the model.]`,
      );
    }
    case 'resource_link': {
      const name =
        block.title !== undefined && block.title !== block.name ? `${block.title} (${block.name})` : block.name;
      const details = [block.mimeType, block.size !== undefined ? formatBytes(block.size) : undefined].filter(
        (part) => part !== undefined,
      );
      const lines = [`Resource link: ${name} <${block.uri}>${details.length > 0 ? ` [${details.join(', ')}]` : ''}`];
      if (block.description !== undefined) lines.push(block.description);
      return text(lines.join('\n'));
    }
  }
}

/** The tool_result block the Messages API receives for one stored result. */
export function toAnthropicToolResult(block: ChatToolResultBlock): ToolResultBlockParam {
  if (block.denied !== undefined) {
    const reason = block.denied.reason?.trim();
    // Nobody said no when Berth withdrew the question: the model must not take it for the user's refusal.
    const said =
      block.denied.byHost === true
        ? `${NOT_ASKED_TEXT}${reason ? `: ${reason}` : ''}.`
        : reason
          ? `${DENIED_TEXT}. Reason: ${reason}`
          : `${DENIED_TEXT}.`;
    return { type: 'tool_result', tool_use_id: block.toolUseId, is_error: true, content: [text(said)] };
  }
  const content = block.content.map(toAnthropicContent);
  const structured =
    block.structuredContent === undefined ? undefined : structuredText(block.content, block.structuredContent);
  if (structured !== undefined) content.push(text(structured));
  if (content.length === 0)
    content.push(text(block.isError ? 'The tool failed without saying why.' : 'The tool returned no content.'));
  // The model must learn what really ran: without this it would take the result for its own arguments.
  if (block.sentInput !== undefined) content.unshift(text(editedArgumentsText(block.sentInput)));
  return { type: 'tool_result', tool_use_id: block.toolUseId, content, ...(block.isError ? { is_error: true } : {}) };
}
