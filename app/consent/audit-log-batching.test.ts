import * as fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../../shared/domain/consent';
import { tempDir } from '../servers/test-support';
import { AuditLog } from './audit-log';

// Counts the audit log's write(2) calls; they still reach the disk.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, writeSync: vi.fn(actual.writeSync) };
});

const entry = (n: number): AuditEntry => ({
  time: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  server: 'files',
  tool: `tool-${n}`,
  argumentsDigest: `sha256:${String(n).padStart(64, '0')}`,
  decision: 'always-server',
  decidedBy: 'policy:p1',
  edited: false,
});

describe('AuditLog batching', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir('berth-audit-batch-');
    vi.mocked(fs.writeSync).mockClear();
  });
  afterEach(() => dir.cleanup());

  it('writes the lines of one tick, also those appended by the promise jobs it queued, in one write, in order', async () => {
    const log = new AuditLog({ stateDir: dir.path });
    await log.append(entry(0));
    vi.mocked(fs.writeSync).mockClear();
    // As with many tool calls in flight: one read of the server's answers wakes the next calls up one promise job after another.
    const order: string[] = [];
    const appended: Promise<void>[] = [];
    const add = (n: number, checked = false): void => {
      order.push(`tool-${n}`);
      appended.push(checked ? log.append(entry(n)) : log.appendBuilt(entry(n)));
    };
    add(1);
    const chained = Promise.resolve()
      .then(() => add(2))
      .then(() => add(3, true))
      .then(() => add(4));
    queueMicrotask(() => add(5));
    await chained;
    await Promise.all(appended);
    expect(vi.mocked(fs.writeSync)).toHaveBeenCalledTimes(1);
    const { entries } = await log.read();
    expect(entries.map((e) => e.tool).reverse()).toEqual(['tool-0', ...order]);
    await log.close();
  });

  it('settles an append only once its line is written, and loses none on close right after appends', async () => {
    const log = new AuditLog({ stateDir: dir.path });
    const read = (): string => fs.readFileSync(log.filePath, 'utf8');
    await log.append(entry(0));
    const first = log.appendBuilt(entry(1));
    let written: string | undefined;
    void first.then(() => (written = read()));
    const rest = [2, 3, 4].map((n) => log.appendBuilt(entry(n)));
    // Not awaited: close must wait for the queued lines.
    await log.close();
    expect(written).toContain('"tool-1"');
    await Promise.all([first, ...rest]);
    const fresh = new AuditLog({ stateDir: dir.path });
    expect((await fresh.read()).entries.map((e) => e.tool)).toEqual(['tool-4', 'tool-3', 'tool-2', 'tool-1', 'tool-0']);
  });
});
