import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost } from '../app/host';
import type { Host } from '../app/host/host-types';
import { FakeAnthropic } from '../e2e/fake-llm/fake-anthropic';
import { estimateTokens } from '../shared/domain/chat-usage';
import { TOOL_SEARCH_TOKEN_BUDGET } from '../shared/domain/tool-search';
import { allReady, turnDone, unwrap } from './host-app';
import { visibleTools } from '../app/providers/deferred-tools';
import { corpusByServer } from './generators/real-tool-corpus';
import type { Measure } from './scale-table';

// One turn's tool-definition tokens with 2,000 tools enabled, with tool search (the fake model
// searches, loads and calls one tool: four requests) and without it (the conversation's tool
// search switched off: every definition in each request). Counted as Berth estimates them
// (serialized definitions / 4) on what the fake Messages API received, of the definitions the model
// reads (with deferred loading, every tool is listed and only the loaded one is read).

export const TOOL_SEARCH_TOOLS = 2_000;
const CORPUS_SERVER = fileURLToPath(new URL('../e2e/fixtures/servers/corpus-tools.mjs', import.meta.url));
const API_KEY = 'sk-ant-bench-tool-search';

export const TOOL_SEARCH_MEASURES: Measure[] = [
  {
    key: 'withoutPerRequest',
    label: 'without tool search: definitions per request (tokens, est.)',
    target: '',
    digits: 0,
  },
  {
    key: 'withMaxPerRequest',
    label: 'with tool search: largest request of the turn (tokens, est.)',
    target: `≤ ${TOOL_SEARCH_TOKEN_BUDGET.toLocaleString('en')}`,
    pass: (v) => v <= TOOL_SEARCH_TOKEN_BUDGET,
    digits: 0,
  },
  { key: 'withTurn', label: 'with tool search: the turn, 4 requests summed (tokens, est.)', target: '', digits: 0 },
  { key: 'withoutTurn', label: 'without: the same 4 requests (tokens, est.)', target: '', digits: 0 },
  { key: 'share', label: 'with / without, per turn', target: '', digits: 4 },
];

export async function toolSearchTokensRound(): Promise<Record<string, number>> {
  const fake = await FakeAnthropic.start({ apiKey: API_KEY });
  const configDir = await mkdtemp(join(tmpdir(), 'berth-bench-tool-search-'));
  let host: Host | undefined;
  try {
    const folder = join(configDir, 'corpus');
    await mkdir(folder);
    const servers: Record<string, { command: string; args: string[]; env: Record<string, string> }> = {};
    for (const [name, tools] of corpusByServer(TOOL_SEARCH_TOOLS)) {
      const file = join(folder, `${name}.json`);
      await writeFile(file, JSON.stringify(tools));
      servers[name] = { command: process.execPath, args: [CORPUS_SERVER], env: { BERTH_CORPUS_TOOLS: file } };
    }
    await writeFile(join(configDir, 'config.json'), JSON.stringify({ mcpServers: servers }, null, 2));
    host = await createHost({
      configDir,
      shell: 'browser',
      env: { ...process.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: API_KEY },
    });
    await allReady(host, Object.keys(servers));

    const step = { searchAndUse: { query: 'read a text file', input: { path: 'notes.txt' } } };
    const withSearch = unwrap<{ id: string }>(await host.dispatch('chat.create', {}));
    fake.script([step, step, step, step]);
    const first = turnDone(host, withSearch.id);
    unwrap(await host.dispatch('chat.send', { id: withSearch.id, text: 'What is in notes.txt?' }));
    await first;
    // What the model reads of the list: a deferred tool (Anthropic's native loading) only once a result loaded it.
    const searched = fake.requests.map((request) =>
      estimateTokens(JSON.stringify(visibleTools(request.body?.tools, request.body?.messages ?? []))),
    );

    // Without tool search every definition goes in every request: the ones the first request listed deferred
    // (Anthropic's native loading lists all enabled tools), without the flag. That request is measured, not sent:
    // 2,000 tools (≈ 293k tokens) do not fit a 200k window, and Berth's context keeper refuses it before it leaves.
    const all = (fake.requests[0]?.body?.tools ?? []).flatMap((tool) => {
      if (!('defer_loading' in tool) || tool.defer_loading !== true) return [];
      const { defer_loading: _deferred, ...definition } = tool;
      return [definition];
    });
    if (all.length !== TOOL_SEARCH_TOOLS)
      throw new Error(`expected ${TOOL_SEARCH_TOOLS} deferred tools in the first request, got ${all.length}`);
    const whole = estimateTokens(JSON.stringify(all));
    const withTurn = searched.reduce((sum, n) => sum + n, 0);
    return {
      withoutPerRequest: whole,
      withMaxPerRequest: Math.max(...searched),
      withTurn,
      withoutTurn: whole * searched.length,
      share: withTurn / (whole * searched.length),
    };
  } finally {
    await host?.shutdown();
    await fake.close();
    await rm(configDir, { recursive: true, force: true });
  }
}
