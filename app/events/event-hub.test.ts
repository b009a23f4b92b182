import { describe, expect, it } from 'vitest';
import type { TopicName } from '../../shared/contract';
import { createEventHub } from './event-hub';

describe('event hub', () => {
  it('delivers each event to every subscriber, in order', () => {
    const hub = createEventHub();
    const seen: Array<[string, string, unknown]> = [];
    hub.subscribe((topic, payload) => seen.push(['a', topic, payload]));
    hub.subscribe((topic, payload) => seen.push(['b', topic, payload]));
    hub.emit('servers.removed', { name: 'one' });
    hub.emit('logs.cleared', {});
    expect(seen).toEqual([
      ['a', 'servers.removed', { name: 'one' }],
      ['b', 'servers.removed', { name: 'one' }],
      ['a', 'logs.cleared', {}],
      ['b', 'logs.cleared', {}],
    ]);
  });

  it('stops delivering after unsubscribe; unsubscribing twice is harmless', () => {
    const hub = createEventHub();
    const seen: string[] = [];
    const unsubscribe = hub.subscribe((topic) => seen.push(topic));
    hub.emit('logs.cleared', {});
    unsubscribe();
    unsubscribe();
    hub.emit('logs.cleared', {});
    expect(seen).toEqual(['logs.cleared']);
    expect(hub.listenerCount).toBe(0);
  });

  it('keeps two subscriptions of the same function independent', () => {
    const hub = createEventHub();
    let count = 0;
    const listener = (): void => {
      count += 1;
    };
    const first = hub.subscribe(listener);
    hub.subscribe(listener);
    first();
    hub.emit('logs.cleared', {});
    expect(count).toBe(1);
  });

  it('reports a throwing listener and still reaches the others', () => {
    const errors: Array<[TopicName, unknown]> = [];
    const hub = createEventHub({ onListenerError: (topic, error) => errors.push([topic, error]) });
    const boom = new Error('listener broke');
    const seen: string[] = [];
    hub.subscribe(() => {
      throw boom;
    });
    hub.subscribe((topic) => seen.push(topic));
    hub.emit('servers.removed', { name: 'x' });
    expect(seen).toEqual(['servers.removed']);
    expect(errors).toEqual([['servers.removed', boom]]);
  });

  it('lets a listener unsubscribe another one during an emit', () => {
    const hub = createEventHub();
    const seen: string[] = [];
    let unsubscribeSecond = (): void => undefined;
    hub.subscribe(() => {
      seen.push('first');
      unsubscribeSecond();
    });
    unsubscribeSecond = hub.subscribe(() => seen.push('second'));
    hub.emit('logs.cleared', {});
    hub.emit('logs.cleared', {});
    expect(seen).toEqual(['first', 'first']);
  });

  it('falls back to stderr when the reporter itself throws', () => {
    const hub = createEventHub({
      onListenerError: () => {
        throw new Error('reporter broke');
      },
    });
    hub.subscribe(() => {
      throw new Error('listener broke');
    });
    const originalError = console.error;
    const stderr: unknown[][] = [];
    console.error = (...args: unknown[]) => stderr.push(args);
    try {
      expect(() => hub.emit('logs.cleared', {})).not.toThrow();
    } finally {
      console.error = originalError;
    }
    expect(stderr).toHaveLength(1);
  });
});
