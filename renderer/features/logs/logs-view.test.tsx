// @vitest-environment jsdom
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LogEntry } from '../../../shared/domain';
import { ok } from '../../../shared/result';
import { mergeBySeq, toLogRow } from '../../store/logs-slice';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { createFakeTransport } from '../../test-support/fake-transport';
import { LogsView } from './logs-view';
import { renderWithBerth } from '../../test-support/render-with-berth';

beforeAll(stubResizeObserver);
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function entry(seq: number, overrides: Partial<LogEntry> = {}): LogEntry {
  return { seq, server: 'a', time: 1_700_000_000_000 + seq, source: 'stderr', text: `line ${seq}`, ...overrides };
}
const trace = (seq: number): LogEntry =>
  entry(seq, {
    source: 'trace',
    text: `→ tools/call #${seq}`,
    direction: 'out',
    method: 'tools/call',
    id: seq,
    body: `{"id":${seq}}`,
  });

describe('mergeBySeq', () => {
  it('puts kept trace entries between the rows already shown, skipping those it has, and keeps the newest within the cap', () => {
    const current = [entry(1), entry(4), trace(5), entry(7)].map(toLogRow);
    const merged = mergeBySeq(current, [trace(2), trace(3), trace(5), trace(6), trace(8)]);
    expect(merged.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(merged[2]).toMatchObject({ source: 'trace', body: '{"id":3}', haystack: '→ tools/call #3\ntools/call' });
    // Nothing new: the same array, so nothing re-renders.
    expect(mergeBySeq(current, [trace(5)])).toBe(current);
    expect(mergeBySeq(current, [trace(2), trace(3)], 3).map((row) => row.seq)).toEqual([4, 5, 7]);
  });
});

describe('LogsView', () => {
  function mount() {
    const transport = createFakeTransport({
      'logs.query': (query) =>
        ok({
          entries: query.sources?.includes('trace') === true ? [trace(2), trace(3)] : [entry(1), entry(4)],
          dropped: 0,
        }),
    });
    const view = renderWithBerth(<LogsView />, { transport });
    const { store } = view;
    return { store, transport, view };
  }

  it('follows the trace while open (renewing it at a third of what the host grants), fetches what the host kept, and stops when closed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { store, transport, view } = mount();
    await store.getState().loadLogs();
    const follows = () => transport.calls.filter((call) => call.method === 'logs.followTrace').length;
    await vi.waitFor(() => expect(store.getState().logs.map((row) => row.seq)).toEqual([1, 2, 3, 4]));
    expect(follows()).toBe(1);
    // Followed before the trace was fetched, so nothing falls between the two.
    const methods = transport.calls.map((call) => call.method);
    expect(methods.lastIndexOf('logs.followTrace')).toBeLessThan(methods.lastIndexOf('logs.query'));

    await vi.advanceTimersByTimeAsync(5_000);
    expect(follows()).toBe(2);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(follows()).toBe(3);

    view.unmount();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(follows()).toBe(3);
  });
});
