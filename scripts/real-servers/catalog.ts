import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mask } from './judge';

// The real servers `npm run test:servers` runs, each pinned in tools/real-servers/package.json (with its lockfile):
// how to start it, and the one read-only call made with the same arguments through Berth and through a bare client.

/** What every server's start and call may use: made once per run, shared by both sides. */
export interface RunPlaces {
  /** Where tools/real-servers is installed (its node_modules). */
  installDir: string;
  /** A folder of plain files both sides read (server-filesystem, Desktop Commander). */
  filesDir: string;
  /** A git repository with one commit. */
  repoDir: string;
  /** A memory graph file (JSON lines) server-memory reads. */
  memoryFile: string;
  /** A kubeconfig naming a cluster nobody listens at. */
  kubeconfig: string;
  /** Where the browser servers write their own files (traces, profiles, screenshots). */
  outputDir: string;
  /** The machine's Chromium (app/cli/browser-lookup.mjs), when there is one. */
  browser: string | undefined;
}

/** How a server is started: always `node <its bin> …args`, so no npx or download happens during the run. */
export interface StartCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface RealServer {
  /** Its name in Berth's config and in the table. */
  name: string;
  /** The npm package, as pinned in tools/real-servers/package.json. */
  pkg: string;
  start(places: RunPlaces): StartCommand;
  /** The read-only call. */
  call(places: RunPlaces): { tool: string; arguments: Record<string, unknown> };
  /** What may differ between two runs of the same call (a clock, a fresh id), replaced by its name before comparing. */
  masks: readonly Mask[];
  /** Why this server cannot run on this machine (none: it can). */
  unavailable?(places: RunPlaces): string | undefined;
}

