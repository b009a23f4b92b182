import type { ReasoningSupport } from '../../shared/domain/reasoning';

// What Anthropic's models endpoint says a model can do, in Berth's terms. The listing is the first
// source (then Berth's id table, shared/domain/reasoning.ts): a model the table does not know gets the
// reasoning control when the listing says it thinks, and none when it says it does not.

/** What Berth reads of a model's `capabilities`; each absent when the listing did not say. */
export interface ListedCapabilities {
  reasoning?: ReasoningSupport;
  /** The API compacts the context itself (`context_management.compact_20260112`). */
  contextManagement?: boolean;
}

interface Support {
  supported?: boolean;
}

/** `capabilities` as an older API or a proxy may send them: any key missing or null. */
export interface LooseCapabilities {
  thinking?: { supported?: boolean; types?: { adaptive?: Support | null; enabled?: Support | null } | null } | null;
  effort?: { supported?: boolean; low?: Support | null; medium?: Support | null; high?: Support | null } | null;
  context_management?: { supported?: boolean; compact_20260112?: Support | null } | null;
}

const on = (value: Support | null | undefined): boolean => value?.supported === true;

/**
 * `capabilities` as Berth uses them. Thinking: adaptive with effort levels → `adaptive` (Berth asks adaptive
 * thinking with `output_config.effort`); else extended thinking with a budget → `budget`; else `none`. An older
 * API (or proxy) sends no capabilities, or only some keys: what is missing is left to the table.
 */
export function listedCapabilities(capabilities: LooseCapabilities | null | undefined): ListedCapabilities {
  if (capabilities === null || capabilities === undefined) return {};
  const { thinking, effort, context_management: context } = capabilities;
  let reasoning: ReasoningSupport | undefined;
  if (thinking !== undefined && thinking !== null) {
    // Berth's levels are efforts: all three must be there for the adaptive control.
    const levels = on(effort) && on(effort?.low) && on(effort?.medium) && on(effort?.high);
    if (thinking.supported !== true) reasoning = 'none';
    else if (on(thinking.types?.adaptive) && levels) reasoning = 'adaptive';
    else if (on(thinking.types?.enabled)) reasoning = 'budget';
    else reasoning = 'none';
  }
  const compact = on(context) && on(context?.compact_20260112);
  return {
    ...(reasoning !== undefined ? { reasoning } : {}),
    ...(context !== undefined && context !== null ? { contextManagement: compact } : {}),
  };
}
