/**
 * `npm run bench`: runs every benchmark, prints each table, and writes
 * docs/BENCHMARKS.md with the machine it ran on. Not part of `npm test`.
 * `npm run bench -- tools bridge startup flood viewer` runs a subset (the doc then
 * lists only those), as does `--only <section or row>` (repeatable); the heavy user's
 * rows are first-screen, conversation-list, startup-conversations,
 * long-conversation, tool-switches, send-message, stream-reply, many-servers, tool-search, prompt-cache, prompt-cache-search, send-to-request and full-text-search. `--quick` shrinks every series for a smoke run.
 * Run with `node --expose-gc --import tsx bench/run.ts` (the npm script does).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { connectBareV1, connectBareV2, ECHO_SERVER, type BenchClient } from './clients';
import { openHostCore } from './host-core';
import { allReady, bridgeClient, dispatchClient, openWholeHost } from './host-app';
import { benchLogFlood } from './log-flood';
import { runScaleRow, SCALE_ROW_IDS } from './scale-rows';
import { benchStartup } from './startup';
import { benchSandboxStartup, sandboxStartupMarkdown } from './sandbox-startup';
import { fixed, markdownTable, ratio } from './stats';
import { compareRounds, type SeriesPlan, type SeriesResult } from './tool-calls';

const SECTIONS = ['tools', 'bridge', 'startup', 'sandbox-startup', 'flood', 'viewer', ...SCALE_ROW_IDS] as const;
type Section = (typeof SECTIONS)[number];
const DOC = fileURLToPath(new URL('../docs/BENCHMARKS.md', import.meta.url));
/** Everything from this heading on is written by people and kept across runs. */
const FINDINGS_HEADING = '## Findings';

// `--only <row>` is the same as naming the row: drop the flag, keep its value.
const args = process.argv.slice(2).filter((arg) => arg !== '--only');
if (process.argv.at(-1) === '--only') {
  console.error(`--only needs a row: one of ${SECTIONS.join(', ')}`);
  process.exit(2);
}
const quick = args.includes('--quick');
const unknown = args.filter((arg) => arg !== '--quick' && !(SECTIONS as readonly string[]).includes(arg));
if (unknown.length > 0) {
  console.error(
    `unknown argument(s): ${unknown.join(', ')}; expected any of ${SECTIONS.join(', ')}, --only <row> and --quick`,
  );
  process.exit(2);
}
const chosen = args.filter((arg): arg is Section => (SECTIONS as readonly string[]).includes(arg));
const sections: readonly Section[] = chosen.length > 0 ? chosen : SECTIONS;

const ROUNDS = quick ? 1 : 3;
const SEQUENTIAL: SeriesPlan = { calls: quick ? 200 : 1000, warmup: quick ? 50 : 200, concurrency: 1 };
const IN_FLIGHT: SeriesPlan = { calls: quick ? 1000 : 4000, warmup: quick ? 200 : 500, concurrency: 100 };

const report: string[] = [];
function emit(markdown: string): void {
  console.log(`${markdown}\n`);
  report.push(markdown);
}

function seriesTable(results: readonly SeriesResult[], baseline: SeriesResult): string {
  return markdownTable(
    [
      'client',
      'in flight',
      'calls (warmup)',
      'calls/s',
      'vs baseline',
      'p50 ms',
      'p99 ms',
      'max ms',
      'CPU µs/call (bench process)',
    ],
    results.map((result) => [
      result.label,
      String(result.concurrency),
      `${result.calls} (${result.warmup})`,
      fixed(result.callsPerSecond, 0),
      ratio(result.callsPerSecond, baseline.callsPerSecond),
      fixed(result.latency.p50Ms),
      fixed(result.latency.p99Ms),
      fixed(result.latency.maxMs),
      fixed(result.cpuMicrosPerCall, 0),
    ]),
  );
}

async function benchTools(): Promise<void> {
  const bare = await connectBareV2();
  const core = await openHostCore();
  const v1 = await connectBareV1();
  const contenders: BenchClient[] = [bare, core, ...(typeof v1 === 'string' ? [] : [v1])];
  try {
    emit('## (a) Tool calls through the host core vs a bare SDK client');
    emit(
      'Each call: `tools/call echo {text}` to bench/fixtures/echo-server.mjs over stdio, reply checked. ' +
        "Berth: ConsentBroker.approveToolCall (stored server-wide allow policy, audit line written) → RunningToolCalls.tag/run → ServerSupervisor.callTool → ServerConnection (Berth's ProcessStdioTransport, every message traced into the LogHub, LogHub writing log files and emitting `logs.appended`). " +
        `Baseline: SDK v2 Client with \`versionNegotiation: auto\` on StdioClientTransport. ${ROUNDS} alternating round(s); the best round of each is shown. ` +
        "The CPU column is the bench process's CPU time (user + system) over the measured calls of that round, per call: client and host together, the servers' processes not counted. On a shared machine it moves far less than calls/s." +
        (typeof v1 === 'string' ? ` v1 reference not measured: ${v1}.` : ''),
    );
    for (const plan of [SEQUENTIAL, IN_FLIGHT]) {
      const results = await compareRounds(contenders, (client) => client.callEcho, plan, ROUNDS);
      emit(seriesTable(results, results[0] as SeriesResult));
    }
    emit(
      `Target: Berth ≥ 0.85× the bare v2 client's calls/s. Log batches emitted during the run: ${core.logBatches()}.`,
    );
  } finally {
    await Promise.all(contenders.map((client) => client.close()));
  }
}

