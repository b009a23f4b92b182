/**
 * The pure half of scripts/conformance.mjs: a scenario's verdict from the
 * checks the conformance suite wrote, the comparison with the checked-in
 * expectations, and docs/CONFORMANCE.md.
 */

/** One entry of a scenario's checks.json, as far as it is read here. */
export interface ConformanceCheck {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO' | (string & {});
  description?: string;
  errorMessage?: string;
}

export type ScenarioOutcome = 'pass' | 'fail' | 'skipped';

export interface ScenarioVerdict {
  result: ScenarioOutcome;
  /** For a failure or a skip, one line saying why; for a pass, a warning or a caveat (may be empty). */
  why: string;
  passed: number;
  failed: number;
  warnings: number;
}

export interface ScenarioResult extends ScenarioVerdict {
  scenario: string;
  ms: number;
  /** The protocol version and transport Berth connected with ("2026-07-28, streamable-http"), empty when it never connected. */
  connection: string;
}

export interface SuiteRun {
  version: string;
  results: ScenarioResult[];
}

/** Scenario names each suite version is expected to pass, keyed by version. */
export type Expectations = Record<string, string[]>;

export const OAUTH_NOTE = 'an OAuth case Berth does not handle yet (see the notes)';
/** Failures Berth chose (see FAILURE_NOTES), not gaps. */
export const DELIBERATE: Readonly<Record<string, string>> = {
  'auth/2025-03-26-oauth-metadata-backcompat':
    'deliberate: Berth refuses authorization-server metadata whose issuer does not match where it was fetched (see the notes)',
};

