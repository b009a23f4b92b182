import { readFileSync } from 'node:fs';
import { appendFile, chmod, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../shared/domain/consent';
import { tempDir } from '../servers/test-support';
import { AuditLog } from './audit-log';
import { argumentsDigest, canonicalJson } from './canonical-json';

const entry = (n: number): AuditEntry => ({
  time: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  server: 'files',
  tool: `tool-${n}`,
  argumentsDigest: argumentsDigest({ n }),
  decision: 'allow-once',
  decidedBy: 'person',
  edited: false,
});

describe('AuditLog', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir('berth-audit-');
  });
  afterEach(() => dir.cleanup());

  it('appends lines in order and reads them newest first, across instances', async () => {
    const log = new AuditLog({ stateDir: dir.path });
    await Promise.all([1, 2, 3].map((n) => log.append(entry(n))));
    const again = new AuditLog({ stateDir: dir.path });
    await again.append(entry(4));
    const page = await again.read();
    expect(page.entries.map((e) => e.tool)).toEqual(['tool-4', 'tool-3', 'tool-2', 'tool-1']);
    expect((await again.read({ limit: 2 })).entries.map((e) => e.tool)).toEqual(['tool-4', 'tool-3']);
    expect((await stat(log.filePath)).mode & 0o777).toBe(0o600);
  });

  it('makes an audit file an older Berth left 0644 private (0600), and creates its folder 0700, whatever the umask', async () => {
    if (process.platform === 'win32') return;
    const savedUmask = process.umask(0);
    try {
      const fresh = new AuditLog({ stateDir: join(dir.path, 'state') });
      await fresh.append(entry(1));
      expect((await stat(join(dir.path, 'state'))).mode & 0o777).toBe(0o700);
      expect((await stat(fresh.filePath)).mode & 0o777).toBe(0o600);
      await fresh.close();

      await chmod(fresh.filePath, 0o644);
      const restarted = new AuditLog({ stateDir: join(dir.path, 'state') });
      await restarted.append(entry(2));
      expect((await stat(restarted.filePath)).mode & 0o777).toBe(0o600);
      await restarted.close();
    } finally {
      process.umask(savedUmask);
    }
  });

  it('rotates at the size cap, keeps the configured number of files, and reads across them', async () => {
    const lineBytes = Buffer.byteLength(`${JSON.stringify(entry(10))}\n`);
    const log = new AuditLog({ stateDir: dir.path, maxBytes: lineBytes * 2, keepFiles: 2 });
    for (let n = 10; n < 17; n += 1) await log.append(entry(n));
    expect((await readdir(dir.path)).sort()).toEqual(['audit.1.jsonl', 'audit.2.jsonl', 'audit.jsonl']);
    for (const file of ['audit.jsonl', 'audit.1.jsonl', 'audit.2.jsonl']) {
      expect((await stat(join(dir.path, file))).size).toBeLessThanOrEqual(lineBytes * 2);
    }
    // 7 entries, 2 per file: [10 11] [12 13] [14 15] [16]; with 3 files kept the oldest pair is gone.
    const { entries } = await log.read({ limit: 100 });
    expect(entries.map((e) => e.tool)).toEqual(['tool-16', 'tool-15', 'tool-14', 'tool-13', 'tool-12']);
  });

  it('counts lines it cannot read instead of failing or hiding them', async () => {
    const log = new AuditLog({ stateDir: dir.path });
    await log.append(entry(1));
    await appendFile(log.filePath, 'not json\n{"time":"x"}\n');
    await log.append(entry(2));
    expect(await log.read()).toEqual({ entries: [entry(2), entry(1)], unreadableLines: 2 });
  });

  it('starts a new line after a line torn by a killed process, so the next entry survives', async () => {
    const log = new AuditLog({ stateDir: dir.path });
    await log.append(entry(1));
    const whole = `${JSON.stringify(entry(2))}\n`;
    await appendFile(log.filePath, whole.slice(0, 40));
    const restarted = new AuditLog({ stateDir: dir.path });
    await restarted.append(entry(3));
    expect(await restarted.read()).toEqual({ entries: [entry(3), entry(1)], unreadableLines: 1 });
  });

  it('writes entries that arrive during a write together, in order, and fails each of them when the disk refuses', async () => {
    const log = new AuditLog({ stateDir: dir.path });
    const first = log.append(entry(0));
    // These arrive while the first write is under way: they share the next write.
    const rest = Array.from({ length: 40 }, (_, index) => log.append(entry(index + 1)));
    await Promise.all([first, ...rest]);
    const { entries } = await log.read({ limit: 100 });
    expect(entries.map((e) => e.tool)).toEqual(Array.from({ length: 41 }, (_, index) => `tool-${40 - index}`));

    const blocked = new AuditLog({ stateDir: join(log.filePath, 'not-a-dir') });
    const results = await Promise.allSettled([
      blocked.append(entry(1)),
      blocked.append(entry(2)),
      blocked.append(entry(3)),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });

  it('settles an append only once its line is written, and loses none on a close right after appends', async () => {
    const log = new AuditLog({ stateDir: dir.path });
    await log.append(entry(0));
    const first = log.appendBuilt(entry(1));
    let writtenWhenSettled: string | undefined;
    void first.then(() => (writtenWhenSettled = readFileSync(log.filePath, 'utf8')));
    const rest = [2, 3, 4].map((n) => log.appendBuilt(entry(n)));
    // Not awaited: close waits for the queued lines.
    await log.close();
    await Promise.all([first, ...rest]);
    expect(writtenWhenSettled).toContain('"tool-1"');
    const fresh = new AuditLog({ stateDir: dir.path });
    expect((await fresh.read()).entries.map((e) => e.tool)).toEqual(['tool-4', 'tool-3', 'tool-2', 'tool-1', 'tool-0']);
  });

  it('refuses to write an entry that does not match the schema', async () => {
    const log = new AuditLog({ stateDir: dir.path });
    expect(() => log.append({ ...entry(1), decidedBy: 'somebody' } as unknown as AuditEntry)).toThrow();
    expect(await log.read()).toEqual({ entries: [], unreadableLines: 0 });
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}',
    );
    expect(argumentsDigest({ a: 1, b: 2 })).toBe(argumentsDigest({ b: 2, a: 1 }));
    expect(argumentsDigest({ a: [1, 2] })).not.toBe(argumentsDigest({ a: [2, 1] }));
  });

  it('gives the same text whether or not keys come sorted already (the fast path writes sorted objects as they are)', () => {
    expect(canonicalJson({ a: 1, b: { c: [{ x: 1, y: 2 }], d: 'e' } })).toBe(
      '{"a":1,"b":{"c":[{"x":1,"y":2}],"d":"e"}}',
    );
    expect(canonicalJson({ b: { d: 'e', c: [{ y: 2, x: 1 }] }, a: 1 })).toBe(
      '{"a":1,"b":{"c":[{"x":1,"y":2}],"d":"e"}}',
    );
    // Integer-like keys: JSON lists them first in numeric order, as before the fast path.
    expect(canonicalJson({ b: 3, 10: 1, 2: 2 })).toBe('{"2":2,"10":1,"b":3}');
    // Inherited enumerable keys are not written; the own ones still sorted.
    const inherited = Object.assign(Object.create({ z: 1 }) as Record<string, unknown>, { b: 2, a: 1 });
    expect(canonicalJson(inherited)).toBe('{"a":1,"b":2}');
    // toJSON results are sorted too (the general path), and dates written as JSON writes them.
    expect(canonicalJson({ x: { toJSON: () => ({ b: 1, a: 2 }) } })).toBe('{"x":{"a":2,"b":1}}');
    expect(canonicalJson({ a: 1, b: new Date(0) })).toBe('{"a":1,"b":"1970-01-01T00:00:00.000Z"}');
    expect(canonicalJson({ a: [1, { c: 2 }], b: null }, 2)).toBe(
      JSON.stringify({ a: [1, { c: 2 }], b: null }, undefined, 2),
    );
    expect(argumentsDigest({ text: 'ping 1' })).toBe(argumentsDigest(JSON.parse('{"text":"ping 1"}')));
    expect(argumentsDigest({ text: 'ping 1' })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('AuditLog file handle', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir('berth-audit-fd-');
  });
  afterEach(() => dir.cleanup());

  const openFds = async (): Promise<number> => (await readdir('/proc/self/fd')).length;

  it.runIf(process.platform === 'linux')(
    'keeps one descriptor open between writes, releases it on close, and reopens for a later append',
    async () => {
      const log = new AuditLog({ stateDir: dir.path });
      await log.append(entry(1));
      const whileOpen = await openFds();
      for (let n = 2; n <= 20; n += 1) await log.append(entry(n));
      expect(await openFds()).toBe(whileOpen);
      await log.close();
      expect(await openFds()).toBe(whileOpen - 1);
      await log.append(entry(21));
      await log.close();
      const page = await new AuditLog({ stateDir: dir.path }).read();
      expect(page.entries.map((e) => e.tool)).toEqual(Array.from({ length: 21 }, (_, i) => `tool-${21 - i}`));
      expect((await stat(join(dir.path, 'audit.jsonl'))).mode & 0o777).toBe(0o600);
    },
  );
});
