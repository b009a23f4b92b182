import { blocksOf } from './validate-request';
import type { MessagesRequestBody } from './validate-request';

// The fake model's tool search, for a scripted turn with `searchAndUse`: each request takes the next
// step, read from the conversation it carries, so the same turn scripted four times plays
// search → load → call → answer deterministically (from a test in another process, too).

export interface SearchAndUse {
  /** What search_tools is asked for. */
  query: string;
  /** The arguments of the call of the first tool the search listed. */
  input: Record<string, unknown>;
  /** The final answer; `{{lastToolResult}}` works as in `text`. Default: the tool's result. */
  text?: string | undefined;
}

export interface SearchStep {
  text?: string;
  toolUses?: Array<{ name: string; input: Record<string, unknown>; id?: string }>;
}

/** The names the previous assistant message called, with their inputs. */
function previousCalls(body: MessagesRequestBody | undefined): Array<{ name: string; input: Record<string, unknown> }> {
  const previous = body?.messages.at(-2);
  if (previous === undefined || previous.role !== 'assistant') return [];
  return blocksOf(previous).flatMap((block) =>
    block.type === 'tool_use' && typeof block.name === 'string'
      ? [{ name: block.name, input: (block.input ?? {}) as Record<string, unknown> }]
      : [],
  );
}

/** The first tool a search_tools result listed (`- name …` lines). */
function firstListed(resultText: string): string | undefined {
  return /^- (\S+)/m.exec(resultText)?.[1];
}

export function toolSearchStep(
  plan: SearchAndUse,
  body: MessagesRequestBody | undefined,
  lastResult: string,
): SearchStep {
  const calls = previousCalls(body);
  const last = calls.at(-1);
  if (last?.name === 'search_tools') {
    const found = firstListed(lastResult);
    return found === undefined
      ? { text: `The search found nothing: ${lastResult}` }
      : { toolUses: [{ name: 'load_tools', input: { names: [found] } }] };
  }
  if (last?.name === 'load_tools') {
    const names = last.input.names;
    const loaded = Array.isArray(names) && typeof names[0] === 'string' ? names[0] : undefined;
    return loaded === undefined ? { text: 'Nothing was loaded.' } : { toolUses: [{ name: loaded, input: plan.input }] };
  }
  if (last !== undefined) return { text: plan.text ?? '{{lastToolResult}}' };
  return { toolUses: [{ name: 'search_tools', input: { query: plan.query } }] };
}
