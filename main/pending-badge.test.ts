import { describe, expect, it, vi } from 'vitest';
import type { HostEventListener } from '../app/host/host-types';
import { bindPendingBadge } from './pending-badge';

const counts = (total: number) => ({
  'tool-call': total,
  sampling: 0,
  'sampling-answer': 0,
  elicitation: 0,
  'root-consent': 0,
  total,
});

function fakeHost() {
  const listeners = new Set<HostEventListener>();
  return {
    subscribe(listener: HostEventListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(topic: string, payload: unknown) {
      for (const listener of listeners) (listener as (t: string, p: unknown) => void)(topic, payload);
    },
  };
}

describe('the dock badge', () => {
  it('follows the number of waiting requests, set only when it changes, and stops when unbound', () => {
    const host = fakeHost();
    const set = vi.fn(() => true);
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const unbind = bindPendingBadge(host, set, log);
    host.emit('servers.changed', { name: 'x' });
    host.emit('pending.changed', { change: { type: 'opened' }, counts: counts(1) });
    host.emit('pending.changed', { change: { type: 'opened' }, counts: counts(2) });
    host.emit('pending.changed', { change: { type: 'answered' }, counts: counts(2) });
    host.emit('pending.changed', { change: { type: 'answered' }, counts: counts(0) });
    expect(set.mock.calls).toEqual([[1], [2], [0]]);
    unbind();
    host.emit('pending.changed', { change: { type: 'opened' }, counts: counts(5) });
    expect(set).toHaveBeenCalledTimes(3);
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('says once that this desktop shows no badge, and never throws into the host', () => {
    const host = fakeHost();
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    bindPendingBadge(host, () => false, log);
    host.emit('pending.changed', { change: { type: 'opened' }, counts: counts(1) });
    host.emit('pending.changed', { change: { type: 'opened' }, counts: counts(2) });
    expect(log.warn).toHaveBeenCalledTimes(1);
    const throwing = fakeHost();
    bindPendingBadge(
      throwing,
      () => {
        throw new Error('no dock');
      },
      log,
    );
    expect(() => throwing.emit('pending.changed', { change: { type: 'opened' }, counts: counts(1) })).not.toThrow();
  });
});
