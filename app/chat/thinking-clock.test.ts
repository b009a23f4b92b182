import { describe, expect, it } from 'vitest';
import { ThinkingClock } from './thinking-clock';

describe('ThinkingClock', () => {
  it('measures each reasoning block from its first delta to whatever streams next', () => {
    let now = 1_000;
    const clock = new ThinkingClock(() => now);
    clock.other(); // text before any thinking measures nothing
    clock.thinking();
    now += 400;
    clock.thinking();
    now += 600;
    clock.other();
    now += 5_000;
    clock.thinking();
    now += 250;
    expect(clock.finish()).toEqual([1_000, 250]);
  });

  it('measures nothing for a reply without reasoning', () => {
    expect(new ThinkingClock(() => 0).finish()).toEqual([]);
  });
});
