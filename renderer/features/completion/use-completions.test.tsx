// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CompletionResult } from '../../../shared/contract/prompts';
import { fail, ok, type Result } from '../../../shared/result';
import { createFakeTransport } from '../../test-support/fake-transport';
import { berthHost, berthWrapper } from '../../test-support/render-with-berth';
import { COMPLETION_DEBOUNCE_MS, useCompletions, type CompletionQuery } from './use-completions';

/** A host whose completion answers the test releases one by one, in any order. */
function scriptedHost() {
  const pending: { value: string; resolve: (result: Result<CompletionResult>) => void }[] = [];
  const transport = createFakeTransport({
    'completion.complete': (input) => new Promise((resolve) => pending.push({ value: input.argument.value, resolve })),
  });
  const { store } = berthHost({ transport });
  return { transport, pending, wrapper: berthWrapper(store) };
}

const query = (value: string, context?: Record<string, string>): CompletionQuery => ({
  server: 'everything',
  ref: { type: 'ref/prompt', name: 'completable-prompt' },
  argument: { name: 'department', value },
  ...(context !== undefined ? { context } : {}),
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useCompletions', () => {
  it('waits for a pause in typing and asks once, for the latest text, with the filled arguments as context', async () => {
    const host = scriptedHost();
    const { result, rerender } = renderHook(({ q }: { q: CompletionQuery | undefined }) => useCompletions(q), {
      wrapper: host.wrapper,
      initialProps: { q: query('E') },
    });
    rerender({ q: query('En') });
    act(() => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS - 10));
    rerender({ q: query('Eng', { name: 'Alice' }) });
    act(() => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS - 10));
    expect(host.transport.calls).toEqual([]);
    expect(result.current.status).toBe('loading');
    act(() => vi.advanceTimersByTime(20));
    expect(host.transport.calls).toEqual([
      { method: 'completion.complete', input: { ...query('Eng'), context: { arguments: { name: 'Alice' } } } },
    ]);
    await act(async () => host.pending[0]?.resolve(ok({ values: ['Engineering'], total: 1, hasMore: false })));
    expect(result.current).toEqual({ status: 'ready', values: ['Engineering'], total: 1, hasMore: false });
  });

  it('the same query again (a new object) does not ask again', () => {
    const host = scriptedHost();
    const { rerender } = renderHook(({ q }: { q: CompletionQuery }) => useCompletions(q), {
      wrapper: host.wrapper,
      initialProps: { q: query('E') },
    });
    act(() => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS));
    rerender({ q: query('E') });
    act(() => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS));
    expect(host.transport.calls).toHaveLength(1);
  });

  it('ignores an older answer that arrives after a newer request went out', async () => {
    const host = scriptedHost();
    const { result, rerender } = renderHook(({ q }: { q: CompletionQuery }) => useCompletions(q), {
      wrapper: host.wrapper,
      initialProps: { q: query('S') },
    });
    act(() => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS));
    rerender({ q: query('Su') });
    act(() => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS));
    expect(host.pending.map((entry) => entry.value)).toEqual(['S', 'Su']);
    // The newer answer first, then the stale one (its request was cancelled at the host).
    await act(async () => host.pending[1]?.resolve(ok({ values: ['Support'] })));
    await act(async () => host.pending[0]?.resolve(ok({ values: ['Sales', 'Support'] })));
    expect(result.current).toEqual({ status: 'ready', values: ['Support'] });
  });

  it('a superseded answer changes nothing; an error is shown; undefined stops and clears', async () => {
    const host = scriptedHost();
    const { result, rerender } = renderHook(({ q }: { q: CompletionQuery | undefined }) => useCompletions(q), {
      wrapper: host.wrapper,
      initialProps: { q: query('E') as CompletionQuery | undefined },
    });
    act(() => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS));
    await act(async () => host.pending[0]?.resolve(ok({ values: [], superseded: true })));
    expect(result.current.status).toBe('loading');

    rerender({ q: query('Ex') });
    act(() => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS));
    await act(async () => host.pending[1]?.resolve(fail('NOT_READY', "server 'everything' is stopped, not ready")));
    expect(result.current).toEqual({
      status: 'error',
      values: [],
      failure: fail('NOT_READY', "server 'everything' is stopped, not ready"),
    });

    rerender({ q: query('Exa') });
    rerender({ q: undefined });
    act(() => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS * 2));
    expect(host.transport.calls).toHaveLength(2);
    expect(result.current).toEqual({ status: 'idle', values: [] });
  });

  it('unmounting before the pause ends sends nothing', () => {
    const host = scriptedHost();
    const { unmount } = renderHook(() => useCompletions(query('E')), { wrapper: host.wrapper });
    unmount();
    act(() => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS * 2));
    expect(host.transport.calls).toEqual([]);
  });
});
