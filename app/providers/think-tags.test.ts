import { describe, expect, it } from 'vitest';
import { ThinkTagSplitter } from './think-tags';

/** Feed `pieces` as deltas; what came out as reasoning and as answer. */
function split(pieces: readonly string[]): { thinking: string; text: string; textDeltas: string[] } {
  const out = { thinking: '', text: '', textDeltas: [] as string[] };
  const splitter = new ThinkTagSplitter(
    (delta) => (out.thinking += delta),
    (delta) => {
      out.text += delta;
      out.textDeltas.push(delta);
    },
  );
  for (const piece of pieces) splitter.add(piece);
  splitter.finish();
  return out;
}

describe('ThinkTagSplitter', () => {
  it('takes <think>…</think> at the start as reasoning and the rest as the answer, whatever the cuts', () => {
    const whole = '<think>\nLet me add 2 and 2.\n</think>\n\nIt is 4.';
    for (let cut = 1; cut < whole.length; cut += 1) {
      expect(split([whole.slice(0, cut), whole.slice(cut)])).toMatchObject({
        thinking: '\nLet me add 2 and 2.\n',
        text: 'It is 4.',
      });
    }
    expect(split([...whole])).toMatchObject({ thinking: '\nLet me add 2 and 2.\n', text: 'It is 4.' });
  });

  it('leaves content without a leading <think> alone, and streams it at once', () => {
    expect(split(['Hello', ' there'])).toEqual({ thinking: '', text: 'Hello there', textDeltas: ['Hello', ' there'] });
    expect(split(['Use <think> tags', ' like this'])).toMatchObject({
      thinking: '',
      text: 'Use <think> tags like this',
    });
    // Only the start of the tag, then something else: it was text after all.
    expect(split(['<thi', 'ngs to do>'])).toMatchObject({ thinking: '', text: '<things to do>' });
  });

  it('allows whitespace before <think>, and a reply that never closes it is all reasoning', () => {
    expect(split(['\n  <think>plan', ' more</think>done'])).toMatchObject({ thinking: 'plan more', text: 'done' });
    expect(split(['<think>still thinking when cut </thi'])).toMatchObject({
      thinking: 'still thinking when cut </thi',
      text: '',
    });
  });

  it('passes a later </think> in the answer through as text', () => {
    expect(split(['<think>a</think>b </think> c'])).toMatchObject({ thinking: 'a', text: 'b </think> c' });
  });
});
