import { describe, expect, it } from 'vitest';
import { anyDifference, renderReport } from './report';
import type { ReportRow } from './report';

const meta = { when: '2026-12-07T12:00:00Z', where: 'linux x64, Node v20, 2 cores', seconds: 50 };
const row = (server: string, verdict: ReportRow['verdict'], skipped?: string): ReportRow => ({
  server,
  pkg: `pkg-${server}`,
  version: '1.0.0',
  tool: 'read',
  skipped,
  verdict,
});

describe('test:servers report', () => {
  it('fails the run only for a difference: a server down in both clients, or not run here, is reported, not failed', () => {
    expect(anyDifference([row('a', { kind: 'same' }), row('b', { kind: 'failed-in-both', reason: 'ENOENT' })])).toBe(
      false,
    );
    expect(anyDifference([row('a', { kind: 'same' }), row('c', undefined, 'no Chromium')])).toBe(false);
    expect(anyDifference([row('a', { kind: 'same' }), row('d', { kind: 'different', differences: ['x'] })])).toBe(true);
  });

  it('writes one row per server with its verdict in words, pipes escaped, and when and where it was measured', () => {
    const markdown = renderReport(
      [
        row('a', { kind: 'same' }),
        row('b', { kind: 'failed-in-both', reason: 'spawn node ENOENT' }),
        row('c', undefined, 'no Chromium, Chrome or Edge on this machine'),
        row('d', { kind: 'different', differences: ['tools only Berth lists: x|y', 'era: bare legacy, Berth modern'] }),
      ],
      meta,
    );
    expect(markdown).toContain('Measured 2026-12-07T12:00:00Z on linux x64, Node v20, 2 cores, in 50 s.');
    const rows = markdown.split('\n').filter((line) => line.startsWith('| ') && line.includes('`pkg-'));
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/\| yes \|$/);
    expect(rows[1]).toMatch(/\| failed in both \(not Berth's\): spawn node ENOENT \|$/);
    expect(rows[2]).toMatch(/\| not run: no Chromium, Chrome or Edge on this machine \|$/);
    expect(rows[3]).toMatch(/\| \*\*no\*\*: tools only Berth lists: x\\\|y; era: bare legacy, Berth modern \|$/);
    expect(markdown).toContain('1 of 4 the same as the bare client; 1 different.');
  });
});
