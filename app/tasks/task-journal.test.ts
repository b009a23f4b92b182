import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../shared/domain/task';
import { KEPT_FINISHED_TASKS, TASK_JOURNAL_FILE, TaskJournal } from './task-journal';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-task-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function record(id: string, patch: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id,
    taskId: `server-${id}`,
    server: 'remote',
    side: 'requester',
    kind: 'tool',
    tool: 'research',
    status: 'working',
    createdAt: 1,
    updatedAt: 1,
    ...patch,
  };
}
const reference = (taskId: string) => ({
  endpointId: 'berth:x',
  generation: 'v1' as const,
  taskId,
  originalOperation: 'tools/call' as const,
});

describe('TaskJournal', () => {
  it('keeps records and handles in a private file, follows the registry, forgets removed tasks', async () => {
    const warnings: string[] = [];
    const journal = await TaskJournal.open({ stateDir: dir, warn: (text) => warnings.push(text) });
    journal.add({ record: record('a'), transport: 'http', reference: reference('server-a') });
    journal.add({ record: record('b', { createdAt: 2 }), transport: 'stdio', reference: reference('server-b') });
    journal.changed({
      changed: [record('a', { status: 'completed' }), record('receiver-task', { side: 'receiver' })],
      removed: ['b'],
    });
    await journal.flush();

    const file = join(dir, TASK_JOURNAL_FILE);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    const reopened = await TaskJournal.open({ stateDir: dir, warn: (text) => warnings.push(text) });
    expect(reopened.list()).toEqual([
      { record: record('a', { status: 'completed' }), transport: 'http', reference: reference('server-a') },
    ]);
    expect(warnings).toEqual([]);
  });

  it('keeps the handle of a 2026-07-28 task (a v2 reference) across a reopen', async () => {
    const journal = await TaskJournal.open({ stateDir: dir, warn: () => undefined });
    const v2 = { ...reference('server-m'), generation: 'v2' as const };
    journal.add({ record: record('m'), transport: 'http', reference: v2 });
    await journal.flush();
    const warnings: string[] = [];
    const reopened = await TaskJournal.open({ stateDir: dir, warn: (text) => warnings.push(text) });
    expect(reopened.list()).toEqual([{ record: record('m'), transport: 'http', reference: v2 }]);
    expect(warnings).toEqual([]);
  });

  it('keeps every running task but only the newest finished ones', async () => {
    const journal = await TaskJournal.open({ stateDir: dir, warn: () => undefined });
    for (let index = 0; index < KEPT_FINISHED_TASKS + 5; index += 1)
      journal.add({
        record: record(`done-${index}`, { createdAt: index + 10, status: 'completed' }),
        transport: 'http',
      });
    journal.add({ record: record('old-but-running', { createdAt: 0 }), transport: 'http', reference: reference('r') });
    await journal.flush();
    const saved = JSON.parse(await readFile(join(dir, TASK_JOURNAL_FILE), 'utf8')) as {
      tasks: Array<{ record: TaskRecord }>;
    };
    const ids = saved.tasks.map((entry) => entry.record.id);
    expect(ids).toHaveLength(KEPT_FINISHED_TASKS + 1);
    expect(ids).toContain('old-but-running');
    expect(ids).not.toContain('done-0');
    expect(ids).toContain(`done-${KEPT_FINISHED_TASKS + 4}`);
  });

  it('moves an invalid file aside, says so, and starts empty', async () => {
    await writeFile(join(dir, TASK_JOURNAL_FILE), '{"version": 1, "tasks": {"not": "a list"}}');
    const warnings: string[] = [];
    const journal = await TaskJournal.open({ stateDir: dir, warn: (text) => warnings.push(text) });
    expect(journal.list()).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('moved it to')]);
    expect((await readdir(dir)).some((name) => name.startsWith(`${TASK_JOURNAL_FILE}.corrupt-`))).toBe(true);
  });

  it('a bad entry costs that task only: the others are read, and the file as it was is copied aside', async () => {
    const good = { record: record('good'), transport: 'http', reference: reference('server-good') };
    const original = JSON.stringify({ version: 1, tasks: [{ record: {} }, good] });
    await writeFile(join(dir, TASK_JOURNAL_FILE), original);
    const warnings: string[] = [];
    const journal = await TaskJournal.open({ stateDir: dir, warn: (text) => warnings.push(text), now: () => 42 });
    expect(journal.list()).toEqual([good]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /left out 1 of 2 remembered tasks that could not be read \(#1: .*\); the file as it was is kept at .*tasks\.json\.corrupt-42$/,
      ),
    ]);
    expect(await readFile(join(dir, `${TASK_JOURNAL_FILE}.corrupt-42`), 'utf8')).toBe(original);
  });
});
