import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TopicName } from '../../shared/contract';
import { alwaysOpenMonitor, type RendererTransport } from './connection';
import { withValidatedEvents } from './index';

/** The smallest transport that lets a test push raw event payloads. */
function rawTransport() {
  const listeners = new Map<string, (payload: unknown) => void>();
  const transport: RendererTransport = {
    connection: alwaysOpenMonitor(),
    call: () => Promise.resolve({ ok: false, code: 'INTERNAL', message: 'not used' }),
    on: (topic, listener) => {
      listeners.set(topic, listener as (payload: unknown) => void);
      return () => listeners.delete(topic);
    },
    close: () => undefined,
  };
  return { transport, emit: (topic: TopicName, payload: unknown) => listeners.get(topic)?.(payload) };
}

afterEach(() => vi.restoreAllMocks());

describe('withValidatedEvents', () => {
  it('passes payloads that match the topic schema', () => {
    const { transport, emit } = rawTransport();
    const seen: unknown[] = [];
    withValidatedEvents(transport).on('servers.removed', (p) => seen.push(p));
    emit('servers.removed', { name: 'x' });
    expect(seen).toEqual([{ name: 'x' }]);
  });

  it('drops and reports payloads that do not match', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { transport, emit } = rawTransport();
    const seen: unknown[] = [];
    withValidatedEvents(transport).on('logs.appended', (p) => seen.push(p));
    emit('logs.appended', { entries: [{ seq: 'one' }] });
    expect(seen).toEqual([]);
    expect(errors).toHaveBeenCalledOnce();
    expect(String(errors.mock.calls[0]![0])).toContain('logs.appended');
  });
});
