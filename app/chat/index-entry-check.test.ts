import { describe, expect, it } from 'vitest';
import { ConversationSummarySchema } from '../../shared/domain/chat';
import { IndexEntrySchema, checkIndexFile } from './conversation-index';
import { checkIndexEntry } from './index-entry-check';

const valid = {
  file: { size: 812, mtimeMs: 1_732_000_000_123.25, ino: 4_211_337 },
  summary: {
    id: 'c7d3a1e2-5b6f-4a8e-9c0d-1e2f3a4b5c6d',
    title: 'Trip to Lisbon',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_500_000,
    model: 'claude-a',
    messageCount: 4,
    pinned: true,
  },
};

/** Values of every kind, for each field in turn. */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  'text',
  'has space',
  'x'.repeat(65),
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  true,
  [],
  {},
  [1],
];

function withField(path: [string, string?], value: unknown): unknown {
  const copy = structuredClone(valid) as Record<string, Record<string, unknown>>;
  const [outer, inner] = path;
  if (inner === undefined) {
    if (value === undefined) delete copy[outer];
    else (copy as Record<string, unknown>)[outer] = value;
  } else if (value === undefined) delete copy[outer]![inner];
  else copy[outer]![inner] = value;
  return copy;
}

function cases(): Array<[string, unknown]> {
  const found: Array<[string, unknown]> = [['valid', valid]];
  for (const outer of ['file', 'summary'] as const) {
    for (const value of ODD_VALUES) found.push([`${outer} = ${String(value)}`, withField([outer], value)]);
    for (const inner of Object.keys(valid[outer])) {
      for (const value of ODD_VALUES)
        found.push([`${outer}.${inner} = ${JSON.stringify(value) ?? String(value)}`, withField([outer, inner], value)]);
    }
  }
  for (const value of ODD_VALUES) found.push([`entry = ${String(value)}`, value]);
  found.push([
    'extra keys everywhere',
    { ...valid, extra: 1, file: { ...valid.file, atimeMs: 3 }, summary: { ...valid.summary, pinned: true } },
  ]);
  return found;
}

describe('checkIndexEntry', () => {
  it('knows every field of a conversation summary (a new field needs the check updated)', () => {
    expect(Object.keys(valid.summary).sort()).toEqual(Object.keys(ConversationSummarySchema.shape).sort());
  });

  it.each(cases())('agrees with IndexEntrySchema: %s', (_name, value) => {
    const expected = IndexEntrySchema.safeParse(value);
    const checked = checkIndexEntry(value);
    if (expected.success) expect(checked).toEqual(expected.data);
    else expect(checked).toEqual(expect.any(String));
  });

  it('keeps an entry with only the known keys as it is, and copies one with others, without them', () => {
    expect(checkIndexEntry(valid)).toBe(valid);
    const padded = { ...valid, extra: 1, summary: { ...valid.summary, pinned: true } };
    const checked = checkIndexEntry(padded);
    expect(checked).toEqual(valid);
    expect(checked).not.toBe(padded);
  });
});

describe('checkIndexFile', () => {
  it('reads entries by conversation id', () => {
    expect(checkIndexFile({ version: 1, entries: [valid] })).toEqual({ entries: new Map([[valid.summary.id, valid]]) });
  });

  it.each<[string, unknown, string]>([
    ['not an object', [valid], 'not an object'],
    ['another version', { version: 2, entries: [valid] }, 'version 2, expected 1'],
    ['no version', { entries: [valid] }, 'version missing, expected 1'],
    ['entries not a list', { version: 1, entries: { a: valid } }, 'no list of entries'],
    [
      'one bad entry among good ones',
      { version: 1, entries: [valid, withField(['summary', 'title'], 7)] },
      'entry 1: summary.title is not text',
    ],
  ])('sets the whole index aside, saying why: %s', (_name, value, why) => {
    expect(checkIndexFile(value)).toEqual({
      entries: new Map(),
      reason: `the index does not have the expected shape (${why})`,
    });
  });
});
