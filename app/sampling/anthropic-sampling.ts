import type Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  ImageBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
  Tool as AnthropicTool,
  ToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import type { ContentBlock, CreateMessageRequestParams, SamplingMessageContentBlock } from '@modelcontextprotocol/client';
import type { TokenUsage } from '../../shared/domain/sampling-limits';
import type { GeneratedMessage, SamplingGenerate } from './sampling-review';

/** The request cannot be expressed for Claude (audio, an unsupported image type…); the message says what. */
export class SamplingMappingError extends Error {
  override readonly name = 'SamplingMappingError';
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

function image(data: string, mimeType: string, where: string): ImageBlockParam {
  if (!(IMAGE_TYPES as readonly string[]).includes(mimeType)) {
    throw new SamplingMappingError(`${where}: Claude accepts JPEG, PNG, GIF or WebP images, not ${mimeType}`);
  }
  return { type: 'image', source: { type: 'base64', media_type: mimeType as ImageType, data } };
}

function noAudio(mimeType: string, where: string): never {
  // Dropping the clip would let the model answer as if it had heard it.
  throw new SamplingMappingError(`${where}: Claude models do not accept audio input (${mimeType})`);
}

/** A tool result's MCP content, in the subset Claude takes inside tool_result. */
function toolResultContent(blocks: ContentBlock[], where: string): Array<TextBlockParam | ImageBlockParam> {
  return blocks.map((block, index): TextBlockParam | ImageBlockParam => {
    const at = `${where} item ${index + 1}`;
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'image':
        return image(block.data, block.mimeType, at);
      case 'audio':
        return noAudio(block.mimeType, at);
      case 'resource': {
        const { resource } = block;
        if ('text' in resource) return { type: 'text', text: `Resource ${resource.uri}:\n${resource.text}` };
        return { type: 'text', text: `[binary resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''} not shown to the model]` };
      }
      case 'resource_link':
        return { type: 'text', text: `[resource link: ${block.name} <${block.uri}>]` };
    }
  });
}

function toBlock(block: SamplingMessageContentBlock, where: string): ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return image(block.data, block.mimeType, where);
    case 'audio':
      return noAudio(block.mimeType, where);
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: block.toolUseId,
        content: toolResultContent(block.content, where),
        ...(block.isError !== undefined ? { is_error: block.isError } : {}),
      };
  }
}

function toolChoice(mode: 'auto' | 'required' | 'none' | undefined): ToolChoice {
  if (mode === 'required') return { type: 'any' };
  if (mode === 'none') return { type: 'none' };
  return { type: 'auto' };
}

/**
 * MCP `sampling/createMessage` params → Anthropic Messages API body.
 * `includeContext` is not acted on (Berth adds no context from other
 * servers); `metadata` is provider-specific in MCP and is not forwarded.
 */
export function toAnthropicRequest(params: CreateMessageRequestParams, model: string): MessageCreateParamsNonStreaming {
  const messages: MessageParam[] = params.messages.map((message, index) => {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const content = blocks.map((block, at) => toBlock(block, `message ${index + 1}${blocks.length > 1 ? ` block ${at + 1}` : ''}`));
    return message.role === 'user' ? { role: 'user', content } : { role: 'assistant', content };
  });
  const tools: AnthropicTool[] | undefined = params.tools?.map((tool) => ({
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    // MCP guarantees `type: 'object'`; the rest is JSON Schema, which is what Claude takes.
    input_schema: tool.inputSchema as AnthropicTool.InputSchema,
  }));
  return {
    model,
    max_tokens: params.maxTokens,
    messages,
    ...(params.systemPrompt !== undefined && params.systemPrompt !== '' ? { system: params.systemPrompt } : {}),
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.stopSequences !== undefined && params.stopSequences.length > 0 ? { stop_sequences: params.stopSequences } : {}),
    ...(tools !== undefined ? { tools } : {}),
    ...(tools !== undefined || params.toolChoice !== undefined ? { tool_choice: toolChoice(params.toolChoice?.mode) } : {}),
  };
}

const STOP_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'endTurn',
  max_tokens: 'maxTokens',
  stop_sequence: 'stopSequence',
  tool_use: 'toolUse',
};

/**
 * The tokens the API billed: cache writes and reads are input too. Undefined
 * when the answer carries no usable report (a proxy may drop it).
 */
function usageOf(message: Message): TokenUsage | undefined {
  const usage = message.usage as Partial<Message['usage']> | undefined;
  const count = (value: number | null | undefined): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);
  if (usage === undefined || typeof usage.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') return undefined;
  return {
    inputTokens: count(usage.input_tokens) + count(usage.cache_creation_input_tokens) + count(usage.cache_read_input_tokens),
    outputTokens: count(usage.output_tokens),
  };
}

/**
 * An Anthropic message → MCP sampling content. Without tools the answer is
 * one text block (text blocks joined); with tools, text and tool_use blocks in
 * order. Thinking and server-tool blocks are not part of MCP sampling and are left out.
 */
export function fromAnthropicMessage(message: Message, withTools: boolean): GeneratedMessage {
  const blocks: SamplingMessageContentBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') blocks.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use' && withTools) {
      const input = block.input !== null && typeof block.input === 'object' && !Array.isArray(block.input) ? (block.input as Record<string, unknown>) : { value: block.input };
      blocks.push({ type: 'tool_use', id: block.id, name: block.name, input });
    }
  }
  const stopReason = message.stop_reason === null ? undefined : (STOP_REASONS[message.stop_reason] ?? message.stop_reason);
  const usage = usageOf(message);
  const extra = { ...(stopReason !== undefined ? { stopReason } : {}), ...(usage !== undefined ? { usage } : {}) };
  if (withTools) return { content: blocks.length > 0 ? blocks : { type: 'text', text: '' }, ...extra };
  const text = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
  return { content: { type: 'text', text }, ...extra };
}

/** A `generate` for {@linkcode SamplingReview} backed by the Anthropic Messages API. */
export function createAnthropicGenerate(client: Pick<Anthropic, 'messages'>): SamplingGenerate {
  return async (request, model, signal) => {
    const body = toAnthropicRequest(request, model);
    const message = await client.messages.create(body, { signal });
    return fromAnthropicMessage(message, request.tools !== undefined || request.toolChoice !== undefined);
  };
}
