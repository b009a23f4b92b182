import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The tools of the real npm servers in the test set (server-everything, server-filesystem,
// server-memory: bench/fixtures/real-tools.json, written by scripts/capture-tool-corpus.ts),
// repeated with variations up to any number of tools: tool search's ranking corpus, and what
// the fixture servers of its integration test, e2e spec and bench row list.

/** A tool as an MCP server lists it. */
export interface CorpusTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; [key: string]: unknown };
}

/** One generated tool: which workspace server lists it, and the real tool it varies. */
export interface CorpusEntry {
  server: string;
  tool: CorpusTool;
  /** The real tool's name (e.g. `read_text_file`), whatever this copy's name style. */
  base: string;
  /** The real server it came from. */
  origin: 'everything' | 'filesystem' | 'memory';
}

const REAL: Record<CorpusEntry['origin'], CorpusTool[]> = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'real-tools.json'), 'utf8'),
);

/** The 36 real tools, in a fixed order. */
export const REAL_TOOLS: ReadonlyArray<{ origin: CorpusEntry['origin']; tool: CorpusTool }> = (
  ['everything', 'filesystem', 'memory'] as const
).flatMap((origin) => REAL[origin].map((tool) => ({ origin, tool })));

/** Copies per workspace server: each gets its own project word in names and descriptions. */
const COPIES_PER_SERVER = 4;
const PROJECTS = ['', 'billing', 'photos', 'research'];

function words(name: string): string[] {
  return name.split(/[-_]/);
}

/** The k-th copy's name for a tool: the real name, then kebab, camelCase and snake styles behind a project word. */
function styledName(name: string, copy: number): string {
  const project = PROJECTS[copy % COPIES_PER_SERVER] ?? '';
  const parts = words(name);
  const style = Math.floor(copy / COPIES_PER_SERVER) % 3;
  if (project === '') return name;
  if (style === 0) return [project, ...parts].join('_');
  if (style === 1) return [project, ...parts].join('-');
  return [project, ...parts]
    .map((part, index) => (index === 0 ? part : `${part[0]?.toUpperCase() ?? ''}${part.slice(1)}`))
    .join('');
}

/** The workspace server of the k-th copy: `ws-00`, `ws-01`, … (four copies each). */
export function corpusServerName(copy: number): string {
  return `ws-${String(Math.floor(copy / COPIES_PER_SERVER)).padStart(2, '0')}`;
}

/**
 * `count` tools (2,000 by default): copy after copy of the 36 real tools. Copy 0 keeps the real
 * names; the others put a project word in front of the name (in snake, kebab or camel case) and
 * say the project in the description. Four copies share a workspace server, so 2,000 tools are
 * 14 servers of up to 144.
 */
export function generateCorpus(count = 2_000): CorpusEntry[] {
  const entries: CorpusEntry[] = [];
  for (let index = 0; index < count; index++) {
    const copy = Math.floor(index / REAL_TOOLS.length);
    const real = REAL_TOOLS[index % REAL_TOOLS.length]!;
    const project = PROJECTS[copy % COPIES_PER_SERVER] ?? '';
    const tool: CorpusTool = {
      ...real.tool,
      name: styledName(real.tool.name, copy),
      ...(real.tool.description !== undefined && project !== ''
        ? { description: `${real.tool.description} (In the ${project} workspace.)` }
        : {}),
    };
    entries.push({ server: corpusServerName(copy), tool, base: real.tool.name, origin: real.origin });
  }
  return entries;
}

/** The generated tools grouped by workspace server. */
export function corpusByServer(count = 2_000): Map<string, CorpusTool[]> {
  const byServer = new Map<string, CorpusTool[]>();
  for (const { server, tool } of generateCorpus(count)) {
    const list = byServer.get(server) ?? [];
    list.push(tool);
    byServer.set(server, list);
  }
  return byServer;
}
