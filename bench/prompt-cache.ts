import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost } from '../app/host';
import type { Host } from '../app/host/host-types';
import { ANTHROPIC_CACHE_PRICES } from '../app/providers/cache-prices';
import { FakeAnthropic } from '../e2e/fake-llm/fake-anthropic';
import { FakePromptCache } from '../e2e/fake-llm/anthropic-prompt-cache';
import { promptView } from '../e2e/fake-llm/fake-deferred-tools';
import type { MessagesRequestBody } from '../e2e/fake-llm/validate-request';
import { withCacheBreakpoints } from '../app/providers/anthropic-cache';
import { withoutDeferral } from '../app/providers/deferred-tools';
import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { Conversation } from '../shared/domain/chat';
import { conversationUsage, promptTokens } from '../shared/domain/chat-usage';
import { allReady, turnDone, unwrap } from './host-app';
import { corpusByServer } from './generators/real-tool-corpus';
import type { Measure } from './scale-table';

// How much of a tool-heavy conversation's input the prompt cache serves, through the whole host
// (createHost) and the e2e suite's fake Messages API, which bills its prompt cache by prefix as the
// real API does (e2e/fake-llm/anthropic-prompt-cache.ts). withCorpusHost also serves the
// send-to-request row (send-to-request.ts).

export const CACHE_TOOLS = 40;
export const CACHE_TURNS = 20;
const CORPUS_SERVER = fileURLToPath(new URL('../e2e/fixtures/servers/corpus-tools.mjs', import.meta.url));
const API_KEY = 'sk-ant-bench-prompt-cache';

export const PROMPT_CACHE_MEASURES: Measure[] = [
  {
    key: 'share',
    label: `cached share of the input tokens, ${CACHE_TURNS} turns`,
    target: '≥ 0.80',
    pass: (v) => v >= 0.8,
    digits: 3,
  },
  { key: 'input', label: 'input tokens sent, all requests (the whole prompts)', target: '', digits: 0 },
  { key: 'billed', label: 'billed-equivalent input tokens with caching', target: '', digits: 0 },
  { key: 'billedRatio', label: 'billed-equivalent with / without caching', target: '', digits: 3 },
];

export const SEARCH_CACHE_TOOLS = 200;
/** What each turn of the tool search conversation asks for: each loads another tool. */
const SEARCH_CACHE_QUERIES = [
  'read a text file',
  'list a directory',
  'create knowledge graph entities',
  'search files by name',
  'write a file',
  'create a directory',
  'move a file',
  'get file info',
  'add observations',
  'delete entities',
];
export const SEARCH_CACHE_TURNS = SEARCH_CACHE_QUERIES.length;

export const SEARCH_CACHE_MEASURES: Measure[] = [
  {
    key: 'share',
    label: `cached share of the input tokens, ${SEARCH_CACHE_TURNS} turns that each load a tool`,
    target: '≥ 0.80',
    pass: (v) => v >= 0.8,
    digits: 3,
  },
  { key: 'billedRatio', label: 'billed-equivalent with / without caching', target: '', digits: 3 },
  {
    key: 'appendedShare',
    label: 'the same requests with loaded tools appended to the list: cached share',
    target: '',
    digits: 3,
  },
  { key: 'appendedBilledRatio', label: 'appended: billed-equivalent with / without caching', target: '', digits: 3 },
];

/** Berth on a fresh config dir with `tools` corpus tools and the fake API; `seed` may add files first. */
export async function withCorpusHost<T>(
  tools: number,
  seed: (configDir: string) => Promise<void>,
  body: (host: Host, fake: FakeAnthropic) => Promise<T>,
): Promise<T> {
  const fake = await FakeAnthropic.start({ apiKey: API_KEY });
  const configDir = await mkdtemp(join(tmpdir(), 'berth-bench-prompt-cache-'));
  let host: Host | undefined;
  try {
    const folder = join(configDir, 'corpus');
    await mkdir(folder);
    const servers: Record<string, { command: string; args: string[]; env: Record<string, string> }> = {};
    for (const [name, list] of corpusByServer(tools)) {
      const file = join(folder, `${name}.json`);
      await writeFile(file, JSON.stringify(list));
      servers[name] = { command: process.execPath, args: [CORPUS_SERVER], env: { BERTH_CORPUS_TOOLS: file } };
    }
    await writeFile(join(configDir, 'config.json'), JSON.stringify({ mcpServers: servers }, null, 2));
    await seed(configDir);
    host = await createHost({
      configDir,
      shell: 'browser',
      env: { ...process.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: API_KEY },
    });
    await allReady(host, Object.keys(servers));
    return await body(host, fake);
  } finally {
    await host?.shutdown();
    await fake.close();
    await rm(configDir, { recursive: true, force: true });
  }
}

