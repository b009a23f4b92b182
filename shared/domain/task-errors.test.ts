import { describe, expect, it } from 'vitest';
import { taskError } from './task-errors';

describe("tasks' failures: a code with its facts, and the English Berth always said", () => {
  it("keeps the server's own words as a fact", () => {
    expect(taskError('task-errors.expired', { tool: 'crawl', server: 'jobs', detail: 'Task not found' })).toEqual({
      text:
        "the task of tool 'crawl' on server 'jobs' expired — it is no longer on the server " +
        '(it answered "Task not found"), so its result cannot be fetched. Call the tool again if it is still needed.',
      hostMessage: { code: 'task-errors.expired', params: { tool: 'crawl', server: 'jobs', detail: 'Task not found' } },
    });
  });

  it('says who cancelled a task by a fact, never by English words', () => {
    expect(taskError('task-errors.cancelled-by-you', { tool: 't', server: 's', by: 'cancel' }).text).toBe(
      "the task of tool 't' on server 's' was cancelled (cancelled by you)",
    );
    expect(taskError('task-errors.cancelled-by-you', { tool: 't', server: 's', by: 'stop' }).text).toBe(
      "the task of tool 't' on server 's' was cancelled (stopped by you)",
    );
    expect(taskError('task-errors.cancelled-by-server', { tool: 't', server: 's' }).text).toBe(
      "the task of tool 't' on server 's' was cancelled (by the server)",
    );
  });
});
