import { describe, expect, it } from 'vitest';
import type { HostActivity } from '../../shared/domain/background';
import { ActivityWatch } from './activity';

describe('ActivityWatch', () => {
  it('recounts once per tick however many events came, and tells only a change', async () => {
    const counts = { replies: 0, tasks: 0, subscriptions: 0, waiting: 0 };
    let reads = 0;
    const told: HostActivity[] = [];
    const watch = new ActivityWatch(
      {
        replies: () => {
          reads += 1;
          return counts.replies;
        },
        tasks: () => counts.tasks,
        subscriptions: () => counts.subscriptions,
        waiting: () => counts.waiting,
      },
      (activity) => void told.push(activity),
    );
    counts.replies = 1;
    for (let i = 0; i < 50; i += 1) watch.touch();
    await Promise.resolve();
    expect(reads).toBe(1);
    expect(told).toEqual([{ replies: 1, tasks: 0, subscriptions: 0, waiting: 0 }]);
    watch.touch();
    await Promise.resolve();
    expect(told).toHaveLength(1);
    counts.replies = 0;
    counts.waiting = 2;
    watch.touch();
    await Promise.resolve();
    expect(told.at(-1)).toEqual({ replies: 0, tasks: 0, subscriptions: 0, waiting: 2 });
  });
});
