import MiniSearch from 'minisearch';
import { toolKey } from '../../../shared/domain/chat';
import type { AvailableTool } from '../api-messages';

// The ranked text search behind search_tools: MiniSearch (BM25+ scoring, prefix and fuzzy
// matching) over each enabled tool's name, title, description, parameter names and server.
// Only the text going in is shaped here: names split into words, and a few English words
// that match everything left out.

/** One hit, best first. */
export interface ToolHit {
  server: string;
  tool: string;
  score: number;
}

// Words in nearly every description ("Read the contents of a file") carry no signal and only
// add noise to BM25's sums.
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'can',
  'for',
  'from',
  'i',
  'in',
  'into',
  'is',
  'it',
  'its',
  'me',
  'my',
  'of',
  'on',
  'or',
  'that',
  'the',
  'this',
  'to',
  'with',
  'you',
  'your',
  'tool',
  'tools',
]);

/** `readTextFile`, `read_text_file`, `read-text-file` and `read text file` give the same words. */
export function toolWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** Lowercase, no stop words, and plurals folded (files → file, directories → directory) so either form finds the other. */
function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  if (STOP_WORDS.has(word)) return null;
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

interface ToolDocument {
  id: string;
  server: string;
  tool: string;
  name: string;
  title: string;
  description: string;
  params: string;
}

function parameterNames(schema: Record<string, unknown>): string {
  const properties = schema.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties).join(' ') : '';
}

/** A search index over one set of tools (rebuilt when the set changes: see ToolSearchIndexCache). */
export class ToolSearchIndex {
  private readonly search: MiniSearch<ToolDocument>;

  constructor(readonly tools: readonly AvailableTool[]) {
    this.search = new MiniSearch<ToolDocument>({
      fields: ['name', 'title', 'description', 'params', 'server'],
      storeFields: ['server', 'tool'],
      tokenize: toolWords,
      processTerm,
      searchOptions: {
        // A word in the name or title says more than one in a long description.
        boost: { name: 3, title: 2, params: 1.5, server: 1.5 },
        prefix: (term) => term.length >= 4,
        fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
        combineWith: 'OR',
      },
    });
    this.search.addAll(
      tools.map(({ server, tool }) => ({
        id: toolKey(server, tool.name),
        server,
        tool: tool.name,
        name: tool.name,
        title: tool.title ?? '',
        description: tool.description ?? '',
        params: parameterNames(tool.inputSchema),
      })),
    );
  }

  /** The best `limit` tools for `query`, best first. */
  query(query: string, limit: number): ToolHit[] {
    return this.search
      .search(query)
      .slice(0, limit)
      .map((hit) => ({ server: String(hit.server), tool: String(hit.tool), score: hit.score }));
  }
}

/**
 * The index of the last tool set asked for. Tools come from the supervisor as the same objects
 * until a server lists them again, so an unchanged set is recognised by identity, element by
 * element, without hashing 2,000 descriptions on every model request.
 */
export class ToolSearchIndexCache {
  private last: ToolSearchIndex | undefined;

  for(tools: readonly AvailableTool[]): ToolSearchIndex {
    const last = this.last;
    if (
      last !== undefined &&
      last.tools.length === tools.length &&
      last.tools.every((entry, index) => entry.server === tools[index]?.server && entry.tool === tools[index]?.tool)
    ) {
      return last;
    }
    this.last = new ToolSearchIndex(tools);
    return this.last;
  }
}
