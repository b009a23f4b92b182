import { z } from 'zod';
import { TaskRecordSchema, TasksChangedSchema } from '../domain/task';
import { method } from './define';

const TaskIdSchema = z.string().min(1).max(200);

/** MCP tasks across servers: the Tasks view and each tool card's task. */
export const tasksMethods = {
  'tasks.list': method({
    summary: 'Every running and recent task across servers, newest first.',
    input: z.object({}).strict(),
    output: z.array(TaskRecordSchema),
  }),
  'tasks.cancel': method({
    summary:
      'Cancel one running task (tasks/cancel to its server, or Berth stops waiting for the person); NOT_FOUND for an unknown id, a finished task is left as it is.',
    input: z.object({ id: TaskIdSchema }).strict(),
    output: z.object({ status: z.string() }),
  }),
  'tasks.clear': method({
    summary: 'Remove finished tasks from the list (running ones stay).',
    input: z.object({}).strict(),
    output: z.object({ removed: z.number().int().min(0) }),
  }),
  'tasks.setWindowVisible': method({
    summary: 'The window was hidden or shown: polling of running tasks backs off while nobody can see it.',
    input: z.object({ visible: z.boolean() }).strict(),
    output: z.object({}),
  }),
};

export const tasksTopics = {
  /** Tasks created, updated or removed: only what changed. */
  'tasks.changed': TasksChangedSchema,
};
