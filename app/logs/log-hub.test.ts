import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LogEntry } from '../../shared/domain/log';
import { LogHub, type LogBatchInfo, type LogHubOptions } from './log-hub';
import type { NewLogEntry } from './log-sink';

const batches: { entries: LogEntry[]; info: LogBatchInfo; at: number }[] = [];
const hubs: LogHub[] = [];

function hub(options: Partial<LogHubOptions> = {}): LogHub {
  const created = new LogHub({
    onBatch: (entries, info) => batches.push({ entries, info, at: Date.now() }),
    ...options,
  });
  hubs.push(created);
  return created;
}

const line = (server: string, text: string, extra: Partial<NewLogEntry> = {}): NewLogEntry => ({
  server,
  time: 1_000,
  source: 'stderr',
  text,
  ...extra,
});

afterEach(async () => {
  for (const created of hubs.splice(0)) await created.dispose();
  batches.length = 0;
  vi.useRealTimers();
});

describe('LogHub storage and queries', () => {
  it('redacts text, logger and body before keeping, delivering or cutting them', async () => {
    const logs = hub({ redact: (text) => text.replaceAll('hunter22', '***'), maxTextChars: 12 });
    logs.append(line('a', 'pw hunter22!', { source: 'notification', logger: 'db hunter22' }));
    logs.append(line('a', '→ call', { source: 'trace', body: '{"pw":"hunter22"}' }));
    logs.append(line('a', 'aaaaaaaaahunter22'));
    await logs.flush();
    const kept = logs.query({}).entries.sort((a, b) => a.seq - b.seq);
    expect(kept.map((entry) => [entry.text, entry.logger, entry.body])).toEqual([
      ['pw ***!', 'db ***', undefined],
      ['→ call', undefined, '{"pw":"***"}'],
      // Cut after redaction: a cut in the middle of the secret would have left 'hun' behind.
      ['aaaaaaaaa***', undefined, undefined],
    ]);
    expect(JSON.stringify(batches)).not.toContain('hunter');
  });

  it('stamps a monotonic seq across servers', () => {
    const logs = hub();
    logs.append(line('a', 'one'));
    logs.append(line('b', 'two'));
    logs.append(line('a', 'three', { source: 'host' }));
    const seqs = logs.query({}).entries.map((e) => e.seq);
    expect(seqs).toEqual([1, 2, 3]);
    expect(logs.query({}).entries.map((e) => e.text)).toEqual(['one', 'two', 'three']);
  });

  it('keeps a per-server, per-source capacity and reports evictions as dropped', () => {
    const logs = hub({ capacity: { stderr: 3, notification: 2 } });
    for (let i = 0; i < 5; i += 1) {
      logs.append(line('a', `err ${i}`));
      logs.append(line('a', `note ${i}`, { source: 'notification', level: 'info' }));
      logs.append(line('b', `err ${i}`));
    }
    const a = logs.query({ server: 'a' });
    expect(a.entries.map((e) => e.text)).toEqual(['err 2', 'err 3', 'note 3', 'err 4', 'note 4']);
    expect(a.dropped).toBe(5);
    expect(logs.query({ server: 'a', sources: ['notification'] }).dropped).toBe(3);
    expect(logs.query({ server: 'b' }).entries.map((e) => e.text)).toEqual(['err 2', 'err 3', 'err 4']);
    expect(logs.query({}).dropped).toBe(7);
    expect(logs.query({ server: 'nobody' })).toEqual({ entries: [], dropped: 0 });
  });

  describe('filters', () => {
    function filled(): LogHub {
      const logs = hub();
      logs.append(line('fs', 'Starting filesystem server'));
      logs.append(line('fs', 'debug detail', { source: 'notification', level: 'debug', logger: 'fs' }));
      logs.append(line('fs', 'disk almost FULL', { source: 'notification', level: 'warning' }));
      logs.append(
        line('fs', '→ tools/call #4', {
          source: 'trace',
          direction: 'out',
          method: 'tools/call',
          id: 4,
          body: '{"params":{"path":"/secret/Full.txt"}}',
        }),
      );
      logs.append(line('memory', 'memory ready'));
      logs.append(line('memory', 'boom', { source: 'notification', level: 'critical' }));
      logs.append(line('', 'host started', { source: 'host', level: 'info' }));
      return logs;
    }
    const texts = (result: { entries: LogEntry[] }) => result.entries.map((e) => e.text);

    it('by server', () => {
      expect(texts(filled().query({ server: 'memory' }))).toEqual(['memory ready', 'boom']);
    });

    it('by sources', () => {
      expect(texts(filled().query({ sources: ['trace', 'host'] }))).toEqual(['→ tools/call #4', 'host started']);
    });

    it('by minimum level, letting entries without a level through', () => {
      expect(texts(filled().query({ minLevel: 'warning' }))).toEqual([
        'Starting filesystem server',
        'disk almost FULL',
        '→ tools/call #4',
        'memory ready',
        'boom',
      ]);
    });

    it('by text, case-insensitively, in texts and trace bodies', () => {
      expect(texts(filled().query({ text: 'full' }))).toEqual(['disk almost FULL', '→ tools/call #4']);
      expect(texts(filled().query({ text: '(' }))).toEqual([]);
      const trace = filled().query({ text: 'SECRET' }).entries[0];
      expect(trace?.body).toBe('{"params":{"path":"/secret/Full.txt"}}');
    });

    it('after a seq', () => {
      expect(
        filled()
          .query({ afterSeq: 5 })
          .entries.map((e) => e.seq),
      ).toEqual([6, 7]);
      expect(filled().query({ afterSeq: -1 }).entries).toHaveLength(7);
    });

    it('to the newest N', () => {
      expect(texts(filled().query({ limit: 2 }))).toEqual(['boom', 'host started']);
      const logs = hub();
      for (let i = 0; i < 6_000; i += 1) logs.append(line('a', `l${i}`));
      const all = logs.query({});
      expect(all.entries).toHaveLength(5_000);
      expect(all.entries[0]?.text).toBe('l1000');
    });

    it('combined', () => {
      expect(
        texts(filled().query({ server: 'fs', sources: ['notification'], minLevel: 'info', text: 'disk' })),
      ).toEqual(['disk almost FULL']);
      expect(texts(filled().query({ sources: ['stderr', 'notification'], text: 'm', afterSeq: 1, limit: 2 }))).toEqual([
        'memory ready',
        'boom',
      ]);
    });
  });

  it('clears one server or all and says how many went', () => {
    const logs = hub();
    logs.append(line('a', '1'));
    logs.append(line('a', '2', { source: 'trace', body: '{}' }));
    logs.append(line('b', '3'));
    expect(logs.clear('a')).toBe(2);
    expect(logs.query({}).entries.map((e) => e.text)).toEqual(['3']);
    expect(logs.bodyBytes('a')).toBe(0);
    expect(logs.clear('nobody')).toBe(0);
    logs.append(line('c', '4'));
    expect(logs.clear()).toBe(2);
    expect(logs.query({}).entries).toEqual([]);
    logs.append(line('a', '5'));
    logs.removeServer('a');
    expect(logs.query({ server: 'a' }).entries).toEqual([]);
  });

  it('keeps trace bodies within the byte budget, dropping the oldest bodies but not the entries', () => {
    const logs = hub({ maxTraceBodyBytes: 100, capacity: { trace: 5 } });
    const body = (n: number) => `{"n":${n},"pad":"${'é'.repeat(12)}"}`; // 40 bytes (é is 2 bytes in UTF-8)
    expect(Buffer.byteLength(body(1))).toBe(40);
    for (let n = 1; n <= 4; n += 1) logs.append(line('s', `msg ${n}`, { source: 'trace', body: body(n) }));
    const entries = logs.query({ server: 's' }).entries;
    expect(entries.map((e) => e.text)).toEqual(['msg 1', 'msg 2', 'msg 3', 'msg 4']);
    expect(entries.map((e) => e.body)).toEqual([undefined, undefined, body(3), body(4)]);
    expect(logs.bodyBytes('s')).toBe(80);
    // Ring eviction releases the evicted entries' bodies too.
    for (let n = 5; n <= 9; n += 1) logs.append(line('s', `small ${n}`, { source: 'trace', body: 'x' }));
    expect(logs.bodyBytes('s')).toBe(5);
    // A server of its own budget is not charged for another's bodies.
    logs.append(line('t', 'other', { source: 'trace', body: body(0) }));
    expect(logs.bodyBytes('t')).toBe(40);
  });

  it('keeps one object per entry: the batch, the buffer and a query hand out the same entry, body included', async () => {
    const logs = hub();
    logs.append(
      line('a', '→ ping #1', {
        source: 'trace',
        direction: 'out',
        method: 'ping',
        id: 1,
        size: 40,
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      }),
    );
    await logs.flush();
    const delivered = batches[0]?.entries[0];
    const queried = logs.query({ server: 'a' }).entries[0];
    expect(queried).toEqual({
      seq: 1,
      server: 'a',
      time: 1_000,
      source: 'trace',
      text: '→ ping #1',
      direction: 'out',
      method: 'ping',
      id: 1,
      size: 40,
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(delivered).toBe(queried);
  });

  it('never changes an entry it handed out when its body goes over budget (the buffer gets a copy without it)', () => {
    const logs = hub({ maxTraceBodyBytes: 10 });
    logs.append(line('s', 'first', { source: 'trace', body: '0123456789' }));
    const handedOut = logs.query({}).entries[0];
    logs.append(line('s', 'second', { source: 'trace', body: 'abcdefghij' }));
    expect(handedOut?.body).toBe('0123456789');
    expect(logs.query({}).entries.map((e) => [e.text, e.body])).toEqual([
      ['first', undefined],
      ['second', 'abcdefghij'],
    ]);
    expect(logs.bodyBytes('s')).toBe(10);
    // A search over bodies no longer finds the dropped one.
    expect(logs.query({ text: '0123' }).entries).toEqual([]);
    expect(logs.query({ text: 'cdef' }).entries.map((e) => e.text)).toEqual(['second']);
  });

  it('lets go of evicted entries with bodies (what it tracks for the budget stays about the size of the buffer)', () => {
    const logs = hub({ capacity: { trace: 100 } });
    for (let n = 0; n < 20_000; n += 1) logs.append(line('s', `msg ${n}`, { source: 'trace', body: `{"n":${n}}` }));
    const state = (logs as unknown as { servers: Map<string, { bodied: LogEntry[]; bodiedHead: number }> }).servers.get(
      's',
    );
    expect((state?.bodied.length ?? 0) - (state?.bodiedHead ?? 0)).toBeLessThanOrEqual(100);
    expect(state?.bodied.length).toBeLessThan(5_000);
    expect(logs.bodyBytes('s')).toBe(
      logs.query({ server: 's' }).entries.reduce((sum, e) => sum + Buffer.byteLength(e.body ?? ''), 0),
    );
  });

  it('stays bounded when an entry of another source holds a body that outlives the trace', () => {
    const logs = hub({ capacity: { stderr: 10, notification: 10, trace: 100, host: 10, app: 10 } });
    logs.append(line('s', 'stderr with a body', { body: 'kept' }));
    for (let n = 0; n < 20_000; n += 1) logs.append(line('s', `msg ${n}`, { source: 'trace', body: `{"n":${n}}` }));
    const state = (logs as unknown as { servers: Map<string, { bodied: LogEntry[]; bodiedHead: number }> }).servers.get(
      's',
    );
    expect(state?.bodied.length).toBeLessThanOrEqual(2 * 130);
    expect(logs.query({ server: 's', sources: ['stderr'] }).entries[0]?.body).toBe('kept');
    expect(logs.bodyBytes('s')).toBe(
      logs.query({ server: 's' }).entries.reduce((sum, e) => sum + Buffer.byteLength(e.body ?? ''), 0),
    );
  });

  it('cuts absurdly long texts', () => {
    const logs = hub({ maxTextChars: 10 });
    logs.append(line('a', 'x'.repeat(25)));
    expect(logs.query({}).entries[0]?.text).toBe(`${'x'.repeat(10)}… (15 more characters)`);
  });

  it('ignores appends after dispose', async () => {
    const logs = hub();
    await logs.dispose();
    logs.append(line('a', 'late'));
    expect(logs.query({}).entries).toEqual([]);
  });
});

describe('LogHub coalescing', () => {
  it('delivers 10,000 appends in one tick as one batch of the newest entries', async () => {
    vi.useFakeTimers();
    const logs = hub();
    for (let i = 0; i < 10_000; i += 1) logs.append(line('flood', `line ${i}`));
    expect(batches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(33);
    expect(batches).toHaveLength(1);
    const [batch] = batches;
    expect(batch?.entries).toHaveLength(2_000);
    expect(batch?.entries[0]?.text).toBe('line 8000');
    expect(batch?.entries.at(-1)?.text).toBe('line 9999');
    expect(batch?.info.skipped).toBe(8_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(batches).toHaveLength(1);
  });

  it('honours maxBatchEntries and flushIntervalMs', async () => {
    vi.useFakeTimers();
    const logs = hub({ maxBatchEntries: 10, flushIntervalMs: 100 });
    for (let i = 0; i < 15; i += 1) logs.append(line('a', `${i}`));
    await vi.advanceTimersByTimeAsync(99);
    expect(batches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches[0]?.entries.map((e) => e.text)).toEqual(['5', '6', '7', '8', '9', '10', '11', '12', '13', '14']);
    expect(batches[0]?.info.skipped).toBe(5);
  });

  it('sends at most one batch per interval under a steady stream, losing nothing below the cap', async () => {
    vi.useFakeTimers();
    const logs = hub();
    let sent = 0;
    for (let ms = 0; ms < 1_000; ms += 1) {
      for (let i = 0; i < 50; i += 1) logs.append(line('steady', `${(sent += 1)}`));
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(100);
    expect(batches.length).toBeLessThanOrEqual(Math.ceil(1_100 / 33));
    expect(batches.length).toBeGreaterThan(20);
    for (let i = 1; i < batches.length; i += 1) {
      expect((batches[i]?.at ?? 0) - (batches[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(33);
    }
    const delivered = batches.flatMap((b) => b.entries.map((e) => e.seq));
    expect(delivered).toHaveLength(50_000);
    expect(delivered).toEqual([...delivered].sort((x, y) => x - y));
    expect(batches.every((b) => b.info.skipped === 0)).toBe(true);
  });

  it('flush() delivers at once, with trace bodies attached', async () => {
    vi.useFakeTimers();
    const logs = hub();
    logs.append(line('a', 'now', { source: 'trace', body: '{"id":1}' }));
    await logs.flush();
    expect(batches[0]?.entries[0]).toMatchObject({ text: 'now', body: '{"id":1}', seq: 1 });
    await vi.advanceTimersByTimeAsync(100);
    expect(batches).toHaveLength(1);
  });

  it('with liveTrace "when-followed", sends trace entries only while someone follows the trace, and keeps them all for queries', async () => {
    vi.useFakeTimers();
    let clock = 1_000;
    const logs = hub({ liveTrace: 'when-followed', now: () => clock });
    logs.append(line('a', 'before', { source: 'trace', body: '{"id":1}' }));
    logs.append(line('a', 'stderr line'));
    await vi.advanceTimersByTimeAsync(33);
    expect(batches.flatMap((b) => b.entries.map((e) => e.text))).toEqual(['stderr line']);

    logs.followTrace(15_000);
    logs.append(line('a', 'followed', { source: 'trace', body: '{"id":2}' }));
    await vi.advanceTimersByTimeAsync(33);
    expect(batches.at(-1)?.entries).toMatchObject([{ text: 'followed', body: '{"id":2}' }]);

    // The lease ran out (the Logs view closed without saying so): kept, not sent.
    clock += 15_000;
    logs.append(line('a', 'after', { source: 'trace', body: '{"id":3}' }));
    await vi.advanceTimersByTimeAsync(33);
    expect(batches.flatMap((b) => b.entries.map((e) => e.text))).toEqual(['stderr line', 'followed']);
    expect(logs.query({ sources: ['trace'] }).entries.map((e) => e.text)).toEqual(['before', 'followed', 'after']);

    // A renewal never shortens a longer lease.
    logs.followTrace(20_000);
    logs.followTrace(5_000);
    clock += 10_000;
    logs.append(line('a', 'renewed', { source: 'trace' }));
    await vi.advanceTimersByTimeAsync(33);
    expect(batches.at(-1)?.entries.map((e) => e.text)).toEqual(['renewed']);
  });

  it('does not deliver entries cleared before the batch went out', async () => {
    vi.useFakeTimers();
    const logs = hub();
    logs.append(line('a', 'gone'));
    logs.append(line('b', 'kept'));
    logs.clear('a');
    await vi.advanceTimersByTimeAsync(33);
    expect(batches[0]?.entries.map((e) => e.text)).toEqual(['kept']);
  });

  it('reports a failing onBatch once as a host entry instead of throwing from a timer', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const logs = new LogHub({
      onBatch: () => {
        calls += 1;
        throw new Error('renderer gone');
      },
    });
    hubs.push(logs);
    logs.append(line('a', 'x'));
    await vi.advanceTimersByTimeAsync(33);
    await vi.advanceTimersByTimeAsync(33);
    logs.append(line('a', 'y'));
    await vi.advanceTimersByTimeAsync(33);
    expect(calls).toBe(3);
    const hostErrors = logs.query({ sources: ['host'] }).entries;
    expect(hostErrors).toHaveLength(1);
    expect(hostErrors[0]).toMatchObject({ server: '', level: 'error', text: expect.stringContaining('renderer gone') });
  });
});
