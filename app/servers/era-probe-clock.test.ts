import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EraProbeClock } from './era-probe-clock';

describe('EraProbeClock', () => {
  let givenUp: { id: string | number; waitedMs: number }[];
  const clock = (startupMs = 30_000): EraProbeClock =>
    new EraProbeClock({ quietMs: 10_000, startupMs, giveUp: (id, waitedMs) => givenUp.push({ id, waitedMs }) });

  beforeEach(() => {
    vi.useFakeTimers();
    givenUp = [];
  });
  afterEach(() => vi.useRealTimers());

  it('waits two thirds of the start-up time for a server that has written nothing (still loading)', () => {
    const probe = clock();
    probe.sent('p1');
    vi.advanceTimersByTime(19_999);
    expect(givenUp).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(givenUp).toEqual([{ id: 'p1', waitedMs: 20_000 }]);
    expect(probe.timedOut).toBe(true);
  });

  it('counts the quiet limit from the first output, not from the spawn', () => {
    const probe = clock();
    probe.sent('p1');
    vi.advanceTimersByTime(8_000);
    probe.output('server running on stdio');
    vi.advanceTimersByTime(9_999);
    expect(givenUp).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(givenUp).toEqual([{ id: 'p1', waitedMs: 18_000 }]);
  });

  it("does not count npm's install lines as the server's output", () => {
    const probe = clock();
    probe.sent('p1');
    probe.output('npm warn exec The following package was not found and will be installed: some-mcp@1.0.0');
    vi.advanceTimersByTime(15_000);
    expect(givenUp).toEqual([]);
    expect(probe.timedOut).toBe(false);
  });

  it('never goes past the silent limit, which keeps time for initialize', () => {
    const probe = clock();
    probe.sent('p1');
    vi.advanceTimersByTime(15_000);
    probe.output('loaded');
    vi.advanceTimersByTime(5_000);
    expect(givenUp).toEqual([{ id: 'p1', waitedMs: 20_000 }]);
  });

  it('stops at the answer: a slow but answered probe is not a timeout', () => {
    const probe = clock();
    probe.sent('p1');
    probe.output('starting');
    vi.advanceTimersByTime(9_000);
    probe.answered('other');
    probe.answered('p1');
    probe.output('late line');
    vi.advanceTimersByTime(60_000);
    expect(givenUp).toEqual([]);
    expect(probe.timedOut).toBe(false);
  });

  it('gives a corrective second probe its own time', () => {
    const probe = clock();
    probe.sent('p1');
    probe.output('up');
    probe.answered('p1');
    vi.advanceTimersByTime(5_000);
    probe.sent('p2');
    vi.advanceTimersByTime(9_999);
    expect(givenUp).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(givenUp).toEqual([{ id: 'p2', waitedMs: 10_000 }]);
  });

  it('leaves no timer behind once stopped', () => {
    const probe = clock();
    probe.sent('p1');
    probe.stop();
    probe.output('anything');
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(givenUp).toEqual([]);
  });
});
