import { describe, expect, it } from 'vitest';
import { OAUTH_NOTE, compareWithExpected, expectationsFrom, judgeScenario, renderReport } from './conformance-results';
import type { ConformanceCheck, ScenarioResult, SuiteRun } from './conformance-results';

const ok = (id: string): ConformanceCheck => ({ id, status: 'SUCCESS', description: `${id} works` });
const bad = (id: string, errorMessage: string): ConformanceCheck => ({ id, status: 'FAILURE', errorMessage });
const info: ConformanceCheck = { id: 'server-info', status: 'INFO' };

function result(scenario: string, outcome: ScenarioResult['result'], why = ''): ScenarioResult {
  return {
    scenario,
    result: outcome,
    why,
    passed: outcome === 'pass' ? 1 : 0,
    failed: outcome === 'fail' ? 1 : 0,
    warnings: 0,
    ms: 1,
    connection: outcome === 'pass' ? '2025-11-25, streamable-http' : '',
  };
}

describe('judgeScenario', () => {
  it('passes a scenario whose judged checks all succeeded, ignoring INFO', () => {
    expect(judgeScenario('tools_call', [ok('tool-add-numbers'), info, ok('wire-schema-valid')])).toEqual({
      result: 'pass',
      why: '',
      passed: 2,
      failed: 0,
      warnings: 0,
    });
  });

  it('fails on any failed check and explains it with the first one', () => {
    const verdict = judgeScenario('sse-retry', [
      ok('a'),
      bad('client-sse-retry', 'reconnected after 10 ms,\n  expected 500 ms'),
      bad('other', 'x'),
    ]);
    expect(verdict).toMatchObject({ result: 'fail', passed: 1, failed: 2 });
    expect(verdict.why).toBe('client-sse-retry: reconnected after 10 ms, expected 500 ms (+1 more)');
  });

  it('labels auth failures as OAuth not done yet, and an auth pass as one that means little yet', () => {
    expect(judgeScenario('auth/metadata-default', [bad('prm', 'never asked')]).why).toBe(
      `${OAUTH_NOTE} — prm: never asked`,
    );
    expect(
      judgeScenario('auth/2025-03-26-oauth-metadata-backcompat', [bad('client-registration', 'missing')]).why,
    ).toMatch(/^deliberate: Berth refuses authorization-server metadata whose issuer does not match/);
    expect(judgeScenario('auth/resource-mismatch', [ok('resource-mismatch-rejected')])).toMatchObject({
      result: 'pass',
      why: '',
    });
  });

  it('skips a scenario whose checks were all skipped, with the check that says why', () => {
    const verdict = judgeScenario('sep-2640-client-no-prefetch', [
      { id: 'sep-2640-host-no-prefetch', status: 'SKIPPED', errorMessage: 'never called skills/list' },
    ]);
    expect(verdict).toMatchObject({ result: 'skipped', why: 'sep-2640-host-no-prefetch: never called skills/list' });
  });

  it('fails a scenario that reported nothing, with the end of its output', () => {
    expect(judgeScenario('initialize', [], { output: 'Starting\nClient timed out after 30000ms\n' })).toMatchObject({
      result: 'fail',
      why: 'no checks were reported: Starting Client timed out after 30000ms',
    });
  });

  it('fails a scenario whose checks passed when the suite failed it for the client error', () => {
    const verdict = judgeScenario('sep-2322-client-request-state', [ok('echoed')], {
      exitCode: 1,
      clientError: 'tools/call failed: missing resultType',
    });
    expect(verdict).toMatchObject({
      result: 'fail',
      passed: 1,
      why: 'every check passed, but the client stopped with an error the scenario does not expect: tools/call failed: missing resultType',
    });
    expect(
      judgeScenario('auth/resource-mismatch', [ok('rejected')], { exitCode: 0, clientError: 'HTTP 401' }).result,
    ).toBe('pass');
  });

  it('passes with warnings and keeps the first one as the note', () => {
    const verdict = judgeScenario('tools_call', [
      ok('a'),
      { id: 'w', status: 'WARNING', errorMessage: 'SHOULD do better' },
    ]);
    expect(verdict).toMatchObject({ result: 'pass', warnings: 1, why: 'w: SHOULD do better' });
  });
});

describe('compareWithExpected', () => {
  const runs: SuiteRun[] = [
    {
      version: '0.2',
      results: [result('initialize', 'pass'), result('tools_call', 'fail', 'broke'), result('sse-retry', 'pass')],
    },
  ];

  it('reports an expected pass that failed, and a pass not yet expected', () => {
    expect(compareWithExpected(runs, { '0.2': ['initialize', 'tools_call'] })).toEqual({
      regressions: ['0.2 tools_call: fail — broke'],
      newlyPassing: ['0.2 sse-retry'],
    });
  });

  it('reports an expected scenario that was not run, except auth/* in a core run', () => {
    expect(
      compareWithExpected(runs, { '0.2': ['initialize', 'gone', 'auth/x'] }, { skipAuth: true }).regressions,
    ).toEqual(['0.2 gone: not run (no longer in the suite?)']);
    expect(compareWithExpected(runs, { '0.2': ['auth/x'] }).regressions).toEqual([
      '0.2 auth/x: not run (no longer in the suite?)',
    ]);
  });

  it('has nothing to say about a version with no expectations beyond its new passes', () => {
    expect(compareWithExpected(runs, {})).toEqual({
      regressions: [],
      newlyPassing: ['0.2 initialize', '0.2 sse-retry'],
    });
  });
});

describe('expectationsFrom and renderReport', () => {
  const runs: SuiteRun[] = [
    {
      version: '0.2.0-alpha.12',
      results: [
        result('initialize', 'pass'),
        result('auth/a', 'fail', `${OAUTH_NOTE} — x|y`),
        result('sep-2640-x', 'skipped', 'sep-2640-host-no-prefetch: never called skills/list'),
      ],
    },
    { version: '0.1.16', results: [result('initialize', 'pass')] },
  ];

  it('records the passes per version', () => {
    expect(expectationsFrom(runs)).toEqual({ '0.2.0-alpha.12': ['initialize'], '0.1.16': ['initialize'] });
  });

  it('writes a table per version with counts and escaped reasons', () => {
    const report = renderReport(runs, { date: '2026-11-23', seconds: 75.6 });
    expect(report).toContain('on 2026-11-23 (the run took 76 s)');
    expect(report).toContain('## 0.2.0-alpha.12\n\n3 client scenarios: 1 pass, 1 fail, 1 skipped.');
    expect(report).toContain(`| \`auth/a\` | fail | 0/1/0 | — | ${OAUTH_NOTE} — x\\|y |`);
    expect(report).toContain('| `initialize` | pass | 1/0/0 | 2025-11-25, streamable-http |  |');
    expect(report).toContain('## 0.1.16\n\n1 client scenarios: 1 pass, 0 fail, 0 skipped.');
    // Notes only for what did not pass.
    expect(report).toContain("- `auth/*`: Berth's OAuth client (app/oauth");
    expect(report).toContain('- `sep-2640-*`: The skills extension (SEP-2640) runs through app/skills');
    expect(report).not.toContain('- `sep-2322-client-request-state`');
  });
});
