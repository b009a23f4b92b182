import type { Observation, Verdict } from './judge';

// docs/COMPATIBILITY.md: the table `npm run test:servers` writes, one row per real server.

export interface ReportRow {
  server: string;
  pkg: string;
  version: string;
  /** The tool the read-only call called. */
  tool: string;
  /** Why the server was not run on this machine (then nothing else is set). */
  skipped?: string;
  bare?: Observation;
  berth?: Observation;
  verdict?: Verdict;
}

export interface ReportMeta {
  /** When the run ended (ISO 8601). */
  when: string;
  /** Where: OS, architecture, Node, cores. */
  where: string;
  seconds: number;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function readyCell(observation: Observation | undefined): string {
  if (observation === undefined) return '–';
  return observation.ready ? 'yes' : `no: ${observation.failure ?? 'no reason given'}`;
}

function eraCell(observation: Observation | undefined): string {
  if (observation?.ready !== true) return '–';
  return `${observation.era ?? '?'} (${observation.protocolVersion ?? '?'})`;
}

function callCell(tool: string, observation: Observation | undefined): string {
  const call = observation?.call;
  if (call === undefined) return '–';
  if ('error' in call) return `\`${tool}\` failed: ${call.error}`;
  const chars = JSON.stringify(call.result.content).length;
  return `\`${tool}\`: ${call.result.isError ? 'tool error' : 'ok'}, ${call.result.content.length} block(s), ${chars.toLocaleString('en-US')} chars${call.result.structuredContent === undefined ? '' : ' + structured'}`;
}

function verdictCell(row: ReportRow): string {
  if (row.skipped !== undefined) return `not run: ${row.skipped}`;
  const verdict = row.verdict;
  if (verdict === undefined) return '–';
  if (verdict.kind === 'same') return 'yes';
  if (verdict.kind === 'failed-in-both') return `failed in both (not Berth's): ${verdict.reason}`;
  return `**no**: ${verdict.differences.join('; ')}`;
}

/** Whether the run found Berth differing from the bare client anywhere. */
export function anyDifference(rows: readonly ReportRow[]): boolean {
  return rows.some((row) => row.verdict?.kind === 'different');
}

export function renderReport(rows: readonly ReportRow[], meta: ReportMeta): string {
  const lines = [
    '# Compatibility with real MCP servers',
    '',
    'Written by `npm run test:servers` (scripts/test-servers.mjs); do not edit by hand. Each server below, pinned in',
    'tools/real-servers/package.json, was started in one Berth host (createHost, as the app builds it) and, for',
    'comparison, by a bare MCP SDK v2 client on the same command with the same client name and capabilities. Both made',
    'the same read-only call: Berth through a conversation (a local fake model asks for the tool, the consent question',
    'is answered "allow once", the result is the one the tool card receives), the bare client directly. Compared: ready',
    'or not, the era and protocol version, every tool name with its input and output schema, and the call result',
    '(content, structuredContent, isError; JSON in text compared as JSON; the masks a server names, such as a clock,',
    'replaced first). A call the server answered with a JSON-RPC error reaches the model as a tool error carrying that',
    'error\'s text (a chat host must answer the model): that is the same outcome. "Failed in both" is a server or',
    'machine problem, not a Berth one. A bare client that did not get ready where Berth did is tried once more, alone',
    '(a loaded machine can starve thirteen cold starts at once); Berth gets no second try.',
    '',
    `Measured ${meta.when} on ${meta.where}, in ${meta.seconds} s.`,
    '',
    '| server | version | ready (Berth) | era (Berth) | tools (Berth) | call (Berth) | same as bare SDK |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    lines.push(
      `| ${[
        `${row.server} (\`${row.pkg}\`)`,
        row.version,
        readyCell(row.berth),
        eraCell(row.berth),
        row.berth?.ready === true ? String(row.berth.tools.length) : '–',
        callCell(row.tool, row.berth),
        verdictCell(row),
      ]
        .map(cell)
        .join(' | ')} |`,
    );
  }
  const same = rows.filter((row) => row.verdict?.kind === 'same').length;
  const different = rows.filter((row) => row.verdict?.kind === 'different').length;
  lines.push('', `${same} of ${rows.length} the same as the bare client; ${different} different.`, '');
  return lines.join('\n');
}
