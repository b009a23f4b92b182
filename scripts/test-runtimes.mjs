// `npm run test:runtimes`: the unit and integration suite (`vitest run`, as `npm run test:unit`) on the other Node
// releases people run Berth on. `npm test` runs it on this machine's Node (20); this runs it on Node 22 and Node 24,
// one after the other.
//
//   npm run test:runtimes                          Node 22, then Node 24
//   npm run test:runtimes -- 24                    Node 24 only
//   npm run test:runtimes -- 22 test/integration   Node 22, only the files vitest matches (other arguments go to vitest)
//
// Those Nodes come from the `node` npm package (aliased node22 and node24) in tools/runtimes, a separate package
// installed here on first use (npm ci, once per lockfile), as tools/conformance is: in Berth's own node_modules the
// package would link a `node` binary into node_modules/.bin and every npm script would run on that Node.
//
// vitest runs on the chosen binary with that binary's folder first on PATH: its forked workers start on
// process.execPath (child_process.fork) and the fixture servers the tests start as `node` find the same binary, so
// host and servers run on one Node (BERTH_TEST_RUNTIME tells scripts/test-runtimes.test.ts which, and it checks
// both). Each run ends with a summary line; the script exits non-zero when any version failed. Plain Node, no
// dependencies.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { installToolsOnce } from './tools-install.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, 'tools', 'runtimes');
const vitestCli = join(root, 'node_modules', 'vitest', 'vitest.mjs');

/** The Node majors tested here, each the alias of the `node` package in tools/runtimes/package.json. */
export const RUNTIMES = { 22: 'node22', 24: 'node24' };

/**
 * The versions to run and the arguments for vitest: a bare number picks a version (any number of them, in the
 * order given; none means all), everything else goes to vitest as given.
 */
export function parseArgs(argv, runtimes = RUNTIMES) {
  const versions = [];
  const vitestArgs = [];
  for (const arg of argv) {
    if (/^\d+$/.test(arg)) {
      if (!(arg in runtimes))
        return { error: `Node ${arg} is not one of the tested versions (${Object.keys(runtimes).join(', ')})` };
      if (!versions.includes(arg)) versions.push(arg);
    } else {
      vitestArgs.push(arg);
    }
  }
  return { versions: versions.length > 0 ? versions : Object.keys(runtimes), vitestArgs };
}

/** PATH with `folder` first, under the key this environment already uses (Windows spells it Path). */
export function withPathFirst(env, folder, separator = delimiter) {
  const key = Object.keys(env).find((name) => name.toUpperCase() === 'PATH') ?? 'PATH';
  const rest = env[key];
  return { ...env, [key]: rest === undefined || rest === '' ? folder : `${folder}${separator}${rest}` };
}

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

/**
 * The environment with loopback exempt from any HTTP(S) proxy it names. Node 22 and later send fetch and http
 * requests through HTTP_PROXY / HTTPS_PROXY when NODE_USE_ENV_PROXY is set (Node 20 ignores both), and the tests talk
 * to servers of their own on 127.0.0.1: through a proxy they would fail on those versions only. Both spellings of
 * NO_PROXY are extended when present (lowercase wins where both are read); nothing changes without a proxy.
 */
