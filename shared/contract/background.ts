import { z } from 'zod';
import { method } from './define';

/** What runs in the host now (shared/domain/background.ts HostActivity). */
export const HostActivitySchema = z.object({
  replies: z.number().int().nonnegative(),
  tasks: z.number().int().nonnegative(),
  subscriptions: z.number().int().nonnegative(),
  waiting: z.number().int().nonnegative(),
});

/** Berth while its window is closed (issue 35): what runs. */
export const backgroundMethods = {
  'app.activity': method({
    summary: 'What runs now: replies being written, tasks, event subscriptions, requests waiting for the person.',
    input: z.object({}).strict(),
    output: HostActivitySchema,
  }),
};

export const backgroundTopics = {
  /** What runs changed (a reply started or ended, a task, a subscription, a waiting request). */
  'app.activity': HostActivitySchema,
};
