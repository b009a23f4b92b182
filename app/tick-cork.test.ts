import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { corkUntilTickEnd } from './tick-cork';

/** A stream that records each system-call-like flush: one entry per _write or _writev, with its chunks. */
function recordingStream(): { stream: Writable; flushes: string[][] } {
  const flushes: string[][] = [];
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string, _encoding, callback) {
      flushes.push([chunk]);
      callback();
    },
    writev(chunks, callback) {
      flushes.push(chunks.map(({ chunk }) => String(chunk)));
      callback();
    },
  });
  return { stream, flushes };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('corkUntilTickEnd', () => {
  it('sends the writes of one tick together, in order, once the tick is over', async () => {
    const { stream, flushes } = recordingStream();
    for (const text of ['a', 'b', 'c']) {
      corkUntilTickEnd(stream);
      stream.write(text);
    }
    expect(flushes).toEqual([]);
    await tick();
    expect(flushes).toEqual([['a', 'b', 'c']]);
    expect(stream.writableCorked).toBe(0);
  });

  it('includes writes made by promise jobs of the same tick', async () => {
    const { stream, flushes } = recordingStream();
    corkUntilTickEnd(stream);
    stream.write('first');
    await Promise.resolve();
    corkUntilTickEnd(stream);
    stream.write('second');
    await tick();
    expect(flushes).toEqual([['first', 'second']]);
  });

  it('keeps the writes of later ticks apart', async () => {
    const { stream, flushes } = recordingStream();
    corkUntilTickEnd(stream);
    stream.write('one');
    await tick();
    corkUntilTickEnd(stream);
    stream.write('two');
    await tick();
    expect(flushes).toEqual([['one'], ['two']]);
  });

  it('leaves nothing held when the stream is ended within the tick', async () => {
    const { stream, flushes } = recordingStream();
    corkUntilTickEnd(stream);
    stream.write('last');
    stream.end();
    await tick();
    expect(flushes).toEqual([['last']]);
    expect(stream.writableFinished).toBe(true);
  });
});
