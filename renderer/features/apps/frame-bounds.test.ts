import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APP_FRAME_BORDER_PX,
  clampAppHeight,
  DEFAULT_APP_HEIGHT,
  frameBoxHeight,
  MAX_APP_HEIGHT,
  MAX_APP_REQUEST_JSON_CHARS,
  MIN_APP_HEIGHT,
  requestJsonSize,
  throttleLatest,
} from './frame-bounds';

describe('clampAppHeight', () => {
  it('keeps the height the app asks for within bounds', () => {
    expect(clampAppHeight(300, 100)).toBe(300);
    expect(clampAppHeight(10, 100)).toBe(MIN_APP_HEIGHT);
    expect(clampAppHeight(-5, 100)).toBe(MIN_APP_HEIGHT);
    expect(clampAppHeight(1e9, 100)).toBe(MAX_APP_HEIGHT);
    expect(clampAppHeight(240.6, 100)).toBe(241);
  });

  it('ignores nonsense and keeps the current height', () => {
    expect(clampAppHeight(Number.NaN, 180)).toBe(180);
    expect(clampAppHeight(Number.POSITIVE_INFINITY, 180)).toBe(180);
    expect(clampAppHeight(undefined, 180)).toBe(180);
  });
});

describe('frameBoxHeight', () => {
  it('keeps an app sized to its window (height: 100vh) at a stable height, round after round', () => {
    // Such an app reports its viewport, which is the frame's box less its border.
    const viewportOf = (box: number) => box - 2 * APP_FRAME_BORDER_PX;
    let box = frameBoxHeight(DEFAULT_APP_HEIGHT);
    for (let round = 0; round < 50; round += 1) box = frameBoxHeight(clampAppHeight(viewportOf(box), 0));
    expect(viewportOf(box)).toBe(DEFAULT_APP_HEIGHT);
  });
});

describe('requestJsonSize', () => {
  it('measures params as JSON and treats what cannot be serialized as too big', () => {
    expect(requestJsonSize({ a: 'xy' })).toBe(10);
    expect(requestJsonSize(undefined)).toBe(4);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(requestJsonSize(circular)).toBeGreaterThan(MAX_APP_REQUEST_JSON_CHARS);
  });
});

describe('throttleLatest', () => {
  afterEach(() => vi.useRealTimers());

  it('delivers the first value at once and then the newest at most once per interval', () => {
    vi.useFakeTimers();
    const seen: number[] = [];
    const throttle = throttleLatest<number>(100, (v) => seen.push(v));
    throttle.push(1);
    throttle.push(2);
    throttle.push(3);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(100);
    expect(seen).toEqual([1, 3]);
    throttle.push(4);
    throttle.cancel();
    vi.advanceTimersByTime(500);
    expect(seen).toEqual([1, 3]);
  });
});
