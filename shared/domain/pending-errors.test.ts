import { describe, expect, it } from 'vitest';
import { fixFormRefusal, pendingError } from './pending-errors';

describe("pending requests' failures: a code with its facts, and the English Berth always said", () => {
  it("keeps a field's label and its rule's numbers as facts", () => {
    expect(pendingError('pending-errors.field-too-short', { min: 1, now: 0 })).toEqual({
      text: 'Use at least 1 character (now 0)',
      hostMessage: { code: 'pending-errors.field-too-short', params: { min: 1, now: 0 } },
    });
    expect(pendingError('pending-errors.field-required', { field: 'Colour', verb: 'choose' }).text).toBe(
      'Choose a value for Colour: it is required',
    );
    expect(pendingError('pending-errors.max-tokens-over', { max: 4096 }).text).toBe(
      'max tokens can be at most the 4,096 the server asked for',
    );
  });

  it('refuses a form answer naming every field in English, the first one coded', () => {
    const refusal = fixFormRefusal([
      { label: 'Name', problem: pendingError('pending-errors.field-text', {}) },
      { label: 'Age', problem: pendingError('pending-errors.field-at-most', { max: 9 }) },
    ]);
    expect(refusal).toEqual({
      text: 'Fix the form: Name: Enter text; Age: Enter a number of at most 9',
      hostMessage: {
        code: 'pending-errors.fix-form',
        params: { field: 'Name', reason: 'Enter text', more: 1 },
        cause: { code: 'pending-errors.field-text', params: {} },
      },
    });
  });
});