async function benchBridge(): Promise<void> {
  const bare = await connectBareV2();
  const whole = await openWholeHost({ echo: { command: process.execPath, args: [ECHO_SERVER] } });
  let bridge: BenchClient | undefined;
  try {
    await allReady(whole.host, ['echo']);
    bridge = await bridgeClient(whole.host, 'echo');
    const contenders = [bare, dispatchClient(whole.host, 'echo'), bridge];
    emit('## (b) The browser-mode WebSocket bridge');
    emit(
      'No contract method calls a tool (only the chat engine does), so this measures the closest round trip the renderer can make that reaches a server: ' +
        '`prompts.get` (prompt `echo`) — WebSocket call message → ws-server → contract router (zod input and output validation) → PromptCatalogService → SDK client → stdio → server, and the reply back over the socket. ' +
        'The whole host is running (createHost: log files, tracing, events). Baseline: a bare SDK v2 client calling `prompts/get` directly; the in-process `host.dispatch` row separates the router from the socket. ' +
        "The WebSocket client runs in a child process (bench/fixtures/bridge-client.mjs), as the browser does in the app, so the bridge row's CPU column is Berth's host alone; the other rows' CPU columns count their client in the bench process too.",
    );
    for (const plan of [SEQUENTIAL, IN_FLIGHT]) {
      const results = await compareRounds(contenders, (client) => client.getEchoPrompt, plan, ROUNDS);
      emit(seriesTable(results, results[0] as SeriesResult));
    }
    emit("Target: the WebSocket bridge ≥ 0.65× the bare v2 client's calls/s with 100 in flight.");
  } finally {
    await bridge?.close();
    await bare.close();
    await whole.dispose();
  }
}

async function benchStartupSection(): Promise<void> {
  const servers = 20;
  const result = await benchStartup(servers, quick ? 1 : 3);
  emit(`## (c) ${servers} stdio servers started together`);
  emit(
    "Berth: createHost on a fresh config dir listing the servers (nothing remembered, so every server is probed like the bare client's `auto` negotiation) until all report ready. " +
      `Bare: ${servers} SDK v2 clients connecting in parallel. ${result.rounds} alternating round(s); medians compared.`,
  );
  emit(
    markdownTable(
      ['starter', 'rounds (ms)', 'median ms', 'vs baseline'],
      [
        [
          `${servers} bare SDK v2 clients`,
          result.bareMs.map((ms) => fixed(ms, 0)).join(', '),
          fixed(result.bareMedianMs, 0),
          '1.00×',
        ],
        [
          'Berth host (createHost → all ready)',
          result.hostMs.map((ms) => fixed(ms, 0)).join(', '),
          fixed(result.hostMedianMs, 0),
          ratio(result.hostMedianMs, result.bareMedianMs),
        ],
      ],
    ),
  );
  emit('Target: Berth ≤ 1.3× the bare clients (time, lower is better).');
}

async function benchSandboxStartupSection(): Promise<void> {
  const servers = 20;
  emit(`## (c2) ${servers} stdio servers started together, sandboxed vs not`);
  for (const markdown of sandboxStartupMarkdown(await benchSandboxStartup(servers, quick ? 1 : 3), servers))
    emit(markdown);
}

async function benchFloodSection(): Promise<void> {
  const rate = 50_000;
  const seconds = quick ? 3 : 10;
  const result = await benchLogFlood(rate, seconds);
  emit(`## (d) Log flood: ${rate} stderr lines/s for ${seconds} s`);
  emit(
    'One server writes the lines to stderr (waiting for the pipe to drain, so a host that cannot keep up slows it instead of being measured on a lie); the whole host (createHost) splits, stores (ring buffers + log files) and batches them into `logs.appended`. Memory is this process, sampled every 100 ms.',
  );
  emit(
    markdownTable(
      ['measure', 'value'],
      [
        ['lines written by the server', String(result.linesSent)],
        ['lines in logs.appended events', `${result.linesDelivered} (${fixed(result.deliveredLinesPerSecond, 0)}/s)`],
        [
          'logs.appended batches',
          `${result.batches} (${fixed(result.batchesPerSecond, 1)}/s on average, busiest second ${result.peakBatchesInOneSecond})`,
        ],
        ['largest batch (entries)', String(result.maxBatchEntries)],
        [
          'RSS before → peak (MB)',
          `${fixed(result.rssBeforeMb, 0)} → ${fixed(result.rssPeakMb, 0)} (+${fixed(result.rssPeakMb - result.rssBeforeMb, 0)})`,
        ],
        [
          'JS heap before → peak (MB)',
          `${fixed(result.heapBeforeMb, 0)} → ${fixed(result.heapPeakMb, 0)} (+${fixed(result.heapPeakMb - result.heapBeforeMb, 0)})`,
        ],
        [
          'JS heap after the flood, after GC (MB)',
          result.heapAfterGcMb === undefined
            ? 'not measured (run without --expose-gc)'
            : fixed(result.heapAfterGcMb, 0),
        ],
        ['event-loop lag p99 during the flood (ms)', fixed(result.timerLagP99Ms, 1)],
      ],
    ),
  );
}

