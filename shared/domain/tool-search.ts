// Tool search: when a conversation's enabled tools pass a threshold, the model is offered
// search_tools and load_tools (and the tools it loaded) instead of every definition.
// Without zod: the chat's first screen and the tools popover read these.

/** Per conversation: `auto` follows the global threshold; `on` always searches; `off` always sends every enabled tool. */
export const TOOL_SEARCH_MODES = ['auto', 'on', 'off'] as const;
export type ToolSearchMode = (typeof TOOL_SEARCH_MODES)[number];

/** When `auto` turns tool search on (settings.json `toolSearch`). */
export interface ToolSearchThresholds {
  /** More enabled tools than this. */
  countAbove: number;
  /** Or their definitions take more than this share of the model's context window (0–1). */
  shareAbove: number;
}

/**
 * 128: several providers refuse more tools than that in one request, and VS Code groups tools
 * above it too. 10%: a tenth of the context spent on definitions, on every request, before the
 * conversation says anything, is already a lot; past it the rest of the context pays.
 */
export const DEFAULT_TOOL_SEARCH_THRESHOLDS: ToolSearchThresholds = { countAbove: 128, shareAbove: 0.1 };

/**
 * What loaded tools may take, so a turn's definitions stay within a fixed budget however many tools
 * are enabled: at most this many, and at most this many estimated tokens of definitions. Loading
 * past either drops the tools loaded longest ago (the model is told which).
 */
export const MAX_LOADED_TOOLS = 20;
export const MAX_LOADED_TOOL_TOKENS = 10_000;

/**
 * The fixed budget of one request's tool definitions while tool search is on, however many tools
 * are enabled: the loaded tools' cap plus room for search_tools and load_tools (≈ 500 tokens) and
 * for one loaded tool larger than the cap on its own (a single tool is never refused).
 */
export const TOOL_SEARCH_TOKEN_BUDGET = MAX_LOADED_TOOL_TOKENS + 2_000;

/** Why tool search is on or off for a conversation, in the person's words. */
export interface ToolSearchState {
  mode: ToolSearchMode;
  active: boolean;
  reason: string;
}

const number = (n: number): string => n.toLocaleString('en-US');

/** Whether tool search is on for a conversation with this many enabled tools, and why (the UI shows `reason`). */
export function toolSearchState(input: {
  mode: ToolSearchMode;
  count: number;
  tokensEstimate: number;
  contextWindow: number | undefined;
  thresholds: ToolSearchThresholds;
}): ToolSearchState {
  const { mode, count, tokensEstimate, contextWindow, thresholds } = input;
  if (mode === 'off')
    return {
      mode,
      active: false,
      reason: 'Tool search is off in this conversation: every enabled tool is sent to the model.',
    };
  if (mode === 'on')
    return {
      mode,
      active: true,
      reason: 'Tool search is on in this conversation: the model finds and loads the tools it needs.',
    };
  if (count > thresholds.countAbove) {
    return {
      mode,
      active: true,
      reason: `${number(count)} tools are enabled, more than ${number(thresholds.countAbove)}: the model searches them and loads what it needs.`,
    };
  }
  if (contextWindow !== undefined && contextWindow > 0 && tokensEstimate > contextWindow * thresholds.shareAbove) {
    const percent = Math.round((tokensEstimate / contextWindow) * 100);
    return {
      mode,
      active: true,
      reason: `The enabled tools' definitions take about ${percent}% of this model's context, more than ${Math.round(thresholds.shareAbove * 100)}%: the model searches them and loads what it needs.`,
    };
  }
  return {
    mode,
    active: false,
    reason: `Every enabled tool is sent: tool search starts above ${number(thresholds.countAbove)} tools or ${Math.round(thresholds.shareAbove * 100)}% of the model's context.`,
  };
}
