import { chmod, mkdir as mkdirp, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../shared/domain/log';
import { formatLogLine, logFileName } from './log-files';
import { LogHub } from './log-hub';

let dir: string;
const hubs: LogHub[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-logs-'));
});

afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.dispose();
  await rm(dir, { recursive: true, force: true });
});

function fileHub(files: { dir: string; maxBytes?: number; keep?: number }): LogHub {
  const hub = new LogHub({ onBatch: () => undefined, files, now: () => Date.UTC(2026, 10, 22, 6) });
  hubs.push(hub);
  return hub;
}

const T0 = Date.UTC(2026, 10, 22, 6, 0, 0);

describe('logFileName', () => {
  it('maps servers to distinct, safe file names', () => {
    expect(logFileName('')).toBe('berth.log');
    expect(logFileName('github')).toBe('github.log');
    expect(logFileName('my server')).toBe('my%20server.log');
    expect(logFileName('my_server')).toBe('my_server.log');
    expect(logFileName('a/../b')).toBe('a%2F..%2Fb.log');
    expect(logFileName('100%')).toBe('100%25.log');
    expect(logFileName('berth')).not.toBe('berth.log');
    expect(logFileName('..')).not.toMatch(/^\./);
    expect(logFileName('CON')).not.toBe('CON.log');
  });
});

describe('formatLogLine', () => {
  it('writes time, source, level, logger and indents continuation lines', () => {
    const entry: LogEntry = {
      seq: 1,
      server: 'a',
      time: T0,
      source: 'notification',
      level: 'warning',
      logger: 'db',
      text: 'slow\nquery',
    };
    expect(formatLogLine(entry)).toBe('2026-11-22T06:00:00.000Z [notification] WARNING db: slow\n    query\n');
    expect(formatLogLine({ seq: 2, server: 'a', time: T0, source: 'stderr', text: 'plain' })).toBe(
      '2026-11-22T06:00:00.000Z [stderr] plain\n',
    );
  });
});

describe('formatLogLine against forged lines', () => {
  const FORGED = '2026-11-22T06:00:01.000Z [host] ERROR forged by the server';

  it('escapes line breaks and other control characters in the logger and a lone \\r in the text', () => {
    const line = formatLogLine({
      seq: 1,
      server: 'a',
      time: T0,
      source: 'notification',
      level: 'info',
      logger: `db\n${FORGED}\r`,
      text: `ok\r${FORGED}\u001b[2K\u2028x`,
    });
    expect(line).toBe(
      `2026-11-22T06:00:00.000Z [notification] INFO db\\n${FORGED}\\r: ok\\r${FORGED}\\u001b[2K\\u2028x\n`,
    );
    expect(line.split('\n')).toHaveLength(2);
  });
});