/** The entry file of an installed package: its `bin` (the first, or the one named). */
export function binOf(installDir: string, pkg: string, binName?: string): string {
  const dir = join(installDir, 'node_modules', pkg);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin =
    typeof manifest.bin === 'string'
      ? manifest.bin
      : binName !== undefined
        ? manifest.bin?.[binName]
        : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${pkg} has no bin${binName === undefined ? '' : ` named ${binName}`}`);
  return join(dir, bin);
}

/** The installed version of a package (what the table reports); undefined when it is not installed. */
export function versionOf(installDir: string, pkg: string): string | undefined {
  const manifest = join(installDir, 'node_modules', pkg, 'package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

const node = (places: RunPlaces, pkg: string, args: string[], env: Record<string, string> = {}): StartCommand => ({
  command: process.execPath,
  args: [binOf(places.installDir, pkg), ...args],
  env,
});

/** An ISO 8601 time, as servers print their clocks. */
const ISO_TIME: Mask = {
  name: 'iso-time',
  pattern: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?/g,
};
const noBrowser = (places: RunPlaces): string | undefined =>
  places.browser === undefined ? 'no Chromium, Chrome or Edge on this machine (set BERTH_BROWSER)' : undefined;

export const REAL_SERVERS: readonly RealServer[] = [
  {
    name: 'filesystem',
    pkg: '@modelcontextprotocol/server-filesystem',
    start: (places) => node(places, '@modelcontextprotocol/server-filesystem', [places.filesDir]),
    call: (places) => ({ tool: 'read_text_file', arguments: { path: join(places.filesDir, 'notes.md') } }),
    masks: [],
  },
  {
    name: 'memory',
    pkg: '@modelcontextprotocol/server-memory',
    start: (places) => node(places, '@modelcontextprotocol/server-memory', [], { MEMORY_FILE_PATH: places.memoryFile }),
    call: () => ({ tool: 'read_graph', arguments: {} }),
    masks: [],
  },
  {
    name: 'thinking',
    pkg: '@modelcontextprotocol/server-sequential-thinking',
    start: (places) => node(places, '@modelcontextprotocol/server-sequential-thinking', []),
    call: () => ({
      tool: 'sequentialthinking',
      arguments: { thought: 'Compare two clients.', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false },
    }),
    masks: [],
  },
  {
    name: 'everything',
    pkg: '@modelcontextprotocol/server-everything',
    start: (places) => node(places, '@modelcontextprotocol/server-everything', ['stdio']),
    call: () => ({ tool: 'get-sum', arguments: { a: 19, b: 23 } }),
    masks: [],
  },
  {
    name: 'playwright',
    pkg: '@playwright/mcp',
    start: (places) =>
      node(places, '@playwright/mcp', [
        '--browser=chromium',
        `--executable-path=${places.browser ?? ''}`,
        '--headless',
        '--isolated',
        '--no-sandbox',
        `--output-dir=${join(places.outputDir, 'playwright')}`,
      ]),
    call: () => ({
      tool: 'browser_navigate',
      arguments: { url: 'data:text/html,<title>Berth</title><h1>Hello from Berth</h1>' },
    }),
    // Playwright MCP names the snapshot file it saved after the time it saved it.
    masks: [{ name: 'snapshot-file-time', pattern: /page-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z/g }],
    unavailable: noBrowser,
  },
  {
    name: 'devtools',
    pkg: 'chrome-devtools-mcp',
    start: (places) =>
      node(places, 'chrome-devtools-mcp', [
        `--executablePath=${places.browser ?? ''}`,
        '--headless',
        '--isolated',
        '--no-usage-statistics',
        '--chrome-arg=--no-sandbox',
        '--chrome-arg=--disable-dev-shm-usage',
      ]),
    call: () => ({ tool: 'list_pages', arguments: {} }),
    masks: [],
    unavailable: noBrowser,
  },
  {
    name: 'commander',
    pkg: '@wonderwhy-er/desktop-commander',
    start: (places) => node(places, '@wonderwhy-er/desktop-commander', ['--no-onboarding']),
    call: (places) => ({ tool: 'list_directory', arguments: { path: places.filesDir } }),
    masks: [],
  },
  {
    name: 'git',
    pkg: '@cyanheads/git-mcp-server',
    start: (places) =>
      node(places, '@cyanheads/git-mcp-server', [], {
        MCP_TRANSPORT_TYPE: 'stdio',
        MCP_LOG_LEVEL: 'error',
        GIT_BASE_DIR: places.repoDir,
      }),
    call: (places) => ({ tool: 'git_log', arguments: { path: places.repoDir, maxCount: 1 } }),
    masks: [ISO_TIME],
  },
  {
    name: 'apps',
    pkg: '@modelcontextprotocol/server-basic-vanillajs',
    start: (places) => node(places, '@modelcontextprotocol/server-basic-vanillajs', ['--stdio']),
    call: () => ({ tool: 'get-time', arguments: {} }),
    masks: [ISO_TIME],
  },
  // Servers of online services: they start and list their tools offline; their call needs the service (a network, a
  // database, a cluster, a key), so it fails the same way in both clients, which is what is compared.
  {
    name: 'context7',
    pkg: '@upstash/context7-mcp',
    start: (places) => node(places, '@upstash/context7-mcp', []),
    call: () => ({ tool: 'resolve-library-id', arguments: { libraryName: 'react', query: 'hooks' } }),
    masks: [],
  },
  {
    name: 'mongodb',
    pkg: 'mongodb-mcp-server',
    start: (places) => node(places, 'mongodb-mcp-server', [], { MDB_MCP_TELEMETRY: 'disabled' }),
    call: () => ({ tool: 'list-databases', arguments: {} }),
    masks: [],
  },
  {
    name: 'notion',
    pkg: '@notionhq/notion-mcp-server',
    start: (places) => node(places, '@notionhq/notion-mcp-server', []),
    call: () => ({ tool: 'API-get-self', arguments: {} }),
    masks: [],
  },
  {
    name: 'kubernetes',
    pkg: 'mcp-server-kubernetes',
    start: (places) => node(places, 'mcp-server-kubernetes', [], { KUBECONFIG: places.kubeconfig }),
    call: () => ({ tool: 'ping', arguments: {} }),
    masks: [],
  },
];
