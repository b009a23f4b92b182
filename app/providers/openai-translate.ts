import type {
  ContentBlockParam,
  DocumentBlockParam,
  ImageBlockParam,
  MessageParam,
  Tool,
  ToolChoice,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  ChatCompletionContentPart,
  ChatCompletionContentPartText,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { LlmError } from './llm-provider';
import { OPENAI_TOOL_IDS, toolCallIdsFor } from './tool-call-ids';
import type { ChatCompletionsTarget } from './openai-target';
import { portableSchema, strictSchema } from './openai-tool-schema';

// The chat engine and sampling speak Anthropic's Messages shapes; an
// OpenAI-compatible server takes Chat Completions. This turns one request into
// the other. What differs:
// - tool results are `tool` messages of their own, answered right after the
//   assistant message that asked, and hold text only: an image a tool returned
//   follows in a user message, labelled with its call;
// - there is no is_error flag: a failed call's text says so first;
// - the system prompt is the first message;
// - tool call ids another provider made are rewritten where this target would
//   refuse them (tool-call-ids.ts), and tool schemas made portable, or strict
//   for a strict target (openai-tool-schema.ts).

/** What a failed tool call's result starts with (Chat Completions has no is_error). */
export const TOOL_ERROR_PREFIX = 'The tool call failed:';

/** The Chat Completions side of one request. */
export interface ChatCompletionsInput {
  messages: ChatCompletionMessageParam[];
  /** Absent when the request offers no tools (some servers refuse an empty list). */
  tools?: ChatCompletionFunctionTool[];
  /** Images the messages carry (the client refuses them for a model that takes none). */
  imageCount: number;
  settings: ChatCompletionsSettings;
}

type UserPart = ChatCompletionContentPart;
/** A block of a user message or of a tool result's content. */
type UserBlock = ContentBlockParam | Exclude<ToolResultBlockParam['content'], string | undefined>[number];

function unsupportedBlock(type: string, where: string): LlmError {
  return new LlmError('bad-request', `Berth cannot send a '${type}' block ${where} to an OpenAI-compatible provider.`);
}

function imagePart(block: ImageBlockParam): UserPart {
  const source = block.source;
  if (source.type === 'base64')
    return { type: 'image_url', image_url: { url: `data:${source.media_type};base64,${source.data}` } };
  if (source.type === 'url') return { type: 'image_url', image_url: { url: source.url } };
  throw new LlmError(
    'bad-request',
    'An image stored as an Anthropic file cannot be sent to an OpenAI-compatible provider.',
  );
}

function documentText(block: DocumentBlockParam): string {
  const title = block.title !== undefined && block.title !== null && block.title !== '' ? ` "${block.title}"` : '';
  const source = block.source;
  if (source.type === 'text') return `Document${title}:\n${source.data}`;
  if (source.type === 'content') {
    const content =
      typeof source.content === 'string'
        ? source.content
        : source.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    return `Document${title}:\n${content}`;
  }
  const kind = source.type === 'url' ? `at ${source.url}` : 'attached';
  // Only OpenAI's own API reads PDFs in Chat Completions; saying so beats dropping it silently.
  return `[A PDF document${title} ${kind} was given here; this provider cannot pass PDFs to the model.]`;
}

/** A user message's or tool result's blocks as user content parts. */
function userParts(blocks: readonly UserBlock[], where: string): UserPart[] {
  const parts: UserPart[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') parts.push(imagePart(block));
    else if (block.type === 'document') parts.push({ type: 'text', text: documentText(block) });
    else throw unsupportedBlock(block.type, where);
  }
  return parts;
}

/** Plain text when there is no image (what every server takes), parts otherwise. */
function userContent(parts: readonly UserPart[]): string | UserPart[] {
  if (parts.every((part) => part.type === 'text'))
    return parts.map((part) => (part as ChatCompletionContentPartText).text).join('\n\n');
  return [...parts];
}

function countImages(parts: readonly UserPart[]): number {
  return parts.filter((part) => part.type === 'image_url').length;
}

function toolResultText(result: ToolResultBlockParam, texts: readonly string[], imageCount: number): string {
  const lines = [...texts];
  if (imageCount > 0)
    lines.push(
      imageCount === 1
        ? '[The image this tool returned follows in the next user message.]'
        : `[The ${imageCount} images this tool returned follow in the next user message.]`,
    );
  let text = lines.join('\n\n');
  if (text === '')
    text = result.is_error === true ? 'The tool failed without saying why.' : 'The tool returned no content.';
  return result.is_error === true ? `${TOOL_ERROR_PREFIX}\n${text}` : text;
}

/** A user turn: its tool results as `tool` messages first, then what else it holds (and images the tools returned). */
function fromUser(content: MessageParam['content'], into: ChatCompletionMessageParam[]): number {
  if (typeof content === 'string') {
    into.push({ role: 'user', content });
    return 0;
  }
  const rest: UserPart[] = [];
  const toolImages: UserPart[] = [];
  for (const block of content) {
    if (block.type !== 'tool_result') {
      rest.push(...userParts([block], 'in a user message'));
      continue;
    }
    const inner =
      typeof block.content === 'string' ? [{ type: 'text' as const, text: block.content }] : (block.content ?? []);
    const parts = userParts(inner, 'in a tool result');
    const texts = parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    const images = parts.filter((part) => part.type === 'image_url');
    into.push({ role: 'tool', tool_call_id: block.tool_use_id, content: toolResultText(block, texts, images.length) });
    if (images.length > 0)
      toolImages.push(
        { type: 'text', text: `Image${images.length === 1 ? '' : 's'} returned by tool call ${block.tool_use_id}:` },
        ...images,
      );
  }
  const parts = [...toolImages, ...rest];
  if (parts.length > 0) into.push({ role: 'user', content: userContent(parts) });
  return countImages(parts);
}

function fromAssistant(content: MessageParam['content']): ChatCompletionMessageParam {
  if (typeof content === 'string') return { role: 'assistant', content };
  const texts: string[] = [];
  const calls: ChatCompletionMessageFunctionToolCall[] = [];
  for (const block of content) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'tool_use')
      calls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    // Reasoning of another provider's model means nothing to this one.
    else if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    else throw unsupportedBlock(block.type, 'in an assistant message');
  }
  const text = texts.join('\n\n');
  if (calls.length === 0) return { role: 'assistant', content: text };
  // With tool calls and no text, content is null (the API's own form), not an empty string.
  return { role: 'assistant', content: text === '' ? null : text, tool_calls: calls };
}