export function withLoopbackUnproxied(env) {
  if (!['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'].some((key) => (env[key] ?? '') !== '')) return env;
  const keys = ['no_proxy', 'NO_PROXY'].filter((key) => env[key] !== undefined);
  const result = { ...env };
  for (const key of keys.length > 0 ? keys : ['NO_PROXY']) {
    const entries = (env[key] ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    result[key] = [...entries, ...LOOPBACK.filter((host) => !entries.includes(host))].join(',');
  }
  return result;
}

/**
 * What one version's run came to, from vitest's JSON report (undefined when vitest wrote none, e.g. it could not
 * start) and its exit code. A run passes only when vitest exited 0: an unhandled error fails a run whose tests passed.
 */
export function summarize(version, report, exitCode, ms) {
  const seconds = ms / 1000;
  const time =
    seconds < 60 ? `${seconds.toFixed(1)} s` : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  const ok = exitCode === 0;
  if (report === undefined) {
    return {
      version,
      ok,
      passed: 0,
      failed: 0,
      skipped: 0,
      failures: [],
      line: `Node ${version}: ${ok ? 'passed' : 'FAILED'}, no test report (vitest exit ${exitCode}), ${time}`,
    };
  }
  const passed = report.numPassedTests ?? 0;
  const failed = report.numFailedTests ?? 0;
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const failures = [];
  for (const file of report.testResults ?? []) {
    const name = relative(root, file.name ?? '');
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) failures.push(`${name} > ${test.fullName ?? test.title}`);
    // A file that failed as a whole (an import error, a failing hook) has no failed test of its own to show.
    if (failedTests.length === 0 && file.status === 'failed')
      failures.push(`${name}: ${(file.message ?? 'failed').split('\n')[0]}`);
  }
  const counts = `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
  const extra =
    ok || failed > 0
      ? ''
      : ` (vitest exit ${exitCode}${report.numFailedTestSuites > 0 ? `, ${report.numFailedTestSuites} file(s) failed` : ''})`;
  return {
    version,
    ok,
    passed,
    failed,
    skipped,
    failures,
    line: `Node ${version}: ${ok ? 'passed' : 'FAILED'}, ${counts}${extra}, ${time}`,
  };
}

function fail(message) {
  process.stderr.write(`test:runtimes: ${message}\n`);
  process.exit(2);
}

/** tools/runtimes installed for its current lockfile (npm ci once, then a stamp); each binary checked. */
function ensureRuntimes(versions) {
  const problem = installToolsOnce(
    toolsDir,
    `Installing Node ${Object.keys(RUNTIMES).join(' and ')} (tools/runtimes: npm ci)…`,
  );
  if (problem !== undefined) fail(problem);
  return versions.map((version) => {
    const binary = join(
      toolsDir,
      'node_modules',
      RUNTIMES[version],
      'bin',
      process.platform === 'win32' ? 'node.exe' : 'node',
    );
    const reported = spawnSync(binary, ['--version'], { encoding: 'utf8' });
    if (reported.status !== 0 || !reported.stdout.startsWith(`v${version}.`)) {
      fail(
        `${relative(root, binary)} is not a working Node ${version} (${reported.error?.message ?? reported.stdout.trim()}); its install script (the node package's preinstall) may have been skipped`,
      );
    }
    return { version, binary, full: reported.stdout.trim() };
  });
}

/** `vitest run` on one Node, its output shown as it comes; resolves to the summary. */
function runSuite({ version, binary, full }, vitestArgs) {
  const reportDir = mkdtempSync(join(tmpdir(), 'berth-runtimes-'));
  const reportFile = join(reportDir, 'report.json');
  const rule = '='.repeat(72);
  process.stdout.write(
    `\n${rule}\nNode ${full} (${relative(root, binary)}): vitest run${vitestArgs.length > 0 ? ` ${vitestArgs.join(' ')}` : ''}\n${rule}\n`,
  );
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      binary,
      [vitestCli, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...vitestArgs],
      {
        cwd: root,
        env: { ...withLoopbackUnproxied(withPathFirst(process.env, dirname(binary))), BERTH_TEST_RUNTIME: version },
        stdio: 'inherit',
      },
    );
    const finish = (exitCode) => {
      let report;
      try {
        report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined;
      } catch {
        report = undefined;
      }
      rmSync(reportDir, { recursive: true, force: true });
      const summary = summarize(version, report, exitCode, Date.now() - started);
      process.stdout.write(`${summary.line}\n`);
      resolve(summary);
    };
    child.on('error', (error) => {
      process.stderr.write(`test:runtimes: could not start Node ${version}: ${error.message}\n`);
      finish(1);
    });
    child.on('close', (code, signal) => finish(code ?? (signal === null ? 1 : 128)));
  });
}

async function main() {
  const parsed = parseArgs(process.argv.slice(2));
  if (parsed.error !== undefined) {
    process.stderr.write(
      `test:runtimes: ${parsed.error}\nusage: npm run test:runtimes [-- <version>… <vitest arguments>]\n`,
    );
    return 2;
  }
  const runtimes = ensureRuntimes(parsed.versions);
  const summaries = [];
  for (const runtime of runtimes) summaries.push(await runSuite(runtime, parsed.vitestArgs));
  process.stdout.write(`\nSummary (this machine's own Node, ${process.version}, is the one npm test runs on):\n`);
  for (const summary of summaries) {
    process.stdout.write(`  ${summary.line}\n`);
    for (const failure of summary.failures) process.stdout.write(`      ${failure}\n`);
  }
  return summaries.every((summary) => summary.ok) ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
