import type { Browser } from 'playwright-core';
import { manyServersRound, SERVERS, TOOLS } from './many-servers';
import { scaleTable, type Measure } from './scale-table';
import { TOOL_SEARCH_TOOLS } from './tool-search-tokens';
import { CACHE_TOOLS, CACHE_TURNS, SEARCH_CACHE_TOOLS, SEARCH_CACHE_TURNS } from './prompt-cache';
import { SEND_CONVERSATIONS, SEND_TOOLS, WARM_SENDS } from './send-to-request';

/**
 * The rows of "speed at a heavy user's scale", each run `rounds` times on
 * a fresh config dir and written as min / median / max with the target and a
 * pass/miss mark on the median. The Chromium rows load playwright-core only when run.
 */

export const SCALE_ROW_IDS = [
  'first-screen',
  'conversation-list',
  'startup-conversations',
  'long-conversation',
  'tool-switches',
  'send-message',
  'stream-reply',
  'many-servers',
  'tool-search',
  'prompt-cache',
  'prompt-cache-search',
  'send-to-request',
  'compaction',
  'full-text-search',
] as const;
export type ScaleRowId = (typeof SCALE_ROW_IDS)[number];

interface ScaleRow {
  title: string;
  description: string;
  needsBrowser: boolean;
  measures: () => Promise<Measure[]>;
  round: (index: number) => Promise<Record<string, number>>;
}

type UiModule = typeof import('./ui-scale');
const ui = (): Promise<UiModule> => import('./ui-scale');

/** Runs the Chromium round in a browser of its own, so rounds do not share a renderer process. */
async function inChromium(
  run: (module: UiModule, browser: Browser) => Promise<Record<string, number>>,
): Promise<Record<string, number>> {
  const module = await ui();
  return module.withChromium((browser) => run(module, browser));
}

