import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUNTIMES, parseArgs, summarize, withLoopbackUnproxied, withPathFirst } from './test-runtimes.mjs';

const root = join(import.meta.dirname, '..');

describe('test-runtimes', () => {
  it('runs every tested version unless numbers pick some, and hands everything else to vitest', () => {
    expect(parseArgs([])).toEqual({ versions: ['22', '24'], vitestArgs: [] });
    expect(parseArgs(['24'])).toEqual({ versions: ['24'], vitestArgs: [] });
    expect(parseArgs(['24', '22', '24'])).toEqual({ versions: ['24', '22'], vitestArgs: [] });
    expect(parseArgs(['22', 'test/integration', '-t', 'ping'])).toEqual({
      versions: ['22'],
      vitestArgs: ['test/integration', '-t', 'ping'],
    });
  });

  it('refuses a version it has no Node for rather than running another', () => {
    expect(parseArgs(['20'])).toEqual({ error: 'Node 20 is not one of the tested versions (22, 24)' });
    expect(parseArgs(['26', 'x'])).toHaveProperty('error');
  });

  it('puts the chosen Node first on PATH, under the key the environment already uses', () => {
    expect(withPathFirst({ PATH: '/usr/bin:/bin', HOME: '/h' }, '/n/bin', ':')).toEqual({
      PATH: '/n/bin:/usr/bin:/bin',
      HOME: '/h',
    });
    expect(withPathFirst({ Path: 'C:\\Windows' }, 'C:\\n', ';')).toEqual({ Path: 'C:\\n;C:\\Windows' });
    expect(withPathFirst({}, '/n/bin', ':')).toEqual({ PATH: '/n/bin' });
  });

  it('keeps loopback off any proxy the environment names (Node 22+ honours them under NODE_USE_ENV_PROXY), and changes nothing without one', () => {
    const plain = { PATH: '/usr/bin', NODE_USE_ENV_PROXY: '1' };
    expect(withLoopbackUnproxied(plain)).toBe(plain);
    expect(withLoopbackUnproxied({ HTTP_PROXY: 'http://proxy:3128' })).toEqual({
      HTTP_PROXY: 'http://proxy:3128',
      NO_PROXY: 'localhost,127.0.0.1,::1',
    });
    expect(
      withLoopbackUnproxied({ https_proxy: 'http://proxy:3128', no_proxy: 'corp.example, localhost', NO_PROXY: '' }),
    ).toEqual({
      https_proxy: 'http://proxy:3128',
      no_proxy: 'corp.example,localhost,127.0.0.1,::1',
      NO_PROXY: 'localhost,127.0.0.1,::1',
    });
  });

  it('has a Node of each tested version in tools/runtimes, aliased as the script expects', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'tools', 'runtimes', 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const lock = JSON.parse(readFileSync(join(root, 'tools', 'runtimes', 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string }>;
    };
    for (const [major, alias] of Object.entries(RUNTIMES)) {
      const spec = pkg.devDependencies[alias] ?? '';
      expect(spec).toMatch(new RegExp(`^npm:node@${major}\\.\\d+\\.\\d+$`));
      expect(lock.packages[`node_modules/${alias}`]?.version).toBe(spec.slice('npm:node@'.length));
    }
  });

  it('sums up a run from its report: counts, time, and each failure by file and name', () => {
    const report = {
      numPassedTests: 1200,
      numFailedTests: 1,
      numPendingTests: 3,
      numTodoTests: 1,
      numFailedTestSuites: 2,
      testResults: [
        {
          name: join(root, 'test/integration/a.test.ts'),
          status: 'failed',
          assertionResults: [
            { status: 'passed', fullName: 'a works' },
            { status: 'failed', fullName: 'a > times out' },
          ],
        },
        {
          name: join(root, 'test/integration/b.test.ts'),
          status: 'failed',
          message: 'Cannot find module x\n  at …',
          assertionResults: [],
        },
        {
          name: join(root, 'app/c.test.ts'),
          status: 'passed',
          assertionResults: [{ status: 'passed', fullName: 'c' }],
        },
      ],
    };
    const summary = summarize('22', report, 1, 754_300);
    expect(summary).toMatchObject({ ok: false, passed: 1200, failed: 1, skipped: 4 });
    expect(summary.line).toBe('Node 22: FAILED, 1200 passed, 1 failed, 4 skipped, 12 min 34 s');
    expect(summary.failures).toEqual([
      'test/integration/a.test.ts > a > times out',
      'test/integration/b.test.ts: Cannot find module x',
    ]);
  });

  it('fails a run whose tests passed when vitest did not exit 0 (an unhandled error), and says so', () => {
    const summary = summarize(
      '24',
      { numPassedTests: 10, numFailedTests: 0, numFailedTestSuites: 0, testResults: [] },
      1,
      12_345,
    );
    expect(summary.ok).toBe(false);
    expect(summary.line).toBe('Node 24: FAILED, 10 passed, 0 failed (vitest exit 1), 12.3 s');
    expect(summarize('24', { numPassedTests: 10, numFailedTests: 0, testResults: [] }, 0, 500).line).toBe(
      'Node 24: passed, 10 passed, 0 failed, 0.5 s',
    );
  });

  // Set by test-runtimes.mjs for the runs it starts: the workers and the servers the tests start as `node` are on that Node.
  it.runIf(process.env.BERTH_TEST_RUNTIME !== undefined)(
    'runs the tests, and the `node` they start, on the Node it was asked for',
    () => {
      expect(process.version.split('.')[0]).toBe(`v${process.env.BERTH_TEST_RUNTIME}`);
      expect(execFileSync('node', ['-p', 'process.version'], { encoding: 'utf8' }).trim()).toBe(process.version);
    },
  );

  it('reports a run that left no report (vitest could not start) as failed', () => {
    expect(summarize('22', undefined, 1, 2000)).toMatchObject({
      ok: false,
      failures: [],
      line: 'Node 22: FAILED, no test report (vitest exit 1), 2.0 s',
    });
  });
});
