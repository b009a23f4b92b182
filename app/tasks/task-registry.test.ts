import { describe, expect, it, vi } from 'vitest';
import { MAX_TASK_TEXT, TaskRecordSchema } from '../../shared/domain/task';
import type { TaskRecord, TasksChanged } from '../../shared/domain/task';
import { TaskRegistry } from './task-registry';
import { taskStatusWords } from '../../shared/domain/task-errors';

function record(id: string, patch: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id,
    taskId: `server-${id}`,
    server: 'everything',
    side: 'requester',
    kind: 'tool',
    tool: 'research',
    status: 'working',
    createdAt: 1,
    updatedAt: 1,
    ...patch,
  };
}

describe('TaskRegistry', () => {
  it("drops Berth's coded status words when the server's own words replace them", () => {
    const tasks = new TaskRegistry({ now: () => 50 });
    const waiting = taskStatusWords('task-errors.status-waiting-restart', {});
    tasks.put(record('a', waiting));
    expect(tasks.update('a', { progress: { progress: 1 } })?.statusWording).toEqual(waiting.statusWording);
    const next = tasks.update('a', { statusMessage: 'Searching 2 of 5 sources' });
    expect(next?.statusMessage).toBe('Searching 2 of 5 sources');
    expect(next).not.toHaveProperty('statusWording');
  });

  it('announces only what changed, lists newest first and cancels through the owner', async () => {
    const changes: TasksChanged[] = [];
    const tasks = new TaskRegistry({ onChange: (change) => changes.push(change), now: () => 50 });
    const cancel = vi.fn(async () => {
      tasks.update('a', { status: 'cancelled' });
    });
    tasks.put(record('a', { createdAt: 1 }), cancel);
    tasks.put(record('b', { createdAt: 2, status: 'completed' }));
    expect(tasks.list().map((task) => task.id)).toEqual(['b', 'a']);
    expect(changes.at(-1)).toEqual({ changed: [record('b', { createdAt: 2, status: 'completed' })], removed: [] });

    expect((await tasks.cancel('a')).status).toBe('cancelled');
    expect(cancel).toHaveBeenCalledTimes(1);
    // Finished: a second cancel does nothing.
    await tasks.cancel('a');
    expect(cancel).toHaveBeenCalledTimes(1);
    await expect(tasks.cancel('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('clears finished tasks only, and tells who listens when the window is hidden', () => {
    const changes: TasksChanged[] = [];
    const tasks = new TaskRegistry({ onChange: (change) => changes.push(change) });
    tasks.put(record('running'));
    tasks.put(record('done', { status: 'failed', error: 'boom' }));
    expect(tasks.clearFinished()).toBe(1);
    expect(changes.at(-1)).toEqual({ changed: [], removed: ['done'] });
    expect(tasks.list().map((task) => task.id)).toEqual(['running']);
    expect(tasks.update('gone', { status: 'completed' })).toBeUndefined();

    const seen: boolean[] = [];
    tasks.onWindowVisibility((visible) => seen.push(visible));
    tasks.setWindowVisible(false);
    tasks.setWindowVisible(false);
    tasks.setWindowVisible(true);
    expect(seen).toEqual([false, true]);
    expect(tasks.windowVisible).toBe(true);
  });
});

describe('a server that floods its status message', () => {
  it('has its words cut to what a record keeps, so the record still fits the contract', () => {
    const changes: TasksChanged[] = [];
    const tasks = new TaskRegistry({ onChange: (change) => changes.push(change) });
    tasks.put(record('a', { statusMessage: 'x'.repeat(MAX_TASK_TEXT + 500) }));
    tasks.update('a', { status: 'failed', error: 'e'.repeat(100_000) });
    const kept = tasks.get('a');
    expect(kept?.statusMessage).toHaveLength(MAX_TASK_TEXT);
    expect(kept?.statusMessage?.endsWith('…')).toBe(true);
    expect(kept?.error).toHaveLength(MAX_TASK_TEXT);
    for (const change of changes)
      for (const changed of change.changed) expect(TaskRecordSchema.safeParse(changed).success).toBe(true);
  });
});
