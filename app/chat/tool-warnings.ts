import { CHARS_PER_TOKEN } from '../../shared/domain/chat-usage';
import { chatNotice } from '../../shared/domain/chat-notice';
import type { Worded } from '../../shared/domain/host-wording';

/** Above this many offered tools a model picks among them less reliably (the default of ChatEngineOptions.toolCountWarningAt). */
export const TOOL_COUNT_WARNING_AT = 40;

/**
 * The share of the model's context window the tool definitions alone may take before Berth warns:
 * past a quarter, long conversations and large tool results run out of room (and every request pays
 * for the definitions again).
 */
export const TOOL_SHARE_WARNING_AT = 0.25;

export interface ToolLoad {
  /** How many tools are offered. */
  count: number;
  /** Berth's estimate of the tokens their definitions take (estimateTokens of the serialized list). */
  tokensEstimate: number;
  /** The model's context window in tokens; undefined when Berth does not know it (then only the count can warn). */
  contextWindow: number | undefined;
}

export interface ToolWarningLimits {
  countAt: number;
  shareAt: number;
}

const DEFAULT_LIMITS: ToolWarningLimits = { countAt: TOOL_COUNT_WARNING_AT, shareAt: TOOL_SHARE_WARNING_AT };

/** One warning about the offered tools (too many, or too large a part of the context window) with its code, or undefined. */
export function toolLoadWording(load: ToolLoad, limits: ToolWarningLimits = DEFAULT_LIMITS): Worded | undefined {
  const many = load.count > limits.countAt ? { count: load.count, countAt: limits.countAt } : undefined;
  const { contextWindow } = load;
  const large =
    contextWindow !== undefined && contextWindow > 0 && load.tokensEstimate > contextWindow * limits.shareAt
      ? {
          tokens: load.tokensEstimate,
          charsPerToken: CHARS_PER_TOKEN,
          percent: Math.round((load.tokensEstimate / contextWindow) * 100),
          window: contextWindow,
          sharePercent: Math.round(limits.shareAt * 100),
        }
      : undefined;
  if (many !== undefined && large !== undefined)
    return chatNotice('chat-notice.tools-too-many-and-large', { ...many, ...large });
  if (many !== undefined) return chatNotice('chat-notice.too-many-tools', many);
  if (large !== undefined) return chatNotice('chat-notice.tools-too-large', large);
  return undefined;
}

/** The warning's English (what the tests and logs read). */
export function toolLoadWarning(load: ToolLoad, limits: ToolWarningLimits = DEFAULT_LIMITS): string | undefined {
  return toolLoadWording(load, limits)?.text;
}
