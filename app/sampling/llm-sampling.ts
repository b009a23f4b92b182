import type { ReasoningRequest } from '../../shared/domain/reasoning';
import { promptTokens } from '../../shared/domain/chat-usage';
import type { TokenEstimator } from '../providers/token-estimate';
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool as LlmTool,
  ToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  ContentBlock,
  CreateMessageRequestParams,
  SamplingMessageContentBlock,
} from '@modelcontextprotocol/client';
import { splitModelKey } from '../../shared/domain/model-key';
import type { TokenUsage } from '../../shared/domain/sampling-limits';
import type { LlmProvider, LlmResponse, LlmStreamRequest, LlmUsage } from '../providers/llm-provider';
import type { GeneratedMessage, SamplingGenerate } from './sampling-review';

// Sampling goes through LlmProvider, the seam chat uses: MCP's
// `sampling/createMessage` params become an LlmStreamRequest (Anthropic-shaped
// messages and tools, which every provider client translates for its API),
// and the LlmResponse becomes MCP sampling content.

/** The request cannot be expressed for a model (audio, an unsupported image type…); the message says what. */
export class SamplingMappingError extends Error {
  override readonly name = 'SamplingMappingError';
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

function image(data: string, mimeType: string, where: string): ImageBlockParam {
  if (!(IMAGE_TYPES as readonly string[]).includes(mimeType)) {
    throw new SamplingMappingError(`${where}: models take JPEG, PNG, GIF or WebP images, not ${mimeType}`);
  }
  return { type: 'image', source: { type: 'base64', media_type: mimeType as ImageType, data } };
}

function noAudio(mimeType: string, where: string): never {
  // Dropping the clip would let the model answer as if it had heard it. The
  // provider seam carries text, images and tool blocks only.
  throw new SamplingMappingError(`${where}: Berth cannot send audio to a model (${mimeType}); only text and images`);
}

/** A tool result's MCP content, in the subset a tool_result block carries. */
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
        return {
          type: 'text',
          text: `[binary resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''} not shown to the model]`,
        };
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
 * MCP `sampling/createMessage` params → the provider request for `model` (a
 * model key). `includeContext` is not acted on (Berth adds no context from
 * other servers); `metadata` is provider-specific in MCP and is not forwarded.
 */
export function toLlmRequest(params: CreateMessageRequestParams, model: string): Omit<LlmStreamRequest, 'signal'> {
  const messages: MessageParam[] = params.messages.map((message, index) => {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const content = blocks.map((block, at) =>
      toBlock(block, `message ${index + 1}${blocks.length > 1 ? ` block ${at + 1}` : ''}`),
    );
    return message.role === 'user' ? { role: 'user', content } : { role: 'assistant', content };
  });
  const repeated = params.tools?.find((tool, index) => params.tools?.findIndex((t) => t.name === tool.name) !== index);
  // The server names these tools and reads the model's calls by name: Berth cannot rename one, so it says why instead
  // of sending a request every model API refuses ("Tool names must be unique").
  if (repeated !== undefined)
    throw new SamplingMappingError(
      `the request offers two tools named '${repeated.name}': tool names must be unique (the model APIs refuse repeated names), so the server has to rename one`,
    );
  const tools: LlmTool[] | undefined = params.tools?.map((tool) => ({
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    // MCP guarantees `type: 'object'`; the rest is JSON Schema, which is what the seam takes.
    input_schema: tool.inputSchema as LlmTool.InputSchema,
  }));
  return {
    model,
    maxTokens: params.maxTokens,
    messages,
    ...(params.systemPrompt !== undefined && params.systemPrompt !== '' ? { system: params.systemPrompt } : {}),
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.stopSequences !== undefined && params.stopSequences.length > 0
      ? { stopSequences: params.stopSequences }
      : {}),
    ...(tools !== undefined ? { tools } : {}),
    ...(tools !== undefined || params.toolChoice !== undefined
      ? { toolChoice: toolChoice(params.toolChoice?.mode) }
      : {}),
  };
}

/** Stop reasons in MCP words; OpenAI's finish reasons too, should a provider client pass them through. */
const STOP_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'endTurn',
  stop: 'endTurn',
  max_tokens: 'maxTokens',
  length: 'maxTokens',
  stop_sequence: 'stopSequence',
  tool_use: 'toolUse',
  tool_calls: 'toolUse',
};

/**
 * The tokens the model billed: cache writes and reads are input too (LlmUsage's `inputTokens`
 * leaves them out). Undefined when the answer carries no usable report (a proxy may drop it, and a
 * provider then reports 0 and 0: no real call reads no input).
 */
function usageOf(usage: LlmUsage | undefined, reasoned: boolean): TokenUsage | undefined {
  const count = (value: number | undefined): number =>
    typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
  if (usage === undefined) return undefined;
  const input = count(usage.inputTokens) + count(usage.cacheReadTokens) + count(usage.cacheWriteTokens);
  const output = count(usage.outputTokens);
  const reasoning = reasoned ? Math.min(output, count(usage.reasoningTokens)) : 0;
  if (input === 0 && output === 0) return undefined;
  return { inputTokens: input, outputTokens: output, ...(reasoning > 0 ? { reasoningTokens: reasoning } : {}) };
}