/** Anthropic-shaped system prompt and messages as Chat Completions messages. */
export function toChatCompletionsMessages(
  system: string | undefined,
  messages: readonly MessageParam[],
): { messages: ChatCompletionMessageParam[]; imageCount: number } {
  const out: ChatCompletionMessageParam[] = [];
  let imageCount = 0;
  if (system !== undefined && system.trim() !== '') out.push({ role: 'system', content: system });
  for (const message of messages) {
    if (message.role === 'assistant') out.push(fromAssistant(message.content));
    else imageCount += fromUser(message.content, out);
  }
  return { messages: out, imageCount };
}

/** Anthropic tool definitions as Chat Completions function tools (the input schema, made portable or strict, is the parameters schema). */
export function toChatCompletionsTools(
  tools: readonly Tool[],
  options: { strictSchemas?: boolean } = {},
): ChatCompletionFunctionTool[] {
  return tools.map((tool) => {
    const schema = tool.input_schema as Record<string, unknown>;
    const parameters = options.strictSchemas === true ? strictSchema(schema) : portableSchema(schema);
    return {
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description !== undefined && tool.description !== '' ? { description: tool.description } : {}),
        ...(parameters !== undefined ? { parameters } : {}),
      },
    };
  });
}

/** Anthropic's tool_choice in Chat Completions' words (`any` is `required`). */
export function toChatCompletionsToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  switch (choice.type) {
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default:
      return 'auto';
  }
}

/** The request's sampling settings as Chat Completions fields (what is absent keeps the server's default). */
export interface ChatCompletionsSettings {
  tool_choice?: ChatCompletionToolChoiceOption;
  parallel_tool_calls?: boolean;
  temperature?: number;
  stop?: string[];
}

interface TranslatableRequest {
  system?: string;
  messages: readonly MessageParam[];
  tools?: readonly Tool[];
  toolChoice?: ToolChoice;
  temperature?: number;
  stopSequences?: string[];
}

function settingsOf(request: TranslatableRequest, hasTools: boolean): ChatCompletionsSettings {
  const settings: ChatCompletionsSettings = {};
  // Servers refuse tool_choice (and parallel_tool_calls) without tools, as Anthropic's provider leaves it out then too.
  if (hasTools && request.toolChoice !== undefined) {
    settings.tool_choice = toChatCompletionsToolChoice(request.toolChoice);
    if (request.toolChoice.type !== 'none' && request.toolChoice.disable_parallel_tool_use === true)
      settings.parallel_tool_calls = false;
  }
  if (request.temperature !== undefined) settings.temperature = request.temperature;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0)
    settings.stop = [...request.stopSequences];
  return settings;
}

/** The whole request body's translated parts, in the forms its target takes (default: OpenAI's). */
export function toChatCompletionsInput(
  request: TranslatableRequest,
  target: ChatCompletionsTarget = { toolIds: OPENAI_TOOL_IDS, strictSchemas: false },
): ChatCompletionsInput {
  const { messages, imageCount } = toChatCompletionsMessages(
    request.system,
    toolCallIdsFor(request.messages, target.toolIds),
  );
  const tools =
    request.tools !== undefined && request.tools.length > 0
      ? toChatCompletionsTools(request.tools, { strictSchemas: target.strictSchemas })
      : undefined;
  return {
    messages,
    imageCount,
    settings: settingsOf(request, tools !== undefined),
    ...(tools !== undefined ? { tools } : {}),
  };
}
