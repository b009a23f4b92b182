import { describe, expect, it } from 'vitest';
import { CHARS_PER_TOKEN } from '../../../shared/domain/chat-usage';
import {
  capResultParts,
  DEFAULT_RESULT_LIMIT_TOKENS,
  MEDIA_COST_CHARS,
  MIN_RESULT_LIMIT_TOKENS,
  READ_RESULT_TOOL,
  readBoundChars,
  resultCostChars,
  resultFlatText,
  resultLimitTokens,
  type ModelResultPart,
} from './result-cap';

const text = (value: string): ModelResultPart => ({ type: 'text', text: value });
const image: ModelResultPart = {
  type: 'image',
  source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
};
const subject = { resultId: 'toolu_1', server: 'files' };
const textsOf = (parts: readonly ModelResultPart[]): string =>
  parts.map((part) => (part.type === 'text' ? part.text : `<${part.type}>`)).join('|');

/** Numbered lines, each `width` characters with its newline. */
function lines(count: number, width = 20): string {
  return Array.from({ length: count }, (_, index) =>
    `line ${String(index + 1).padStart(6, '0')}`.padEnd(width - 1, '.'),
  ).join('\n');
}

describe('capResultParts', () => {
  it('leaves a result within the limit as it is', () => {
    expect(capResultParts([text('x'.repeat(4_000))], 1_000, subject)).toBeUndefined();
    expect(capResultParts([text('x'.repeat(1_000)), image], 2_000, subject)).toBeUndefined();
  });

  it('cuts by the model’s corrected characters a token when given, and records them so later requests cut the same', () => {
    // 4,000 characters fit 1,000 tokens by the rule of thumb, not for a model that counts 2 characters a token.
    expect(capResultParts([text('x'.repeat(4_000))], 1_000, subject, 2)).toMatchObject({
      record: { limitTokens: 1_000, charsPerToken: 2 },
    });
    const whole = lines(10_000);
    const dense = capResultParts([text(whole)], 1_000, subject, 2);
    const plain = capResultParts([text(whole)], 1_000, subject);
    expect(plain?.record.charsPerToken).toBeUndefined();
    expect(dense?.record.shownChars).toBeLessThan((plain?.record.shownChars ?? 0) / 1.5);
  });

  it('sends the head and the tail of a long text with a note saying what was left out and how to read it', () => {
    const whole = lines(100_000);
    const capped = capResultParts([text(whole)], 1_000, subject);
    expect(capped).toBeDefined();
    const [head, note, tail] = (capped?.parts ?? []).map((part) => (part.type === 'text' ? part.text : ''));
    expect(capped?.parts).toHaveLength(1);
    // One merged text: head, note, tail.
    const sent = head ?? '';
    expect(note).toBeUndefined();
    expect(tail).toBeUndefined();
    expect(sent.startsWith('line 000001')).toBe(true);
    expect(sent.endsWith(whole.slice(-200))).toBe(true);
    expect(sent).toContain(`call ${READ_RESULT_TOOL} with result_id "toolu_1"`);
    expect(sent).toContain('from server "files"');
    expect(sent).toContain(`it is ${whole.length.toLocaleString('en-US')} characters (100,000 lines`);
    expect(sent).toContain('above the limit of 1,000 tokens');
    // Within the limit (the note included) and most of it saved.
    expect(sent.length).toBeLessThanOrEqual(1_000 * CHARS_PER_TOKEN);
    expect(capped?.record).toEqual({ limitTokens: 1_000, shownChars: expect.any(Number), totalChars: whole.length });
    expect(capped?.record.shownChars).toBeGreaterThan(2_000);
    expect(capped?.savedTokens).toBeGreaterThan(whole.length / CHARS_PER_TOKEN - 1_000);
  });

  it('cuts at line breaks, so the head ends and the tail starts with whole lines, and says which lines it shows', () => {
    const whole = lines(5_000);
    const sent = textsOf(capResultParts([text(whole)], 600, subject)?.parts ?? []);
    const headPart = sent.slice(0, sent.indexOf('[Berth cut'));
    expect(headPart.endsWith('\n')).toBe(true);
    const tailPart = sent.slice(sent.indexOf('Read only what you need.]') + 'Read only what you need.]'.length);
    expect(tailPart).toMatch(/^\nline \d{6}/);
    const headLines = headPart.trimEnd().split('\n').length;
    expect(sent).toContain(`(lines 1–${headLines})`);
    expect(sent).toMatch(/Left out: offsets (\d+)–(\d+)/);
    const [, from, to] = /Left out: offsets (\d+)–(\d+)/.exec(sent) ?? [];
    // The offsets name exactly the part that is missing.
    expect(whole.slice(0, Number(from))).toBe(headPart.slice(0, -1));
    expect(whole.slice(Number(to))).toBe(tailPart.slice(1));
  });

  it('never splits a surrogate pair, even without line breaks', () => {
    for (const [prefix, limit] of [
      ['', 500],
      ['a', 500],
      ['a', 777],
      ['', 1_001],
      ['ab', 2_345],
    ] as const) {
      const whole = prefix + '😀'.repeat(50_000) + 'é'.repeat(3) + '𝄞'.repeat(40_000);
      const sent = textsOf(capResultParts([text(whole)], limit, subject)?.parts ?? []);
      // A lone surrogate would be an unpaired code unit.
      expect(sent).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      expect(sent.startsWith(`${prefix}😀`)).toBe(true);
      expect(sent.endsWith('𝄞')).toBe(true);
    }
  });

  it('caps many small blocks as one text, whole blocks first, and keeps images that fit', () => {
    const parts = [image, ...Array.from({ length: 20_000 }, (_, index) => text(`block ${index}`)), image];
    const capped = capResultParts(parts, 8_000, subject);
    expect(capped).toBeDefined();
    const out = capped?.parts ?? [];
    // An image, one merged text (head, note, tail), an image: not 20,000 blocks.
    expect(out.map((part) => part.type)).toEqual(['image', 'text', 'image']);
    const sent = textsOf(out);
    expect(sent).toContain('block 0\nblock 1\n');
    expect(sent).toContain('block 19999');
    expect(resultCostChars(out)).toBeLessThanOrEqual(8_000 * CHARS_PER_TOKEN);
  });

  it('drops images beyond the limit and counts each as MEDIA_COST_CHARS', () => {
    const parts = Array.from({ length: 40 }, () => image);
    expect(resultCostChars(parts)).toBe(40 * MEDIA_COST_CHARS + 39);
    const capped = capResultParts(parts, 10_000, subject);
    const images = capped?.parts.filter((part) => part.type === 'image').length ?? 0;
    expect(images).toBeGreaterThan(0);
    expect(images * MEDIA_COST_CHARS).toBeLessThanOrEqual(10_000 * CHARS_PER_TOKEN);
    expect(textsOf(capped?.parts ?? [])).toContain('[Berth cut this tool result');
  });

  it('cuts a big embedded resource the same way (its text is part of the result)', () => {
    const resource = `Resource file:///big.log (text/plain):\n${lines(50_000)}`;
    const sent = textsOf(capResultParts([text('Here is the log'), text(resource)], 1_000, subject)?.parts ?? []);
    expect(sent.startsWith('Here is the log\nResource file:///big.log (text/plain):\nline 000001')).toBe(true);
    expect(sent).toContain('line 050000');
    expect(sent.length).toBeLessThan(4_000);
  });

  it('with a tiny limit sends only the note (no negative slices, no crash)', () => {
    for (const limit of [0, 1, 10, 100, 300]) {
      const capped = capResultParts([text('abc\n'.repeat(10_000))], limit, { resultId: 'r' });
      expect(capped?.parts).toHaveLength(1);
      const sent = textsOf(capped?.parts ?? []);
      expect(sent.startsWith('[Berth cut this tool result: it is 40,000 characters')).toBe(true);
      expect(sent).toContain('None of it fits here.');
      expect(capped?.record.shownChars).toBe(0);
    }
  });

  it('names offsets in the flat text the reading tool reads', () => {
    const parts = [text('a'.repeat(30_000)), image, text('b'.repeat(30_000))];
    const flat = resultFlatText(parts);
    expect(flat).toBe(`${'a'.repeat(30_000)}\n[image: image/png]\n${'b'.repeat(30_000)}`);
    const sent = textsOf(capResultParts(parts, 2_000, subject)?.parts ?? []);
    expect(sent).toContain(`offsets 0–`);
    expect(sent).toContain(`–${flat.length} (lines`);
  });
});

describe('resultLimitTokens', () => {
  it('is the server’s own limit when the person set one', () => {
    expect(resultLimitTokens(2_500, 200_000)).toBe(2_500);
  });

  it('is Berth’s ceiling for big contexts, a tenth of a small context, never below the minimum', () => {
    expect(resultLimitTokens(undefined, 200_000)).toBe(DEFAULT_RESULT_LIMIT_TOKENS);
    expect(resultLimitTokens(undefined, undefined)).toBe(DEFAULT_RESULT_LIMIT_TOKENS);
    expect(resultLimitTokens(undefined, 32_000)).toBe(3_200);
    expect(resultLimitTokens(undefined, 2_000)).toBe(MIN_RESULT_LIMIT_TOKENS);
  });

  it('bounds one read to about the limit, less the room of a note', () => {
    expect(readBoundChars(10_000)).toBe(38_800);
    expect(readBoundChars(1)).toBe(1_000);
  });
});
