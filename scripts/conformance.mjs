// `npm run conformance`: the official MCP conformance CLIENT suites against
// Berth's own connection code (scripts/conformance-client.ts). Runs with tsx
// loaded (`node --import tsx scripts/conformance.mjs`), for conformance-results.ts.
//
//   npm run conformance                 every scenario of both suite versions; writes docs/CONFORMANCE.md
//   npm run conformance -- --check      every scenario, no report written (part of `npm test`)
//   npm run conformance -- --core       no auth/* scenarios, no report written (a quicker check)
//   npm run conformance -- --update     also rewrites test/conformance-expected.json from this (full) run
//
// The suites (@modelcontextprotocol/conformance 0.2.0-alpha.12 and 0.1.16)
// need Node 22. They live with an npm-packaged Node 22 in tools/conformance,
// a separate package installed here on first use (npm ci, once per lockfile):
// in Berth's own node_modules the `node` package would link a `node` binary
// into node_modules/.bin and every npm script would run on Node 22. The
// adapter the suites start runs on this Node, like the host itself.
//
// Each scenario runs on its own (two at a time: CI has two cores) and its
// checks.json is read back. A scenario passes when it has at least one check
// and none failed; it is skipped when every check was skipped (the feature is
// not there to be judged). Exits non-zero only when a scenario listed in
// test/conformance-expected.json does not pass: a regression.
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installToolsOnce } from './tools-install.mjs';
import { compareWithExpected, expectationsFrom, judgeScenario, renderReport } from './conformance-results.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, 'tools', 'conformance');
const expectedFile = join(root, 'test', 'conformance-expected.json');
const reportFile = join(root, 'docs', 'CONFORMANCE.md');
const adapter = join(root, 'scripts', 'conformance-client.ts');
const SUITES = ['conformance-0.2', 'conformance-0.1'];
const CONCURRENCY = 2;
/** The suite's own per-scenario limit for the client process, in ms. */
const SCENARIO_TIMEOUT_MS = 30_000;

const args = new Set(process.argv.slice(2));
const core = args.has('--core');
const check = args.has('--check');
const update = args.has('--update');
for (const arg of args) if (!['--core', '--check', '--update'].includes(arg)) usage(`unknown option ${arg}`);
if ((core || check) && update)
  usage('--update records the passes of a full run and writes the report; leave out --core and --check');

function usage(problem) {
  process.stderr.write(`conformance: ${problem}\nusage: npm run conformance [-- --check | --core | --update]\n`);
  process.exit(2);
}

function fail(message) {
  process.stderr.write(`conformance: ${message}\n`);
  process.exit(2);
}

/** tools/conformance installed for its current lockfile (npm ci once, then a stamp). */
function ensureTools() {
  const problem = installToolsOnce(
    toolsDir,
    'Installing the conformance suites and Node 22 (tools/conformance: npm ci)…',
  );
  if (problem !== undefined) fail(problem);
  const node22 = join(toolsDir, 'node_modules', 'node22', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  const version = spawnSync(node22, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0 || !/^v22\./.test(version.stdout)) {
    fail(
      `${relative(root, node22)} is not a working Node 22 (${version.error?.message ?? version.stdout.trim()}); its install script (node@22's preinstall) may have been skipped`,
    );
  }
  return node22;
}

function suiteInfo(name) {
  const dir = join(toolsDir, 'node_modules', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return { name, version: pkg.version, cli: join(dir, pkg.bin?.conformance ?? 'dist/index.js') };
}

/** The client scenarios a suite version knows, from its own `list --client`. */
function clientScenarios(node22, suite) {
  const listed = spawnSync(node22, [suite.cli, 'list', '--client'], { encoding: 'utf8' });
  if (listed.status !== 0) fail(`${suite.name} list --client failed: ${listed.stderr}`);
  return [...listed.stdout.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
}

function findChecks(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      const found = findChecks(path);
      if (found !== undefined) return found;
    } else if (entry === 'checks.json') {
      return path;
    }
  }
  return undefined;
}

/** The adapter's error line (`<scenario>: <message>`) from the stderr.txt next to checks.json. */
function clientError(checksFile, scenario) {
  if (checksFile === undefined) return undefined;
  const file = join(dirname(checksFile), 'stderr.txt');
  if (!existsSync(file)) return undefined;
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((text) => text.startsWith(`${scenario}: `));
  return line?.slice(scenario.length + 2);
}

/** What the adapter said it connected with (`connected over <transport>: protocol <version> …`), e.g. "2026-07-28, streamable-http". */
function connectedWith(checksFile) {
  if (checksFile === undefined) return '';
  const file = join(dirname(checksFile), 'stdout.txt');
  if (!existsSync(file)) return '';
  const match = /^connected over (\S+): protocol (\S+)/m.exec(readFileSync(file, 'utf8'));
  return match === null ? '' : `${match[2]}, ${match[1]}`;
}

/** One scenario through the suite's CLI, on Node 22, with the adapter on this Node. */
function runScenario(node22, suite, scenario) {
  const out = mkdtempSync(join(tmpdir(), 'berth-conformance-'));
  const command = `"${process.execPath}" --import tsx "${adapter}"`;
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      node22,
      [
        suite.cli,
        'client',
        '--command',
        command,
        '--scenario',
        scenario,
        '--timeout',
        String(SCENARIO_TIMEOUT_MS),
        '-o',
        out,
      ],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      const ms = Date.now() - started;
      const checksFile = findChecks(out);
      let verdict;
      try {
        const checks = checksFile === undefined ? [] : JSON.parse(readFileSync(checksFile, 'utf8'));
        verdict = judgeScenario(scenario, checks, {
          exitCode: code ?? 1,
          clientError: clientError(checksFile, scenario),
          output: `${stdout}${stderr}`,
        });
      } catch (error) {
        verdict = {
          result: 'fail',
          why: `could not read the checks: ${error.message}`,
          passed: 0,
          failed: 0,
          warnings: 0,
        };
      }
      const connection = connectedWith(checksFile);
      rmSync(out, { recursive: true, force: true });
      resolve({ scenario, ms, connection, ...verdict });
    });
  });
}

