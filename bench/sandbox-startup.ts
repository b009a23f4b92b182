import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHost } from '../app/host';
import { sandboxSupport } from '../app/sandbox/sandbox-runtime';
import { ECHO_SERVER } from './clients';
import { allReady } from './host-app';
import { fixed, markdownTable, median, ratio } from './stats';

export interface SandboxStartupResult {
  servers: number;
  rounds: number;
  plainMs: number[];
  sandboxedMs: number[];
}

/**
 * `servers` stdio echo servers started by a fresh host (createHost → all
 * ready), once as they are and once each in the OS sandbox (sandbox.json
 * sets every one on, no network). Alternating rounds; medians compared.
 * Undefined (with the reason) where the sandbox is unavailable.
 */
export async function benchSandboxStartup(servers: number, rounds: number): Promise<SandboxStartupResult | string> {
  const support = await sandboxSupport();
  if (!support.available) return `not measured: the sandbox is unavailable here (${support.reason ?? '?'})`;
  const names = Array.from({ length: servers }, (_, index) => `echo-${index + 1}`);
  const plainMs: number[] = [];
  const sandboxedMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const sandboxedFirst = round % 2 === 1;
    if (sandboxedFirst) sandboxedMs.push(await hostRound(names, true));
    plainMs.push(await hostRound(names, false));
    if (!sandboxedFirst) sandboxedMs.push(await hostRound(names, true));
  }
  return { servers, rounds, plainMs, sandboxedMs };
}

async function hostRound(names: readonly string[], sandboxed: boolean): Promise<number> {
  const configDir = await mkdtemp(join(tmpdir(), 'berth-bench-sandbox-'));
  await writeFile(
    join(configDir, 'config.json'),
    JSON.stringify({
      mcpServers: Object.fromEntries(names.map((name) => [name, { command: process.execPath, args: [ECHO_SERVER] }])),
    }),
  );
  if (sandboxed) {
    const on = { enabled: true, allowedFolders: [], allowedDomains: [], offered: true };
    await writeFile(
      join(configDir, 'sandbox.json'),
      JSON.stringify({ version: 1, servers: Object.fromEntries(names.map((name) => [name, on])) }),
    );
  }
  const started = performance.now();
  const host = await createHost({ configDir, shell: 'browser', env: process.env });
  try {
    await allReady(host, names);
    return performance.now() - started;
  } finally {
    await host.shutdown();
    await rm(configDir, { recursive: true, force: true });
  }
}

/** The section's markdown: the table, or why it was not measured. */
export function sandboxStartupMarkdown(result: SandboxStartupResult | string, servers: number): string[] {
  const intro =
    `Berth: createHost on a fresh config dir listing ${servers} stdio echo servers until all report ready, without the sandbox and with every server in it ` +
    '(bubblewrap via @anthropic-ai/sandbox-runtime: its proxies started once per host, one wrap per server, no network, own folders created).';
  if (typeof result === 'string') return [intro, result];
  const plain = median(result.plainMs);
  const sandboxed = median(result.sandboxedMs);
  return [
    `${intro} ${result.rounds} alternating round(s); medians compared.`,
    markdownTable(
      ['start-up', 'rounds (ms)', 'median ms', 'vs unsandboxed'],
      [
        [
          `${servers} servers, no sandbox`,
          result.plainMs.map((ms) => fixed(ms, 0)).join(', '),
          fixed(plain, 0),
          '1.00×',
        ],
        [
          `${servers} servers, each sandboxed`,
          result.sandboxedMs.map((ms) => fixed(ms, 0)).join(', '),
          fixed(sandboxed, 0),
          ratio(sandboxed, plain),
        ],
      ],
    ),
    'Target: sandboxed ≤ 1.3× the unsandboxed start-up (time, lower is better).',
  ];
}