const ROWS: Record<ScaleRowId, ScaleRow> = {
  'first-screen': {
    title: 'Opening Berth (browser mode)',
    description:
      'The built app as `npm start` serves it, no conversations, opened in headless Chromium (1280×800, `--disable-gpu`). Initial JS is what index.html loads before anything else (its module script and modulepreloads), gzipped at level 9 by scripts/check-initial-js.mjs; the bytes over the wire come from Resource Timing (encoded vs decoded body sizes), FCP from the paint timing entry, long tasks from a PerformanceObserver installed before the first script.',
    needsBrowser: true,
    measures: async () => (await ui()).UI_MEASURES['first-screen'],
    round: () => inChromium((module, browser) => module.firstScreenRound(browser)),
  },
  'conversation-list': {
    title: 'The conversation list with 5,000 conversations',
    description:
      "5,000 small conversations (bench/generators/conversations.ts) in the config dir, Berth started on it and the page opened (on Servers, as there are none); Chat is clicked in the page and timed to the first animation frame with the list's rows in the DOM; heap from CDP Performance.getMetrics; then a search typed into the list's search box (when this build has one) timed to the frame where the rows change; then one conversation renamed (Enter in its title box) timed to the frame that shows the new title.",
    needsBrowser: true,
    measures: async () => (await ui()).UI_MEASURES['conversation-list'],
    round: () => inChromium((module, browser) => module.conversationListRound(browser)),
  },
  'startup-conversations': {
    title: 'Starting Berth with 5,000 conversations',
    description:
      'Spawn of `browser-mode --headless` to its ready line on stdout, on a config dir with 5,000 conversations and on an empty one, alternating which goes first. Each round writes the 5,000 once and starts Berth on them twice: the first start finds no index and rebuilds it (every file read, the index written before the ready line; its own line below), the second is the one timed against the empty start, as every start after the first is for a person.',
    needsBrowser: false,
    measures: async () => (await ui()).UI_MEASURES['startup-conversations'],
    round: async (index) => (await ui()).startupRound(index),
  },
  'long-conversation': {
    title: 'Opening a 2,000-message conversation (249 tool calls)',
    description:
      'bench/generators/long-conversation.ts in the config dir; with the list painted, its row is clicked and the time runs, in the page, to the first frame whose message list holds the last message. DOM nodes and heap with it open.',
    needsBrowser: true,
    measures: async () => (await ui()).UI_MEASURES['long-conversation'],
    round: () => inChromium((module, browser) => module.longConversationRound(browser)),
  },
  'tool-switches': {
    title: `The chat's tool switches with ${TOOLS.toLocaleString('en')} tools`,
    description: `${SERVERS} echo servers with ${TOOLS / SERVERS} extra tools each in the config and one conversation open; once the popover lists every tool, it is closed and opened again, timed in the page from the click to the first frame with the switches painted (the list is virtualized: only the rows in view exist).`,
    needsBrowser: true,
    measures: async () => (await ui()).UI_MEASURES['tool-switches'],
    round: () => inChromium((module, browser) => module.toolSwitchesRound(browser)),
  },
  'send-message': {
    title: 'Sending one message with 5,000 conversations',
    description:
      "The e2e suite's fake Anthropic API (e2e/fake-llm) answers; Berth is pointed at it. A message is typed into the open conversation and Enter pressed; timed in the page to the first frame that shows the reply's last words, with 10 conversations and with 5,000 in the config dir (alternating which goes first). Four messages each, 1.5 s apart (the turn over and its saves written, as between a person's messages): the first send after start is cold (the host's first API request, the first reply rendered) and has its own lines; the row's figure is the median of the next three. The bench process, which also runs the fake API, collects the generated conversations, and Berth is started once to write the conversations index before the timed start (as a person's Berth has one). Long tasks counted from the first Enter in the 5,000 case.",
    needsBrowser: true,
    measures: async () => (await import('./chat-scale')).CHAT_MEASURES['send-message'],
    round: async (index) => {
      const chat = await import('./chat-scale');
      return (await ui()).withChromium((browser) => chat.sendMessageRound(browser, index));
    },
  },
  'stream-reply': {
    title: 'Streaming a reply into the 2,000-message conversation',
    description:
      "The 2,000-message conversation open; the fake API streams a 300-word reply, a word every 10 ms; frame intervals from a requestAnimationFrame loop in the page from Enter until the reply's last words show.",
    needsBrowser: true,
    measures: async () => (await import('./chat-scale')).CHAT_MEASURES['stream-reply'],
    round: async () => {
      const chat = await import('./chat-scale');
      return (await ui()).withChromium((browser) => chat.streamReplyRound(browser));
    },
  },
  'many-servers': {
    title: `${SERVERS} servers with ${TOOLS.toLocaleString('en')} tools started together`,
    description: `Berth: createHost on a fresh config dir listing ${SERVERS} echo servers with ${TOOLS / SERVERS} extra tools each, until every one is ready (ready includes its tool list). Baseline: ${SERVERS} bare SDK v2 clients (\`auto\` negotiation) that connect and list tools, on a StdioClientTransport subclass so each server is spawned once (the base class spawns a throw-away probe process first, which would make the baseline twice as slow). Alternating order.`,
    needsBrowser: false,
    measures: async () => [
      { key: 'bareMs', label: `${SERVERS} bare clients, connect + tools/list, ms`, target: '' },
      { key: 'hostMs', label: 'Berth createHost → all ready, ms', target: '' },
      { key: 'ratio', label: 'Berth / bare', target: '≤ 1.0×', pass: (v) => v <= 1.0, digits: 2 },
    ],
    round: (index) => manyServersRound(index),
  },
  'tool-search': {
    title: `A turn's tool definitions with ${TOOL_SEARCH_TOOLS.toLocaleString('en')} tools, with and without tool search`,
    description: `Berth (createHost) with 14 fixture servers listing ${TOOL_SEARCH_TOOLS.toLocaleString('en')} tools in all (e2e/fixtures/servers/corpus-tools.mjs: the real tool definitions of server-everything, server-filesystem and server-memory, varied by bench/generators/real-tool-corpus.ts) and the e2e suite's fake Anthropic API. With tool search (on by default above 128 tools) the fake model searches, loads the first hit and calls it: four requests. Without: the same enabled tools in a conversation whose tool search is off. Tokens are Berth's estimate (serialized definitions / 4) of the \`tools\` each request carried, as the fake API received them; the budget is TOOL_SEARCH_TOKEN_BUDGET (shared/domain/tool-search.ts).`,
    needsBrowser: false,
    measures: async () => (await import('./tool-search-tokens')).TOOL_SEARCH_MEASURES,
    round: async () => (await import('./tool-search-tokens')).toolSearchTokensRound(),
  },
  'prompt-cache': {
    title: `The prompt cache over a ${CACHE_TURNS}-turn conversation with ${CACHE_TOOLS} tools`,
    description: `Berth (createHost) with fixture servers listing ${CACHE_TOOLS} real-looking tools (e2e/fixtures/servers/corpus-tools.mjs) and the e2e suite's fake Anthropic API, which bills its prompt cache by prefix as the real API does (e2e/fake-llm/anthropic-prompt-cache.ts: cache_control breakpoints, 20-block look-back, 1,024-token minimum, 5-minute entries; 4 characters a token). ${CACHE_TURNS} turns, each a call of one of the tools (consent answered allow-once) and an answer: ${2 * CACHE_TURNS} requests. The share is cache reads over all input tokens, as the API reported them and Berth saved them; billed-equivalent counts a read at 0.1× and a write at 1.25× the input price (app/providers/cache-prices.ts). Without caching the same requests are billed whole: the input tokens sent.`,
    needsBrowser: false,
    measures: async () => (await import('./prompt-cache')).PROMPT_CACHE_MEASURES,
    round: async () => (await import('./prompt-cache')).promptCacheRound(),
  },
  'prompt-cache-search': {
    title: `The prompt cache over ${SEARCH_CACHE_TURNS} turns of tool search, each loading a tool, with ${SEARCH_CACHE_TOOLS} tools`,
    description: `Berth (createHost) with fixture servers listing ${SEARCH_CACHE_TOOLS} corpus tools (tool search on above 128) and the e2e suite's fake Anthropic API, which bills its prompt cache by prefix and loads deferred tools as the real API does (e2e/fake-llm/fake-deferred-tools.ts: a deferred tool is no part of the prompt until a tool_reference loads it, where it is expanded). ${SEARCH_CACHE_TURNS} turns, each a search, a load of the first hit, its call (consent answered allow-once) and an answer: ${4 * SEARCH_CACHE_TURNS} requests. Berth lists every tool deferred and answers each load with a tool_reference, so the list never changes. "Appended" bills the same requests as Berth sends them to a provider without deferred loading (the loaded tools appended to the list, app/providers/deferred-tools.ts withoutDeferral, marked by withCacheBreakpoints) with a fresh cache of the same kind. Billed-equivalent counts a read at 0.1× and a write at 1.25× the input price.`,
    needsBrowser: false,
    measures: async () => (await import('./prompt-cache')).SEARCH_CACHE_MEASURES,
    round: async () => (await import('./prompt-cache')).promptCacheSearchRound(),
  },
  'send-to-request': {
    title: `Send → the request at the API, with ${SEND_TOOLS.toLocaleString('en')} tools and ${SEND_CONVERSATIONS.toLocaleString('en')} conversations`,
    description: `Berth (createHost) with ${SEND_TOOLS.toLocaleString('en')} corpus tools (tool search on) and ${SEND_CONVERSATIONS.toLocaleString('en')} generated conversations in the config dir, all in this process; a message sent in the newest one through the contract (chat.send), timed to the moment Berth's request (with 2,000 tools listed deferred, about a megabyte) to the fake Messages API has its body on the wire (Node's fetch reports it on the \`undici:request:bodySent\` diagnostics channel): Berth's own part, the row's figure. The fake API's handler having the request (its reading and checking of the body included) is the upper bound beside it. The first send after start is cold; then ${WARM_SENDS} more, 200 ms apart, whose median is the round's figure. \`BERTH_BENCH_CPU_PROFILE=file.cpuprofile\` writes a CPU profile of the first round's warm sends and prints their top costs.`,
    needsBrowser: false,
    measures: async () => (await import('./send-to-request')).SEND_MEASURES,
    round: async (index) => (await import('./send-to-request')).sendToRequestRound(index),
  },
  compaction: {
    title: 'Compacting a conversation at 90% of a 200k window',
    description:
      "A conversation of tool turns (a question, a tool call and its result, an answer) filled to 90% of a 200,000-token window by Berth's estimate, in a real ConversationStore; ContextKeeper.fit forced as Compact and retry does (app/chat/context): the planner, the transcript, the summary requests to the e2e suite's fake Anthropic API (answering at once, with AnthropicProvider over loopback) and the saved cut. Berth's part is the whole time less the summary requests' round trips.",
    needsBrowser: false,
    measures: async () => (await import('./compaction')).COMPACTION_MEASURES,
    round: async () => (await import('./compaction')).compactionRound(),
  },
  'full-text-search': {
    title: 'Full-text search over 5,000 conversations',
    description:
      "5,000 generated conversations (bench/generators/searchable-conversations.ts: 2 to 40 messages, long-tailed words, tool results, one in ten in Chinese or Japanese; ~38 MB of JSON) in a real ConversationStore with ConversationSearch (app/chat/search), in this process. The first start builds the index from every file; the next start opens the list from its index (the start-up row's work) and then loads the search index beside it (off the ready path: Berth serves meanwhile); then six queries, five times each, through ConversationSearch.search with 50 hits and their snippets. The baseline, in the same run, is what search costs without an index: every conversation file read and looked through for one word.",
    needsBrowser: false,
    measures: async () => (await import('./full-text-search')).FULL_TEXT_SEARCH_MEASURES,
    round: async () => (await import('./full-text-search')).fullTextSearchRound(),
  },
};

export async function runScaleRow(id: ScaleRowId, rounds: number, emit: (markdown: string) => void): Promise<void> {
  const row = ROWS[id];
  emit(`## ${row.title} (\`--only ${id}\`)`);
  // startup-conversations needs no browser but does need the built browser mode.
  const unavailable =
    row.needsBrowser || id === 'startup-conversations'
      ? (await import('./browser-page')).browserRowsUnavailable()
      : undefined;
  if (unavailable !== undefined) {
    emit(`Not measured in this run: ${unavailable}.`);
    return;
  }
  emit(`${row.description} ${rounds} round(s).`);
  const results: Array<Record<string, number>> = [];
  for (let index = 0; index < rounds; index++) results.push(await row.round(index));
  emit(scaleTable(await row.measures(), results));
}
