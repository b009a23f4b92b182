import { describe, expect, it } from 'vitest';
import { EXPIRED_TASK, taskError, taskStatusWords } from './task-errors';

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

  it("writes a record's status with a detail as a code, the detail a param shown as is", () => {
    expect(taskStatusWords('task-errors.status-cancel-failed', { detail: 'socket hang up' })).toEqual({
      statusMessage: 'Berth could not cancel it (socket hang up) and stopped following it',
      statusWording: { code: 'task-errors.status-cancel-failed', params: { detail: 'socket hang up' } },
    });
    expect(taskStatusWords('task-errors.status-lost-track', { detail: 'closed' }).statusMessage).toBe(
      'Berth lost track of it: closed',
    );
    expect(taskStatusWords('task-errors.status-resume-expired', { detail: 'Task not found' }).statusMessage).toBe(
      'could not pick it up again after the restart: expired — no longer on the server (Task not found)',
    );
    expect(taskStatusWords('task-errors.status-expired', {}).statusMessage).toBe(EXPIRED_TASK);
    expect(taskStatusWords('task-errors.status-server-gone', { server: 'asker' }).statusMessage).toBe(
      "server 'asker' was removed",
    );
  });
});
