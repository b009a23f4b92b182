import type { ToolInfo } from '../../shared/domain/server';
import { repeatedTools, toolTwinGroups } from '../../shared/domain/tool-twins';

// The server log's words for tools that share a name (shared/domain/tool-twins.ts): said when the list comes
// in, and again when a list read after tools/list_changed names them differently, so a name the model used
// before that now means another tool (or nothing) is explained where the person looks for why.

const ORDINALS = ['first', 'second', 'third'];
const ordinal = (index: number): string => ORDINALS[index] ?? `${index + 1}th`;

/** One sentence per shared name, e.g. "2 tools share the name 'search': the second is offered to the model as 'search_2'". */
function twinSentences(tools: readonly ToolInfo[]): string[] {
  const twins = toolTwinGroups(tools).map(({ listedName, renamed }) => {
    const others = renamed.map((name, index) => `the ${ordinal(index + 1)} as '${name}'`).join(', ');
    const verb =
      renamed.length === 1 ? `the second is offered to the model as '${renamed[0]}'` : `Berth offers ${others}`;
    return `${renamed.length + 1} tools share the name '${listedName}': ${verb}`;
  });
  const repeats = repeatedTools(tools).map(
    ({ name, repeats }) => `'${name}' is listed ${repeats + 1} times with the same definition: it is offered once`,
  );
  return [...twins, ...repeats];
}

/** What the log says about a list's shared names, or undefined when every tool has a name of its own. */
export function toolTwinNote(tools: readonly ToolInfo[]): string | undefined {
  const sentences = twinSentences(tools);
  return sentences.length === 0 ? undefined : `${sentences.join('; ')} (MCP asks for unique tool names)`;
}

/** What changed in the shared names between two lists, or undefined when nothing did. */
export function toolTwinChange(before: readonly ToolInfo[], after: readonly ToolInfo[]): string | undefined {
  const was = twinSentences(before);
  const now = twinSentences(after);
  if (was.join('\n') === now.join('\n')) return undefined;
  const gone = toolTwinGroups(before)
    .flatMap(({ renamed }) => renamed)
    .filter((name) => !after.some((tool) => tool.name === name));
  const lost =
    gone.length === 0 ? '' : `; ${gone.map((name) => `'${name}'`).join(', ')} ${gone.length === 1 ? 'is' : 'are'} gone`;
  return `tools that share a name changed: now ${now.length === 0 ? 'none' : now.join('; ')} (before: ${was.length === 0 ? 'none' : was.join('; ')})${lost}`;
}