/** Why an auth/* scenario failed, before the check's own words. */
function authNote(scenario: string): string {
  return DELIBERATE[scenario] ?? OAUTH_NOTE;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

function explain(check: ConformanceCheck, fallback: string): string {
  return `${check.id}: ${oneLine(check.errorMessage ?? check.description ?? fallback)}`;
}

/** How the suite's CLI ended for one scenario. */
export interface ClientRun {
  /**
   * The CLI's exit code: non-zero when the suite judged the scenario failed,
   * which includes a client that exited with an error where the scenario
   * does not expect one (even when every check passed).
   */
  exitCode?: number;
  /** The adapter's own one-line error, when it stopped with one. */
  clientError?: string;
  /** The CLI's output, for a scenario that reported no checks at all. */
  output?: string;
}

/**
 * A scenario passes when it reported at least one judged check, none failed,
 * and the suite's CLI agreed (exit 0: a client that stops with an error fails
 * a scenario that does not expect one); it is skipped when every judged check
 * was skipped (nothing was there to be judged); no checks at all is a failure
 * (the client never got far enough), explained by the tail of its output.
 */
export function judgeScenario(
  scenario: string,
  checks: readonly ConformanceCheck[],
  run: ClientRun = {},
): ScenarioVerdict {
  const output = run.output ?? '';
  const judged = checks.filter((check) => check.status !== 'INFO');
  const failed = judged.filter((check) => check.status === 'FAILURE');
  const warnings = judged.filter((check) => check.status === 'WARNING');
  const passed = judged.filter((check) => check.status === 'SUCCESS');
  const counts = { passed: passed.length, failed: failed.length, warnings: warnings.length };
  const auth = scenario.startsWith('auth/');
  const [firstFailure] = failed;
  if (firstFailure !== undefined) {
    const detail = `${explain(firstFailure, 'failed')}${failed.length > 1 ? ` (+${failed.length - 1} more)` : ''}`;
    return { result: 'fail', why: auth ? `${authNote(scenario)} — ${detail}` : detail, ...counts };
  }
  if (passed.length === 0 && warnings.length === 0) {
    const skipped = judged.find((check) => check.status === 'SKIPPED');
    if (skipped === undefined) {
      const tail = output.trim().split('\n').slice(-3).join(' ');
      return { result: 'fail', why: `no checks were reported${tail === '' ? '' : `: ${oneLine(tail)}`}`, ...counts };
    }
    const detail = explain(skipped, 'skipped');
    return { result: 'skipped', why: detail, ...counts };
  }
  if (run.exitCode !== undefined && run.exitCode !== 0) {
    const why = `every check passed, but the client stopped with an error the scenario does not expect${run.clientError === undefined ? '' : `: ${oneLine(run.clientError)}`}`;
    return { result: 'fail', why: auth ? `${authNote(scenario)} — ${why}` : why, ...counts };
  }
  const notes = warnings.slice(0, 1).map((warning) => explain(warning, 'warning'));
  return { result: 'pass', why: notes.join('; '), ...counts };
}

/** Expected passes that did not pass (or vanished from the suite), and passes not yet expected. */
export function compareWithExpected(
  runs: readonly SuiteRun[],
  expected: Expectations,
  options: { skipAuth?: boolean } = {},
): { regressions: string[]; newlyPassing: string[] } {
  const regressions: string[] = [];
  const newlyPassing: string[] = [];
  for (const { version, results } of runs) {
    const want = new Set(expected[version] ?? []);
    for (const r of results) {
      if (want.has(r.scenario) && r.result !== 'pass')
        regressions.push(`${version} ${r.scenario}: ${r.result} — ${r.why}`);
      if (!want.has(r.scenario) && r.result === 'pass') newlyPassing.push(`${version} ${r.scenario}`);
    }
    for (const scenario of want) {
      if (options.skipAuth === true && scenario.startsWith('auth/')) continue;
      if (!results.some((r) => r.scenario === scenario))
        regressions.push(`${version} ${scenario}: not run (no longer in the suite?)`);
    }
  }
  return { regressions, newlyPassing };
}

/** The expectations a run establishes: every scenario that passed, per version. */
export function expectationsFrom(runs: readonly SuiteRun[]): Expectations {
  return Object.fromEntries(
    runs.map(({ version, results }) => [version, results.filter((r) => r.result === 'pass').map((r) => r.scenario)]),
  );
}

/**
 * What the one-line reasons cannot say: why a scenario fails or is skipped,
 * where the cause lies, and what it would take. Shown under the tables for
 * the scenarios that did not pass in that run.
 */
export const FAILURE_NOTES: Readonly<Record<string, string>> = {
  'sep-2322-client-request-state':
    'The last tool, `test_mrtr_no_result_type`, answers a 2026-07-28 `tools/call` without `resultType`; SEP-2322 says a client MUST then assume "complete". ' +
    '`@modelcontextprotocol/client` 2.4 refuses such a result, so Berth adds `resultType: "complete"` to modern-era results that lack it before the SDK sees them ' +
    '(`acceptResultsWithoutType` in app/servers/berth-client.ts, noted once in the server log). If this fails again, look there first.',
  'auth/*':
    'Berth\'s OAuth client (app/oauth) signs in here the way the "Sign in" button does, the adapter following the authorization server\'s redirect ' +
    'instead of opening a browser: authorization code with PKCE S256, the `resource` parameter, protected-resource and authorization-server discovery ' +
    "(the challenge's metadata location and scope first), dynamic registration, a client ID metadata document (the adapter gives the suite's URL: Berth " +
    'publishes none of its own yet, so the app registers dynamically), pre-registered clients, refresh, RFC 9207 `iss` checks, strict metadata issuer ' +
    'checks, DPoP-bound tokens (RFC 9449) when the authorization server lists ES256, a fresh registration when the server moves to another authorization ' +
    "server (SEP-2352), and a new sign-in when a request needs a wider scope (the adapter presses Sign in again, as the person would). The client's " +
    'settings come from the scenario as a person would enter them in the server form: client credentials (secret or private_key_jwt) and workload identity ' +
    '(the token written to a file) use the same settings as the app. Cross-app access runs app/oauth/cross-app-access.ts with the ID token the suite ' +
    'issues; the app has no enterprise IdP sign-in to get one yet. The one failure is deliberate: the 0.1.16 `2025-03-26-oauth-metadata-backcompat` case ' +
    "serves metadata whose issuer does not match where it was fetched from, and Berth keeps the SDK's strict RFC 8414 issuer check (a mismatched issuer " +
    'is how a mix-up attack looks), so it refuses that server; the 0.2.0 version of the case, with a consistent issuer, passes.',
  'sep-2640-*':
    'The skills extension (SEP-2640) runs through app/skills: the adapter lists the skills with the same catalog the host uses, and for the ' +
    'verification scenarios the person (the adapter) loads the listed skill, which Berth refuses on a digest, size or frontmatter mismatch.',
};

function noteKey(scenario: string): string {
  if (scenario.startsWith('auth/')) return 'auth/*';
  if (scenario.startsWith('sep-2640-')) return 'sep-2640-*';
  return scenario;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** docs/CONFORMANCE.md. */
export function renderReport(runs: readonly SuiteRun[], options: { date: string; seconds: number }): string {
  const lines = [
    '# MCP conformance',
    '',
    `Generated by \`npm run conformance\` on ${options.date} (the run took ${Math.round(options.seconds)} s). The official`,
    '[`@modelcontextprotocol/conformance`](https://www.npmjs.com/package/@modelcontextprotocol/conformance)',
    "client suites run against Berth's own connection code: `scripts/conformance-client.ts` connects",
    'with `ServerConnection.open` (Streamable HTTP with the legacy SSE fallback, era negotiation with',
    'an `EraCache`), calls tools with `ServerConnection.callTool`, and answers `elicitation/create`',
    'through the host\'s `ElicitationFlow`, the person replaced by "submit the form as it opens"',
    "(the schema's defaults filled in). The adapter declares no sampling: it has no model to answer with.",
    "When a server wants OAuth, the adapter signs in with Berth's own client (`BerthOAuthProvider` and",
    '`signIn` from app/oauth, as the "Sign in" button does), following the suite\'s authorization server',
    'redirect where the app would open the browser, and connects again.',
    '',
    'A scenario passes when it reported at least one check and none failed; it is skipped when every',
    'check was skipped (nothing there to judge). The passing scenarios are listed in',
    '`test/conformance-expected.json`: `npm run conformance` exits non-zero when one of them stops',
    'passing, and `npm test` runs every scenario that way without rewriting this file (`npm run conformance -- --check`).',
    '`npm run conformance -- --update` records a new set of passes.',
    '',
  ];
  for (const { version, results } of runs) {
    const count = (kind: ScenarioOutcome) => results.filter((r) => r.result === kind).length;
    lines.push(`## ${version}`, '');
    lines.push(
      `${results.length} client scenarios: ${count('pass')} pass, ${count('fail')} fail, ${count('skipped')} skipped.`,
      '',
    );
    lines.push('| scenario | result | checks (pass/fail/warn) | Berth connected with | why |', '|---|---|---|---|---|');
    for (const r of results)
      lines.push(
        `| \`${r.scenario}\` | ${r.result} | ${r.passed}/${r.failed}/${r.warnings} | ${r.connection === '' ? '—' : r.connection} | ${cell(r.why)} |`,
      );
    lines.push('');
  }
  const unexplained = new Set(
    runs.flatMap(({ results }) =>
      results.filter((r) => r.result !== 'pass' || r.scenario.startsWith('auth/')).map((r) => noteKey(r.scenario)),
    ),
  );
  const notes = Object.entries(FAILURE_NOTES).filter(([key]) => unexplained.has(key));
  if (notes.length > 0) {
    lines.push('## Notes', '');
    for (const [key, text] of notes) lines.push(`- \`${key}\`: ${text}`);
    lines.push('');
  }
  return lines.join('\n');
}
