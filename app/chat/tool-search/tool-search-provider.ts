import { toolKey } from '../../../shared/domain/chat';
import type { Conversation } from '../../../shared/domain/chat';
import { MAX_LOADED_TOOL_TOKENS, MAX_LOADED_TOOLS, toolSearchState } from '../../../shared/domain/tool-search';
import type { ToolSearchState, ToolSearchThresholds } from '../../../shared/domain/tool-search';
import { toolDefinitions } from '../api-messages';
import type { AvailableTool } from '../api-messages';
import type { ConversationStore } from '../conversation-store';
import type { HostOffer, HostOfferContext, HostTool, HostToolOutcome, HostToolProvider } from '../host-tools/host-tool';
import type { ToolNameMap } from '../tool-names';
import { enabledDefinitionTokens, tokensOf } from '../tool-offer';
import { ToolSearchIndexCache } from './tool-index';

// Tool search as a host tool provider: above the threshold (shared/domain/tool-search.ts) a
// conversation's request carries search_tools, load_tools and the tools the model loaded, instead
// of every enabled tool's definition. Loading only makes a definition visible to the model; every
// call of a loaded tool goes through consent like any other.

export const SEARCH_TOOLS = 'search_tools';
export const LOAD_TOOLS = 'load_tools';
const DEFAULT_RESULTS = 8;
const MAX_RESULTS = 20;
const MAX_LOAD_AT_ONCE = 10;
const DESCRIPTION_CHARS = 240;

export interface ToolSearchOptions {
  store: Pick<ConversationStore, 'changeLoadedTools'>;
  /** The global thresholds (settings.json), read at each request. */
  thresholds: () => ToolSearchThresholds;
}

const text = (value: string, isError = false, summary = ''): HostToolOutcome => ({
  content: [{ type: 'text', text: value }],
  isError,
  summary,
});