/** The reply's reasoning as the review shows it (its blocks joined), or undefined when it has none. */
function reasoningOf(response: LlmResponse, durationMs: number | undefined): GeneratedMessage['reasoning'] {
  const blocks = response.content.flatMap((block) => (block.type === 'thinking' ? [block] : []));
  if (blocks.length === 0) return undefined;
  const text = blocks
    .map((block) => block.thinking)
    .filter((thinking) => thinking !== '')
    .join('\n\n');
  return {
    text,
    ...(blocks.some((block) => block.redacted !== undefined) ? { redacted: true } : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
  };
}

/**
 * A provider's answer → MCP sampling content. Without tools the answer is one
 * text block (text blocks joined); with tools, text and tool_use blocks in
 * order. `model` is the name the server is told: the model the provider says
 * answered, else the provider's own id for the key asked for (`gpt-4o`, not
 * Berth's `openai:gpt-4o`), since servers know models by their names.
 */
export function fromLlmResponse(
  response: LlmResponse,
  withTools: boolean,
  modelKey: string,
  /** The person let this request reason: its thinking (and reasoning tokens) go to the review; otherwise nothing of it. */
  reasoned: { durationMs?: number | undefined } | false = false,
): GeneratedMessage {
  const blocks: SamplingMessageContentBlock[] = [];
  for (const block of response.content) {
    if (block.type === 'text') blocks.push({ type: 'text', text: block.text });
    // The model's reasoning is not part of what a server asked for.
    else if (withTools && block.type === 'tool_use')
      blocks.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
  }
  const stopReason =
    response.stopReason === null ? undefined : (STOP_REASONS[response.stopReason] ?? response.stopReason);
  const usage = usageOf(response.usage, reasoned !== false);
  const reasoning = reasoned === false ? undefined : reasoningOf(response, reasoned.durationMs);
  const model =
    response.model !== undefined && response.model.trim() !== '' ? response.model : splitModelKey(modelKey).model;
  const extra = {
    model,
    ...(stopReason !== undefined ? { stopReason } : {}),
    ...(usage !== undefined ? { usage } : {}),
    ...(reasoning !== undefined ? { reasoning } : {}),
  };
  if (withTools) return { content: blocks.length > 0 ? blocks : { type: 'text', text: '' }, ...extra };
  const text = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
  return { content: { type: 'text', text }, ...extra };
}

/**
 * What of a sampling request the provider's cache should keep. A server's request is most often a one-off (summarise
 * this, classify that): nothing reads it again, and marking it would pay the cache write (1.25× the input price at
 * Anthropic) for nothing, so it is sent unmarked. A request with tools, or one that answers tool calls, is a step of
 * the server's own tool loop (SEP-1577): its next step re-sends these messages with more after them, so the prefix is
 * marked as the chat's is and read back at a tenth of the price.
 */
export function samplingPromptCache(params: CreateMessageRequestParams): 'conversation' | 'none' {
  const answersTools = params.messages.some((message) =>
    (Array.isArray(message.content) ? message.content : [message.content]).some(
      (block) => block.type === 'tool_result',
    ),
  );
  const offersTools = params.tools !== undefined && params.tools.length > 0;
  return offersTools || answersTools ? 'conversation' : 'none';
}

/** What a sampling request is checked against before it is sent: the model's window and Berth's corrected estimate. */
export interface SamplingFit {
  tokens: TokenEstimator;
  contextWindow: (model: string) => number | undefined;
  modelName?: (model: string) => string;
}

const n = (value: number): string => value.toLocaleString('en-US');

/** Why a sampling request is not sent: it cannot fit, and Berth does not rewrite a server's messages. */
export function samplingTooLong(name: string, prompt: number, maxTokens: number, window: number): string {
  return `Berth did not send this sampling request: it would not fit ${name}'s context window (about ${n(prompt)} tokens of messages, system prompt and tools, plus ${n(maxTokens)} for the answer, of ${n(window)}). Send shorter messages or ask for fewer maxTokens.`;
}

/**
 * A `generate` for {@linkcode SamplingReview} backed by an LlmProvider that
 * takes model keys (the routing provider; today Anthropic's, whose keys are its ids).
 * With `fit`, a request that would not fit the model's window is refused in plain words
 * instead of being sent to fail, and each answer's usage corrects the estimate.
 */
export function createLlmGenerate(
  provider: LlmProvider,
  fit?: SamplingFit,
  reasoning: (model: string) => ReasoningRequest | undefined = () => undefined,
): SamplingGenerate {
  return async (request, model, signal) => {
    // Off unless the person allowed sampling to reason (Settings): a server's request must not spend thinking tokens.
    const asked = reasoning(model);
    // How long the model thought, as the chat measures it: from its first thinking to the first thing else.
    let thoughtAt: number | undefined;
    let answeredAt: number | undefined;
    const other = () => {
      if (thoughtAt !== undefined) answeredAt ??= Date.now();
    };
    const sent: LlmStreamRequest = {
      ...toLlmRequest(request, model),
      ...(asked !== undefined
        ? {
            reasoning: asked,
            onThinking: () => {
              thoughtAt ??= Date.now();
            },
            onText: other,
            onToolUseStart: other,
          }
        : {}),
      promptCache: samplingPromptCache(request),
      signal,
    };
    const window = fit?.contextWindow(model);
    const name = fit?.modelName?.(model) ?? model;
    const prompt = fit?.tokens.request(model, sent) ?? 0;
    if (window !== undefined && prompt + sent.maxTokens > window)
      throw new Error(samplingTooLong(name, prompt, sent.maxTokens, window));
    const response = await provider.stream(sent);
    fit?.tokens.observe(model, sent, promptTokens(response.usage));
    const durationMs = thoughtAt === undefined ? undefined : (answeredAt ?? Date.now()) - thoughtAt;
    return fromLlmResponse(
      response,
      request.tools !== undefined || request.toolChoice !== undefined,
      model,
      asked === undefined ? false : { durationMs },
    );
  };
}
