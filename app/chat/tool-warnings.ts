import { CHARS_PER_TOKEN } from '../../shared/domain/chat-usage';

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

const number = (n: number): string => n.toLocaleString('en-US');

/** One warning about the offered tools (too many, or too large a part of the context window), or undefined. */
export function toolLoadWarning(
  load: ToolLoad,
  limits: ToolWarningLimits = { countAt: TOOL_COUNT_WARNING_AT, shareAt: TOOL_SHARE_WARNING_AT },
): string | undefined {
  const reasons: string[] = [];
  if (load.count > limits.countAt)
    reasons.push(
      `${load.count} tools are offered to the model. Above about ${limits.countAt} it picks tools less reliably and every request costs more`,
    );
  const { contextWindow } = load;
  if (contextWindow !== undefined && contextWindow > 0 && load.tokensEstimate > contextWindow * limits.shareAt) {
    const percent = Math.round((load.tokensEstimate / contextWindow) * 100);
    reasons.push(
      `The tool definitions alone take about ${number(load.tokensEstimate)} tokens (an estimate: ${CHARS_PER_TOKEN} characters a token), ${percent}% of this model's ${number(contextWindow)}-token context, more than the ${Math.round(limits.shareAt * 100)}% Berth warns at`,
    );
  }
  if (reasons.length === 0) return undefined;
  return `${reasons.join('. ')}: switch off the servers or tools this conversation does not need, or set Tool search to Always on (Tools menu).`;
}