function oneLine(value: string | undefined): string {
  const flat = (value ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > DESCRIPTION_CHARS ? `${flat.slice(0, DESCRIPTION_CHARS - 1)}…` : flat;
}

/**
 * Keeps the loaded tools within MAX_LOADED_TOOLS and MAX_LOADED_TOOL_TOKENS by dropping the ones
 * loaded longest ago (never one of `keep`, the tools just asked for). Returns what stays and what went.
 */
export function withinLoadBudget(
  loaded: readonly string[],
  keep: ReadonlySet<string>,
  tokensOf: (key: string) => number,
): { loaded: string[]; dropped: string[] } {
  const kept = [...loaded];
  const dropped: string[] = [];
  const total = (): number => kept.reduce((sum, key) => sum + tokensOf(key), 0);
  while (kept.length > MAX_LOADED_TOOLS || (kept.length > 1 && total() > MAX_LOADED_TOOL_TOKENS)) {
    const index = kept.findIndex((key) => !keep.has(key));
    if (index === -1) break;
    dropped.push(...kept.splice(index, 1));
  }
  return { loaded: kept, dropped };
}

export class ToolSearch implements HostToolProvider {
  readonly id = 'tool search';
  readonly names = [SEARCH_TOOLS, LOAD_TOOLS] as const;
  private readonly indexes = new ToolSearchIndexCache();

  constructor(private readonly options: ToolSearchOptions) {}

  /** Whether tool search is on for this conversation now, and why. */
  state(
    conversation: Conversation,
    enabled: readonly AvailableTool[],
    names: ToolNameMap,
    contextWindow: number | undefined,
    tokenFactor = 1,
  ): ToolSearchState {
    return toolSearchState({
      mode: conversation.toolSearch ?? 'auto',
      count: enabled.length,
      tokensEstimate: Math.ceil(enabledDefinitionTokens(enabled, names) * tokenFactor),
      contextWindow,
      thresholds: this.options.thresholds(),
    });
  }

  offer({ conversation, enabled, names, contextWindow, tokenFactor, defersTools }: HostOfferContext): HostOffer {
    if (!this.state(conversation, enabled, names, contextWindow, tokenFactor).active) return { tools: [] };
    const loaded = new Set(conversation.loadedTools ?? []);
    return {
      tools: [this.searchTool(enabled, names, loaded), this.loadTool(enabled, names, defersTools === true)],
      sendOnly: loaded,
    };
  }

  private searchTool(enabled: readonly AvailableTool[], names: ToolNameMap, loaded: ReadonlySet<string>): HostTool {
    return {
      name: SEARCH_TOOLS,
      title: 'Search tools',
      description: `Search the ${enabled.length.toLocaleString('en-US')} tools the user enabled in this conversation (names, titles, descriptions, parameter names). Only loaded tools can be called: load the ones you need with ${LOAD_TOOLS}.`,
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What the tool should do, in a few words (e.g. "read a text file").' },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_RESULTS,
            description: `How many tools to list (default ${DEFAULT_RESULTS}).`,
          },
        },
        required: ['query'],
      },
      run: async (input) => {
        const query = typeof input.query === 'string' ? input.query.trim() : '';
        if (query === '' || query.length > 500)
          return text(
            'Give "query": what the tool should do, in a few words (at most 500 characters).',
            true,
            'could not search tools: no query',
          );
        const limit = input.limit === undefined ? DEFAULT_RESULTS : Number(input.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RESULTS)
          return text(
            `"limit" must be a whole number from 1 to ${MAX_RESULTS}.`,
            true,
            'could not search tools: bad limit',
          );
        const hits = this.indexes.for(enabled).query(query, limit);
        const byKey = new Map(enabled.map((entry) => [toolKey(entry.server, entry.tool.name), entry]));
        const lines = hits.flatMap(({ server, tool }) => {
          const entry = byKey.get(toolKey(server, tool));
          const apiName = names.apiName(server, tool);
          if (entry === undefined || apiName === undefined) return [];
          const params = Object.keys((entry.tool.inputSchema.properties as Record<string, unknown> | undefined) ?? {});
          const about = [entry.tool.title, oneLine(entry.tool.description)]
            .filter((part) => part !== undefined && part !== '')
            .join(': ');
          return [
            `- ${apiName}${loaded.has(toolKey(server, tool)) ? ' (loaded)' : ''} — server "${server}". ${about}${params.length > 0 ? ` Parameters: ${params.join(', ')}.` : ''}`,
          ];
        });
        const summary = `searched tools for “${query}”: ${lines.length === 0 ? 'none found' : `${lines.length} found`}`;
        if (lines.length === 0) return text(`No enabled tool matches "${query}". Try other words.`, false, summary);
        return text(
          `${lines.length} of ${enabled.length.toLocaleString('en-US')} enabled tools match "${query}", best first. Load the ones you need with ${LOAD_TOOLS} (by the names given here), then call them.\n${lines.join('\n')}`,
          false,
          summary,
        );
      },
    };
  }

  /**
   * `deferring`: the provider loads tools itself (tool-references.ts). A loaded tool's definition is then part of the
   * conversation, read from the prompt cache like the rest of it, so no budget unloads the oldest: unloading would
   * change the conversation before the newest turn, and with it everything the cache holds after that point.
   */
  private loadTool(enabled: readonly AvailableTool[], names: ToolNameMap, deferring: boolean): HostTool {
    const budget = deferring
      ? 'they stay loaded for the rest of the conversation'
      : `${MAX_LOADED_TOOLS} stay loaded (the ones loaded longest ago are unloaded first)`;
    return {
      name: LOAD_TOOLS,
      title: 'Load tools',
      description: `Load tools found with ${SEARCH_TOOLS} into this conversation, by the names it gave, so you can call them from your next step on. At most ${MAX_LOAD_AT_ONCE} at once; ${budget}. Loading runs nothing.`,
      inputSchema: {
        type: 'object',
        properties: {
          names: {
            type: 'array',
            items: { type: 'string' },
            minItems: 1,
            maxItems: MAX_LOAD_AT_ONCE,
            description: `Tool names as ${SEARCH_TOOLS} listed them.`,
          },
        },
        required: ['names'],
      },
      run: async (input, { conversationId }) => {
        const asked = Array.isArray(input.names)
          ? input.names.filter((name): name is string => typeof name === 'string')
          : [];
        if (
          asked.length === 0 ||
          asked.length !== (input.names as unknown[]).length ||
          asked.length > MAX_LOAD_AT_ONCE
        ) {
          return text(
            `Give "names": a list of 1 to ${MAX_LOAD_AT_ONCE} tool names as ${SEARCH_TOOLS} listed them.`,
            true,
            'could not load tools: no names',
          );
        }
        const byKey = new Map(enabled.map((entry) => [toolKey(entry.server, entry.tool.name), entry]));
        const found = new Map<string, string>();
        const unknown: string[] = [];
        for (const name of asked) {
          const ref = names.resolve(name);
          const key = ref === undefined ? undefined : toolKey(ref.server, ref.tool);
          if (key === undefined || !byKey.has(key)) unknown.push(name);
          else found.set(key, name);
        }
        if (found.size === 0)
          return text(
            `No enabled tool has the name ${unknown.map((name) => `"${name}"`).join(', ')}. Use the names ${SEARCH_TOOLS} gives.`,
            true,
            'could not load tools: unknown names',
          );
        const tokensOfKey = (key: string): number => {
          const entry = byKey.get(key);
          return entry === undefined ? 0 : tokensOf(toolDefinitions([entry], names));
        };
        let dropped: string[] = [];
        await this.options.store.changeLoadedTools(conversationId, (loaded) => {
          // New tools go last and loaded ones stay where they are: the request's tool list only grows at its end (tool-offer.ts).
          const grown = [...loaded, ...[...found.keys()].filter((key) => !loaded.includes(key))];
          if (deferring) return grown;
          const next = withinLoadBudget(grown, new Set(found.keys()), tokensOfKey);
          dropped = next.dropped;
          return next.loaded;
        });
        const label = (key: string): string => names.apiName(...(splitKey(key) as [string, string])) ?? key;
        const lines = [
          `Loaded ${[...found.values()].join(', ')}: call them from your next step on (the user approves each call).`,
        ];
        if (dropped.length > 0)
          lines.push(`Unloaded to stay within the tool budget: ${dropped.map(label).join(', ')}.`);
        if (unknown.length > 0) lines.push(`Not found (use the names ${SEARCH_TOOLS} gives): ${unknown.join(', ')}.`);
        const shown = [...found.keys()].map((key) => {
          const [server, tool] = splitKey(key);
          return `${server} › ${tool}`;
        });
        return {
          ...text(
            lines.join('\n'),
            false,
            `loaded ${shown.length === 1 ? 'a tool' : `${shown.length} tools`}: ${shown.join(', ')}`,
          ),
          // The request puts a tool_reference to each here when the provider loads tools itself (tool-references.ts).
          loadsTools: [...found.keys()],
        };
      },
    };
  }
}

/** toolKey's parts: server names hold no '/', so the first one separates them. */
function splitKey(key: string): [string, string] {
  const slash = key.indexOf('/');
  return [key.slice(0, slash), key.slice(slash + 1)];
}