async function benchViewerSection(): Promise<void> {
  emit('## (e) The log viewer in Chromium');
  // Loaded only here: the other sections should not pay for playwright-core.
  const { benchLogViewer, logViewerUnavailable, SEARCH_DEBOUNCE_MS } = await import('./log-viewer');
  const unavailable = logViewerUnavailable();
  if (unavailable !== undefined) {
    emit(`Not measured in this run: ${unavailable}.`);
    return;
  }
  const rate = 50_000;
  const seconds = quick ? 2 : 6;
  const result = await benchLogViewer(rate, seconds);
  emit(
    `The built app in browser mode (as \`npm start\` runs it) and its real renderer in headless Chromium (${'`'}--disable-gpu${'`'}, 1280×800), on the Logs view. One server writes ${rate} stderr lines/s for ${seconds} s while the view follows the tail; frame intervals come from a requestAnimationFrame loop in the page. Then, with every line loaded, searches are typed into the search box (an input event, as from a key) and timed in the page until a frame shows the new "N shown" count; the box waits ${SEARCH_DEBOUNCE_MS} ms after the last key by design, so the filter's own cost is the total minus that. Last, the list is scrolled up 600 px a frame for 120 frames.`,
  );
  const totals = result.filterTotalsMs.map((ms) => fixed(ms, 0)).join(', ');
  const applied = result.filterAppliedMs.map((ms) => fixed(ms, 0)).join(', ');
  emit(
    markdownTable(
      ['measure', 'value'],
      [
        ['rows in the viewer after the flood', result.rows.toLocaleString('en')],
        [
          'frames while following the flood',
          `${result.floodFrames}: p50 ${fixed(result.floodFrameP50Ms, 1)} ms, p95 ${fixed(result.floodFrameP95Ms, 1)} ms, max ${fixed(result.floodFrameMaxMs, 0)} ms`,
        ],
        ['search typed → filtered rows painted (ms; 4 searches)', totals],
        [`the same without the ${SEARCH_DEBOUNCE_MS} ms debounce (ms)`, applied],
        [
          'frames while scrolling',
          `${result.scrollFrames}: p50 ${fixed(result.scrollFrameP50Ms, 1)} ms, p95 ${fixed(result.scrollFrameP95Ms, 1)} ms, max ${fixed(result.scrollFrameMaxMs, 0)} ms`,
        ],
      ],
    ),
  );
  emit(`Target: a text filter over ${result.rows.toLocaleString('en')} rows applied in < 100 ms (after the debounce).`);
}

function machine(): string {
  const cpu = cpus();
  return markdownTable(
    ['machine', ''],
    [
      ['CPU', `${cpu[0]?.model.trim() ?? 'unknown'}`],
      ['cores', String(cpu.length)],
      ['RAM', `${fixed(totalmem() / 1024 ** 3, 1)} GiB`],
      ['Node', process.version],
      ['platform', `${process.platform} ${process.arch}`],
      [
        'load average at start (1/5/15 min)',
        loadavg()
          .map((value) => fixed(value, 2))
          .join(' / '),
      ],
      ['date', new Date().toISOString()],
      ['mode', quick ? '--quick (smoke run: short series, one round)' : 'full'],
    ],
  );
}

function keptFindings(): string {
  if (!existsSync(DOC)) return `${FINDINGS_HEADING}\n\n(none written yet)\n`;
  const text = readFileSync(DOC, 'utf8');
  const at = text.indexOf(`\n${FINDINGS_HEADING}`);
  return at === -1 ? `${FINDINGS_HEADING}\n\n(none written yet)\n` : text.slice(at + 1);
}

async function main(): Promise<void> {
  emit(machine());
  const scale = Object.fromEntries(SCALE_ROW_IDS.map((id) => [id, () => runScaleRow(id, ROUNDS, emit)])) as Record<
    (typeof SCALE_ROW_IDS)[number],
    () => Promise<void>
  >;
  const runners: Record<Section, () => Promise<void>> = {
    tools: benchTools,
    bridge: benchBridge,
    startup: benchStartupSection,
    'sandbox-startup': benchSandboxStartupSection,
    flood: benchFloodSection,
    viewer: benchViewerSection,
    ...scale,
  };
  for (const section of sections) await runners[section]();
  const header = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts); do not edit above the Findings heading. The machine is shared and noisy: compare the ratios within one run, not absolute numbers across runs.',
    '',
  ].join('\n');
  writeFileSync(DOC, `${header}\n${report.join('\n\n')}\n\n${keptFindings()}`);
  console.log(`wrote ${DOC}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
