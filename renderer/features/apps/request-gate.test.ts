import { describe, expect, it } from 'vitest';
import { closedNote, createRequestGate, DEFAULT_GATE } from './request-gate';
import { activateLocale } from '../../i18n/i18n';
import { wordsText } from '../../i18n/words';

describe('createRequestGate', () => {
  it('admits a burst up to the bucket, then refuses until tokens come back at the sustained rate', () => {
    const gate = createRequestGate();
    for (let i = 0; i < DEFAULT_GATE.burst; i++) expect(gate.check(1_000).kind).toBe('admit');
    expect(gate.check(1_000).kind).toBe('refuse');
    // 20 per second: 100 ms later two more fit, not three.
    expect(gate.check(1_100).kind).toBe('admit');
    expect(gate.check(1_100).kind).toBe('admit');
    expect(gate.check(1_100).kind).toBe('refuse');
  });

  it('lets an app that keeps to the rate run forever', () => {
    const gate = createRequestGate();
    for (let t = 0; t < 60_000; t += 50) expect(gate.check(t).kind).toBe('admit');
  });

  it('closes an app that keeps pushing past the limit, counting what it sent in how long', () => {
    const gate = createRequestGate({ ratePerSecond: 20, burst: 40, refusalsToClose: 100, abuseWindowMs: 5_000 });
    const verdicts = [];
    // 200 requests a second, for as long as it takes.
    for (let i = 0; i < 2_000; i++) {
      const verdict = gate.check(i * 5);
      verdicts.push(verdict.kind);
      if (verdict.kind === 'close') {
        expect(verdict.requests).toBeGreaterThan(140);
        expect(verdict.seconds).toBeGreaterThanOrEqual(1);
        expect(verdict.seconds).toBeLessThanOrEqual(5);
        break;
      }
    }
    expect(verdicts.at(-1)).toBe('close');
    expect(verdicts).toContain('refuse');
    // Once closed it stays closed.
    expect(gate.check(1_000_000).kind).toBe('close');
  });

  it('forgets old refusals: occasional bursts never add up to a close', () => {
    const gate = createRequestGate();
    for (let burst = 0; burst < 50; burst++) {
      const at = burst * 10_000;
      for (let i = 0; i < 60; i++) expect(gate.check(at).kind).not.toBe('close');
    }
  });

  it('says plainly why the app was closed', () => {
    expect(wordsText(closedNote(412, 3))).toBe('This app was closed: it sent 412 requests in 3 seconds.');
    expect(wordsText(closedNote(150, 1))).toBe('This app was closed: it sent 150 requests in 1 second.');
  });

  it("words the closed note in the person's language", async () => {
    await activateLocale('ko');
    expect(wordsText(closedNote(412, 3))).toBe('이 앱을 닫았습니다: 3초 동안 요청을 412개 보냈습니다.');
  });
});
