import { describe, expect, it } from 'vitest';
import { RingBuffer } from './ring-buffer';

describe('RingBuffer', () => {
  it('keeps items oldest to newest until full', () => {
    const ring = new RingBuffer<number>(3);
    expect(ring.push(1)).toBeUndefined();
    expect(ring.push(2)).toBeUndefined();
    expect([...ring]).toEqual([1, 2]);
    expect(ring.length).toBe(2);
    expect(ring.evicted).toBe(0);
  });

  it('evicts the oldest, returns it and counts evictions', () => {
    const ring = new RingBuffer<number>(3);
    for (let i = 1; i <= 3; i += 1) ring.push(i);
    expect(ring.push(4)).toBe(1);
    expect(ring.push(5)).toBe(2);
    expect([...ring]).toEqual([3, 4, 5]);
    expect(ring.toArray()).toEqual([3, 4, 5]);
    expect(ring.evicted).toBe(2);
    expect(ring.at(0)).toBe(3);
    expect(ring.at(2)).toBe(5);
    expect(ring.at(3)).toBeUndefined();
    expect(ring.at(-1)).toBeUndefined();
    expect(ring.last()).toBe(5);
  });

  it('wraps many times and stays at capacity', () => {
    const ring = new RingBuffer<number>(1_000);
    for (let i = 0; i < 25_500; i += 1) ring.push(i);
    expect(ring.length).toBe(1_000);
    expect(ring.evicted).toBe(24_500);
    expect(ring.at(0)).toBe(24_500);
    expect(ring.last()).toBe(25_499);
  });

  it('clears items and the eviction count', () => {
    const ring = new RingBuffer<string>(2);
    ring.push('a');
    ring.push('b');
    ring.push('c');
    ring.clear();
    expect(ring.length).toBe(0);
    expect(ring.evicted).toBe(0);
    expect([...ring]).toEqual([]);
    ring.push('d');
    expect([...ring]).toEqual(['d']);
  });

  it('rejects a capacity that is not a positive integer', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError);
    expect(() => new RingBuffer(1.5)).toThrow(RangeError);
  });
});
