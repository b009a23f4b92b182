import { describe, expect, it } from 'vitest';
import type { PendingRequest } from '../../shared/domain/pending';
import { ok } from '../../shared/result';
import { createFakeTransport } from '../test-support/fake-transport';
import { connectStore, createBerthStore } from './create-store';
import { activePendingRequest, countPending } from './pending-slice';
import { shownToasts } from '../test-support/shown-toasts';
import { activateLocale } from '../i18n/i18n';

function toolCall(id: string, createdAt: number, server = 'everything'): PendingRequest {
  return {
    id,
    kind: 'tool-call',
    server,
    createdAt,
    payload: { server, serverTrusted: false, tool: 'echo', annotationsTrusted: false, arguments: { message: id } },
  };
}

function opened(request: PendingRequest, list: PendingRequest[]) {
  return { change: { type: 'opened' as const, request }, counts: countPending(list) };
}

describe('pending slice', () => {
  it('adds opened requests, removes answered ones, and notes withdrawn ones in a toast', () => {
    const transport = createFakeTransport();
    const store = createBerthStore(transport);
    connectStore(store, transport);
    const a = toolCall('a', 1);
    const b = toolCall('b', 2, 'memory');
    transport.emit('pending.changed', opened(a, [a]));
    transport.emit('pending.changed', opened(b, [a, b]));
    transport.emit('pending.changed', opened(b, [a, b]));
    expect(store.getState().pending.map((r) => r.id)).toEqual(['a', 'b']);
    expect(store.getState().pendingCounts).toMatchObject({ 'tool-call': 2, total: 2 });

    transport.emit('pending.changed', {
      change: { type: 'answered', id: 'a', kind: 'tool-call' },
      counts: countPending([b]),
    });
    expect(store.getState().pending.map((r) => r.id)).toEqual(['b']);
    expect(shownToasts(store)).toEqual([]);

    transport.emit('pending.changed', {
      change: { type: 'withdrawn', id: 'b', kind: 'tool-call', server: 'memory', note: 'memory disconnected' },
      counts: countPending([]),
    });
    expect(store.getState().pending).toEqual([]);
    expect(store.getState().pendingCounts.total).toBe(0);
    expect(shownToasts(store)).toEqual([
      expect.objectContaining({ title: 'Request from “memory” withdrawn', message: 'memory disconnected' }),
    ]);
  });

  it('words a note the host wrote in the person’s language, and a server’s own note as it wrote it', async () => {
    await activateLocale('ko');
    try {
      const store = createBerthStore(createFakeTransport());
      store.getState().applyPendingSnapshot([toolCall('a', 1, 'memory'), toolCall('b', 2, 'memory')]);
      store.getState().applyPendingChange({
        change: {
          type: 'withdrawn',
          id: 'a',
          kind: 'tool-call',
          server: 'memory',
          note: "server 'memory' disconnected",
          noteMessage: { code: 'withdrawal.server-disconnected', params: { server: 'memory' } },
        },
        counts: countPending([]),
      });
      store.getState().applyPendingChange({
        change: { type: 'withdrawn', id: 'b', kind: 'tool-call', server: 'memory', note: 'user hit cancel' },
        counts: countPending([]),
      });
      const notes = () =>
        shownToasts(store)
          .filter((toast) => toast.tone === 'info')
          .map((toast) => toast.message);
      expect(notes()).toEqual(['서버 “memory” 연결이 끊어짐', 'user hit cancel']);
      // The toast keeps the code, not the words: a language switch re-words it.
      await activateLocale('en');
      expect(notes()[0]).toBe('server “memory” disconnected');
    } finally {
      await activateLocale('en');
    }
  });

  it('shows the oldest request first, skips ones put aside, and honours one picked in the tray', () => {
    const store = createBerthStore(createFakeTransport());
    store.getState().applyPendingSnapshot([toolCall('new', 3), toolCall('old', 1), toolCall('mid', 2)]);
    expect(activePendingRequest(store.getState())?.id).toBe('old');
    store.getState().deferPending('old');
    expect(activePendingRequest(store.getState())?.id).toBe('mid');
    store.getState().focusPending('new');
    expect(activePendingRequest(store.getState())?.id).toBe('new');
    // Picking one from the tray also brings back one put aside.
    store.getState().focusPending('old');
    expect(store.getState().deferredPending).toEqual([]);
    expect(activePendingRequest(store.getState())?.id).toBe('old');
    store.getState().deferPending('old');
    store.getState().deferPending('mid');
    store.getState().deferPending('new');
    expect(activePendingRequest(store.getState())).toBeUndefined();
  });

  it('drops a request that was withdrawn while the person answered, keeps one the host refused', async () => {
    let answer: 'gone' | 'invalid' = 'gone';
    const transport = createFakeTransport({
      'pending.answer': () =>
        answer === 'gone'
          ? { ok: false, code: 'NOT_FOUND', message: 'no pending request' }
          : { ok: false, code: 'INVALID_INPUT', message: 'Fix the form' },
    });
    const store = createBerthStore(transport);
    store.getState().applyPendingSnapshot([toolCall('a', 1), toolCall('b', 2)]);
    const gone = await store.getState().answerPending('a', 'tool-call', { decision: 'deny' });
    expect(gone.ok).toBe(false);
    expect(store.getState().pending.map((r) => r.id)).toEqual(['b']);
    expect(shownToasts(store)[0]).toMatchObject({ title: 'That request is no longer waiting' });
    answer = 'invalid';
    await store.getState().answerPending('b', 'tool-call', { decision: 'allow-once' });
    expect(store.getState().pending.map((r) => r.id)).toEqual(['b']);
    expect(transport.calls.at(-1)).toEqual({
      method: 'pending.answer',
      input: { id: 'b', response: { decision: 'allow-once' } },
    });
  });

  it('loads the queue and the open browser links with the other snapshots', async () => {
    const transport = createFakeTransport({
      'pending.list': () => ok([toolCall('x', 5)]),
      'elicitation.awaiting': () =>
        ok([
          {
            id: 's/e1',
            server: 's',
            elicitationId: 'e1',
            url: 'https://a.example/x',
            domain: 'a.example',
            message: 'Log in',
            since: 1,
          },
        ]),
    });
    const store = createBerthStore(transport);
    await store.getState().loadPending();
    expect(store.getState().pending.map((r) => r.id)).toEqual(['x']);
    expect(store.getState().pendingCounts.total).toBe(1);
    expect(store.getState().awaitingElicitations.map((a) => a.domain)).toEqual(['a.example']);
    connectStore(store, transport);
    transport.emit('elicitation.awaitingChanged', { awaiting: [] });
    expect(store.getState().awaitingElicitations).toEqual([]);
  });
});
