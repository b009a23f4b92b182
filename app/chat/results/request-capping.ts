import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatToolResultBlock } from '../../../shared/domain/chat';
import { CHARS_PER_TOKEN } from '../../../shared/domain/chat-usage';
import { toAnthropicToolResult } from '../tool-results';
import { capResultParts, resultCostChars, type ModelResultPart, type ResultCapRecord } from './result-cap';

// Where capping meets the request: app/chat/api-messages.ts asks a RequestCapping
// for each stored tool result as the Messages API should get it (every provider
// goes through that one conversion, OpenAI-compatible ones included), and the
// engine reads afterwards what the request saved.

/** The limit (estimated tokens) for a result of `server` that was saved without one (before Berth capped results). */
export type ResultLimitFor = (server: string) => number;

/** The parts the model would get for a stored result, uncut. */
export function modelParts(block: ChatToolResultBlock): ModelResultPart[] {
  const content = toAnthropicToolResult(block).content;
  return Array.isArray(content) ? (content as ModelResultPart[]) : [];
}

/**
 * A stored result's cap, decided when it arrives (runToolCall): undefined when it fits. Kept with
 * the result, so every later request cuts it the same way — the model's earlier view of it does not
 * change under it (nor the provider's prompt cache) when the person changes the limit.
 */
export function capRecordFor(
  block: ChatToolResultBlock,
  server: string,
  limitTokens: number,
  charsPerToken = CHARS_PER_TOKEN,
): ResultCapRecord | undefined {
  if (block.denied !== undefined) return undefined;
  return capResultParts(modelParts(block), limitTokens, { resultId: block.toolUseId, server }, charsPerToken)?.record;
}

/** Whether a stored result reaches the model cut (with its own limit, or `limitFor` its server when it has none). */
export function isCapped(block: ChatToolResultBlock, server: string, limitFor: ResultLimitFor): boolean {
  if (block.capped !== undefined) return true;
  if (block.denied !== undefined) return false;
  return resultCostChars(modelParts(block)) > limitFor(server) * CHARS_PER_TOKEN;
}

/** One request's capping: each result as the model gets it, and what was left out. */
export class RequestCapping {
  /** Estimated tokens the request did not carry because results were cut. */
  savedTokens = 0;
  /** Ids of the results cut in this request. */
  readonly cappedIds: string[] = [];

  /**
   * `skip(server)`: results not to cut (Berth's own tools, which bound their answers themselves),
   * except one that carries a server's text and was capped when it arrived (a skill's).
   */
  constructor(
    private readonly limitFor: ResultLimitFor,
    private readonly skip: (server: string) => boolean = () => false,
    /** The model's characters a token now (TokenEstimator.charsPerToken), for results not cut before. */
    private readonly charsPerToken = CHARS_PER_TOKEN,
  ) {}

  /** The tool_result for `block` (a call of `server`), cut when it is above its limit. */
  toolResult(block: ChatToolResultBlock, server: string | undefined): ToolResultBlockParam {
    const param = toAnthropicToolResult(block);
    if (block.denied !== undefined || server === undefined || !Array.isArray(param.content)) return param;
    const own = this.skip(server);
    if (own && block.capped === undefined) return param;
    const limit = block.capped?.limitTokens ?? this.limitFor(server);
    // A result cut when it arrived is cut the same way again (the model's earlier view, the prompt cache).
    const perToken = block.capped === undefined ? this.charsPerToken : (block.capped.charsPerToken ?? CHARS_PER_TOKEN);
    const capped = capResultParts(
      param.content as ModelResultPart[],
      limit,
      { resultId: block.toolUseId, ...(server === '' || own ? {} : { server }) },
      perToken,
    );
    if (capped === undefined) return param;
    this.savedTokens += capped.savedTokens;
    this.cappedIds.push(block.toolUseId);
    return { ...param, content: capped.parts };
  }
}