async function runAll(node22, suite, scenarios) {
  const results = new Array(scenarios.length);
  let next = 0;
  async function worker() {
    while (next < scenarios.length) {
      const index = next++;
      const result = await runScenario(node22, suite, scenarios[index]);
      results[index] = result;
      const mark = result.result === 'pass' ? 'pass' : result.result === 'skipped' ? 'skip' : 'FAIL';
      process.stdout.write(
        `  ${mark}  ${result.scenario} (${(result.ms / 1000).toFixed(1)} s)${result.result === 'pass' || result.scenario.startsWith('auth/') ? '' : ` — ${result.why}`}\n`,
      );
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results;
}

function readExpected() {
  if (!existsSync(expectedFile)) return {};
  return JSON.parse(readFileSync(expectedFile, 'utf8')).pass ?? {};
}

async function main() {
  const node22 = ensureTools();
  const expected = readExpected();
  const started = Date.now();
  const runs = [];
  for (const name of SUITES) {
    const suite = suiteInfo(name);
    const all = clientScenarios(node22, suite);
    const scenarios = core ? all.filter((s) => !s.startsWith('auth/')) : all;
    process.stdout.write(
      `@modelcontextprotocol/conformance ${suite.version}: ${scenarios.length} client scenarios${core ? ' (no auth/*)' : ''}\n`,
    );
    runs.push({ version: suite.version, results: await runAll(node22, suite, scenarios) });
  }
  const seconds = (Date.now() - started) / 1000;

  const { regressions, newlyPassing } = compareWithExpected(runs, expected, { skipAuth: core });

  if (!core && !check) {
    writeFileSync(reportFile, renderReport(runs, { date: new Date().toISOString().slice(0, 10), seconds }));
    process.stdout.write(`Wrote ${relative(root, reportFile)}\n`);
  }
  if (update) {
    const pass = expectationsFrom(runs);
    writeFileSync(
      expectedFile,
      `${JSON.stringify({ comment: 'Conformance client scenarios Berth passes; written by `npm run conformance -- --update`.', pass }, null, 2)}\n`,
    );
    process.stdout.write(`Wrote ${relative(root, expectedFile)}\n`);
  }
  process.stdout.write(`Conformance run took ${seconds.toFixed(1)} s.\n`);
  if (newlyPassing.length > 0 && !update) {
    process.stdout.write(`Now passing, not yet expected (run with --update to record): ${newlyPassing.join(', ')}\n`);
  }
  if (regressions.length > 0) {
    process.stderr.write(
      `Conformance regressions (expected to pass):\n${regressions.map((r) => `  ${r}`).join('\n')}\n`,
    );
    return 1;
  }
  return 0;
}

mkdirSync(dirname(reportFile), { recursive: true });
process.exitCode = await main();