describe('LogHub file logs', () => {
  it('a log notification cannot forge a line in the file on disk: every line starting with a time is a real entry', async () => {
    const hub = fileHub({ dir: join(dir, 'logs') });
    const forged = '2026-11-22T06:00:01.000Z [host] ERROR forged';
    hub.append({ server: 'fs', time: T0, source: 'notification', level: 'info', logger: `db\n${forged}`, text: 'one' });
    hub.append({
      server: 'fs',
      time: T0 + 1,
      source: 'notification',
      level: 'info',
      text: `two\r${forged}\r\nthree\n${forged}`,
    });
    hub.append({ server: 'fs', time: T0 + 2, source: 'stderr', text: `four\r${forged}` });
    await hub.flush();
    const lines = (await readFile(join(dir, 'logs', 'fs.log'), 'utf8'))
      .split(/\r\n|\r|\n|\u2028|\u2029/)
      .filter((line) => line !== '');
    const entries = lines.filter((line) => /^\d{4}-\d\d-\d\dT/.test(line));
    expect(entries).toHaveLength(3);
    expect(entries.every((line) => !line.includes('[host]') || !line.startsWith('2026-11-22T06:00:01'))).toBe(true);
    expect(lines.filter((line) => !/^\d{4}-\d\d-\d\dT/.test(line)).every((line) => line.startsWith('    '))).toBe(true);
  });

  it('appends stderr, notification and host entries (not trace) to per-server files', async () => {
    const hub = fileHub({ dir: join(dir, 'logs') });
    hub.append({ server: 'fs', time: T0, source: 'stderr', text: 'listening' });
    hub.append({ server: 'fs', time: T0 + 1, source: 'trace', text: '→ initialize', body: '{"jsonrpc":"2.0"}' });
    hub.append({ server: 'fs', time: T0 + 2, source: 'notification', level: 'info', text: 'ready' });
    hub.append({ server: '', time: T0 + 3, source: 'host', level: 'info', text: 'Berth started' });
    hub.append({ server: 'my server', time: T0 + 4, source: 'stderr', text: 'hello' });
    await hub.flush();
    expect(await readFile(join(dir, 'logs', 'fs.log'), 'utf8')).toBe(
      '2026-11-22T06:00:00.000Z [stderr] listening\n2026-11-22T06:00:00.002Z [notification] INFO ready\n',
    );
    expect(await readFile(join(dir, 'logs', 'berth.log'), 'utf8')).toBe(
      '2026-11-22T06:00:00.003Z [host] INFO Berth started\n',
    );
    expect(await readFile(join(dir, 'logs', 'my%20server.log'), 'utf8')).toContain('hello');
    expect(hub.logFilePath('fs')).toBe(join(dir, 'logs', 'fs.log'));

    hub.append({ server: 'fs', time: T0 + 5, source: 'stderr', text: 'more' });
    await hub.flush();
    expect((await readFile(join(dir, 'logs', 'fs.log'), 'utf8')).split('\n')).toHaveLength(4);
  });

  it('keeps logs private: a 0700 folder and 0600 files whatever the umask, also a log an older Berth left 0644', async () => {
    if (process.platform === 'win32') return;
    const savedUmask = process.umask(0);
    try {
      await mkdirp(join(dir, 'old-logs'));
      await writeFile(join(dir, 'old-logs', 'fs.log'), 'before\n');
      await chmod(join(dir, 'old-logs', 'fs.log'), 0o644);
      const oldHub = fileHub({ dir: join(dir, 'old-logs') });
      oldHub.append({ server: 'fs', time: T0, source: 'stderr', text: 'after' });
      await oldHub.flush();
      expect((await stat(join(dir, 'old-logs', 'fs.log'))).mode & 0o777).toBe(0o600);

      const hub = fileHub({ dir: join(dir, 'new', 'logs'), maxBytes: 60, keep: 1 });
      for (let i = 0; i < 4; i += 1)
        hub.append({ server: 'fs', time: T0 + i, source: 'stderr', text: `line ${i} ${'x'.repeat(20)}` });
      await hub.flush();
      expect((await stat(join(dir, 'new'))).mode & 0o777).toBe(0o700);
      expect((await stat(join(dir, 'new', 'logs'))).mode & 0o777).toBe(0o700);
      expect(await readdir(join(dir, 'new', 'logs'))).toEqual(['fs.log', 'fs.log.1']);
      for (const name of ['fs.log', 'fs.log.1'])
        expect((await stat(join(dir, 'new', 'logs', name))).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(savedUmask);
    }
  });

  it('closes off a line torn by a killed process before appending', async () => {
    await mkdirp(join(dir, 'logs'));
    await writeFile(join(dir, 'logs', 'fs.log'), '2026-11-22T05:59:59.000Z [stderr] half a li');
    const hub = fileHub({ dir: join(dir, 'logs') });
    hub.append({ server: 'fs', time: T0, source: 'stderr', text: 'after restart' });
    await hub.flush();
    hub.append({ server: 'fs', time: T0 + 1, source: 'stderr', text: 'and more' });
    await hub.flush();
    expect(await readFile(join(dir, 'logs', 'fs.log'), 'utf8')).toBe(
      '2026-11-22T05:59:59.000Z [stderr] half a li\n2026-11-22T06:00:00.000Z [stderr] after restart\n2026-11-22T06:00:00.001Z [stderr] and more\n',
    );
  });

  it('writes on its own after the flush interval', async () => {
    const hub = fileHub({ dir });
    hub.append({ server: 'a', time: T0, source: 'stderr', text: 'by timer' });
    const deadline = Date.now() + 10_000;
    let text = '';
    while (!text.includes('by timer') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      text = await readFile(join(dir, 'a.log'), 'utf8').catch(() => '');
    }
    expect(text).toContain('by timer');
  });

  it('rotates at maxBytes and keeps `keep` old files', async () => {
    const hub = fileHub({ dir, maxBytes: 200, keep: 2 });
    // Each line is 43 bytes: 4 fit in 200.
    for (let i = 0; i < 30; i += 1) {
      hub.append({ server: 'rot', time: T0, source: 'stderr', text: `line ${String(i).padStart(3, '0')}` });
      if (i % 7 === 0) await hub.flush();
    }
    await hub.flush();
    expect((await readdir(dir)).sort()).toEqual(['rot.log', 'rot.log.1', 'rot.log.2']);
    for (const name of ['rot.log', 'rot.log.1', 'rot.log.2'])
      expect((await stat(join(dir, name))).size).toBeLessThanOrEqual(200);
    const numbers = async (name: string) =>
      [...(await readFile(join(dir, name), 'utf8')).matchAll(/line (\d+)/g)].map((m) => Number(m[1]));
    const current = await numbers('rot.log');
    const older = await numbers('rot.log.1');
    const oldest = await numbers('rot.log.2');
    expect(current.at(-1)).toBe(29);
    expect([...oldest, ...older, ...current]).toEqual(
      Array.from(
        { length: oldest.length + older.length + current.length },
        (_, i) => 30 - oldest.length - older.length - current.length + i,
      ),
    );
  });

  it('reports a write failure once as a host entry and keeps logging in memory', async () => {
    const blocker = join(dir, 'not-a-dir');
    await writeFile(blocker, 'I am a file');
    const hub = fileHub({ dir: blocker });
    hub.append({ server: 'a', time: T0, source: 'stderr', text: 'first' });
    await hub.flush();
    hub.append({ server: 'b', time: T0, source: 'stderr', text: 'second' });
    await hub.flush();
    await hub.flush();
    const hostErrors = hub.query({ sources: ['host'] }).entries;
    expect(hostErrors).toHaveLength(1);
    expect(hostErrors[0]).toMatchObject({ server: '', level: 'error', text: expect.stringContaining('not-a-dir') });
    expect(hub.query({ sources: ['stderr'] }).entries.map((e) => e.text)).toEqual(['first', 'second']);
    expect(await readFile(blocker, 'utf8')).toBe('I am a file');
  });
});