/**
 * 20 turns, each a call of one of the 40 tools and an answer (40 requests). Without caching the
 * same requests would be billed whole, so "without" is the sum of the whole prompts.
 */
export function promptCacheRound(): Promise<Record<string, number>> {
  return withCorpusHost(
    CACHE_TOOLS,
    async () => undefined,
    async (host, fake) => {
      const conversation = unwrap<Conversation>(await host.dispatch('chat.create', {}));
      for (let turn = 0; turn < CACHE_TURNS; turn += 1) {
        fake.script([
          (request) => ({
            toolUses: [{ name: request.body?.tools?.[turn % CACHE_TOOLS]?.name ?? '', input: { turn } }],
          }),
          { text: `Turn ${turn + 1}: {{lastToolResult}}` },
        ]);
        const done = turnDone(host, conversation.id);
        unwrap(await host.dispatch('chat.send', { id: conversation.id, text: `Please run tool number ${turn + 1}.` }));
        await done;
      }
      const saved = unwrap<Conversation>(await host.dispatch('chat.get', { id: conversation.id }));
      const total = conversationUsage(saved.messages);
      if (total === undefined || total.requests !== 2 * CACHE_TURNS)
        throw new Error(`expected ${2 * CACHE_TURNS} requests with usage, got ${total?.requests ?? 0}`);
      const input = promptTokens(total);
      const billed =
        total.inputTokens +
        ANTHROPIC_CACHE_PRICES.read * (total.cacheReadTokens ?? 0) +
        ANTHROPIC_CACHE_PRICES.write * (total.cacheWriteTokens ?? 0);
      return { share: (total.cacheReadTokens ?? 0) / input, input, billed, billedRatio: billed / input };
    },
  );
}

/** Billed-equivalent input of requests at Anthropic's cache prices, and the whole prompts they sent. */
function billedOf(
  bills: readonly { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number }[],
): {
  share: number;
  billedRatio: number;
} {
  let read = 0;
  let whole = 0;
  let billed = 0;
  for (const bill of bills) {
    read += bill.cache_read_input_tokens;
    whole += bill.input_tokens + bill.cache_read_input_tokens + bill.cache_creation_input_tokens;
    billed +=
      bill.input_tokens +
      ANTHROPIC_CACHE_PRICES.read * bill.cache_read_input_tokens +
      ANTHROPIC_CACHE_PRICES.write * bill.cache_creation_input_tokens;
  }
  return { share: read / whole, billedRatio: billed / whole };
}

/**
 * 200 tools (tool search on) and 10 turns, each a search, a load of the tool found, its call and an
 * answer (40 requests), with Anthropic's deferred loading: every tool is listed deferred and each load
 * answers with a tool_reference. For comparison, the same requests as Berth sends them to a provider
 * without deferred loading (loaded tools appended to the list, marked as Berth marks them), billed by
 * a fresh cache of the same kind.
 */
export function promptCacheSearchRound(): Promise<Record<string, number>> {
  return withCorpusHost(
    SEARCH_CACHE_TOOLS,
    async () => undefined,
    async (host, fake) => {
      const conversation = unwrap<Conversation>(await host.dispatch('chat.create', {}));
      for (const [turn, query] of SEARCH_CACHE_QUERIES.entries()) {
        const step = { searchAndUse: { query, input: { turn } } };
        fake.script([step, step, step, step]);
        const done = turnDone(host, conversation.id);
        unwrap(await host.dispatch('chat.send', { id: conversation.id, text: `Please ${query}.` }));
        await done;
      }
      const bodies = fake.requests.map((request) => request.body);
      if (bodies.length !== 4 * SEARCH_CACHE_TURNS || bodies.some((body) => body === undefined))
        throw new Error(`expected ${4 * SEARCH_CACHE_TURNS} requests, got ${bodies.length}`);
      const bill = (sent: readonly MessagesRequestBody[]) => {
        const cache = new FakePromptCache();
        return billedOf(
          sent.map((body) => {
            const result = cache.bill(promptView(body));
            if ('error' in result) throw new Error(result.error);
            return result;
          }),
        );
      };
      const kept = bill(bodies as MessagesRequestBody[]);
      const appended = bill(
        (bodies as MessagesRequestBody[]).map((body) => {
          const plain = JSON.parse(
            JSON.stringify(body, (key, value: unknown) => (key === 'cache_control' ? undefined : value)),
          ) as { model: string; tools: Tool[]; messages: MessageParam[] };
          return withCacheBreakpoints(withoutDeferral(plain)) as unknown as MessagesRequestBody;
        }),
      );
      return {
        share: kept.share,
        billedRatio: kept.billedRatio,
        appendedShare: appended.share,
        appendedBilledRatio: appended.billedRatio,
      };
    },
  );
}
