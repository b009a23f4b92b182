import { describe, expect, it } from 'vitest';
import type { ElicitationField } from './form-schema';
import { initialElicitationValues, labelledProblems, validateElicitationValues } from './form-values';
import { fixFormRefusal } from '../domain/pending-errors';
import { isDate, isDateTime, isEmail, isUri } from './formats';

const str = (extra: Partial<Extract<ElicitationField, { kind: 'string' }>> = {}): ElicitationField => ({
  name: 'f',
  label: 'Field',
  required: false,
  kind: 'string',
  ...extra,
});
const num = (extra: Partial<Extract<ElicitationField, { kind: 'number' }>> = {}): ElicitationField => ({
  name: 'f',
  label: 'Field',
  required: false,
  kind: 'number',
  integer: false,
  ...extra,
});
const select: ElicitationField = {
  name: 'f',
  label: 'Colour',
  required: true,
  kind: 'select',
  options: [
    { value: 'red', label: 'Red' },
    { value: 'blue', label: 'Blue' },
  ],
};
const multi = (extra: Partial<Extract<ElicitationField, { kind: 'multi-select' }>> = {}): ElicitationField => ({
  name: 'f',
  label: 'Tools',
  required: false,
  kind: 'multi-select',
  options: ['a', 'b', 'c'].map((v) => ({ value: v, label: v.toUpperCase() })),
  ...extra,
});

/** The error for field `f`, or the cleaned value. */
function check(field: ElicitationField, value: unknown): { error: string } | { value: unknown } {
  const result = validateElicitationValues([field], value === undefined ? {} : { f: value });
  return result.ok ? { value: result.content.f } : { error: result.errors.f?.text ?? '' };
}

describe('validateElicitationValues: strings', () => {
  it('keeps text, leaves an empty optional field out, and requires a required one', () => {
    expect(check(str(), 'hello')).toEqual({ value: 'hello' });
    expect(check(str(), '')).toEqual({ value: undefined });
    expect(validateElicitationValues([str()], { f: '' })).toEqual({ ok: true, content: {} });
    expect(check(str({ required: true }), '   ')).toEqual({ error: 'Enter a value for Field: it is required' });
    expect(check(str({ required: true }), undefined)).toEqual({ error: 'Enter a value for Field: it is required' });
    expect(check(str(), 42)).toEqual({ error: 'Enter text' });
  });

  it('checks lengths in characters, not UTF-16 units', () => {
    expect(check(str({ minLength: 3 }), 'ab')).toEqual({ error: 'Use at least 3 characters (now 2)' });
    expect(check(str({ maxLength: 1 }), 'ab')).toEqual({ error: 'Use at most 1 character (now 2)' });
    expect(check(str({ maxLength: 2 }), '😀😀')).toEqual({ value: '😀😀' });
  });

  it.each([
    ['email', 'ada@example.com', 'not-an-email', 'Enter an email address like name@example.com'],
    [
      'uri',
      'https://example.com/a?b=1',
      'example.com',
      'Enter a full address with its scheme, like https://example.com',
    ],
    ['date', '2026-02-28', '2026-13-45', 'Enter a real date as YYYY-MM-DD, like 2026-05-01'],
    [
      'date-time',
      '2026-05-01T14:30:00Z',
      '2026-05-01T14:30',
      'Enter a date and time with a time zone, like 2026-05-01T14:30:00Z',
    ],
  ] as const)('format %s: accepts %s, refuses %s', (format, good, bad, message) => {
    expect(check(str({ format }), good)).toEqual({ value: good });
    expect(check(str({ format }), bad)).toEqual({ error: message });
  });
});

describe('format checks', () => {
  it('email', () => {
    expect(['a@b.co', 'first.last+tag@sub.example.org'].every(isEmail)).toBe(true);
    expect(['a@b', '@b.com', 'a b@c.com', 'a@b..com', 'a@@b.com'].some(isEmail)).toBe(false);
  });

  it('uri', () => {
    expect(['https://example.com', 'mailto:ada@example.com', 'urn:isbn:0451450523', 'file:///tmp/x'].every(isUri)).toBe(
      true,
    );
    expect(['example.com', '/relative/path', 'http://', 'not a uri', ''].some(isUri)).toBe(false);
  });

  it('date: real calendar days only', () => {
    expect(['2024-02-29', '2000-02-29', '2026-12-31'].every(isDate)).toBe(true);
    expect(
      ['2026-13-45', '2026-02-29', '1900-02-29', '2026-04-31', '2026-4-1', '26-04-01', '2026-00-10'].some(isDate),
    ).toBe(false);
  });

  it('date-time: RFC 3339 with a zone', () => {
    expect(
      [
        '2026-05-01T14:30:00Z',
        '2026-05-01T14:30:00.123+02:00',
        '2026-05-01 14:30:00-05:30',
        '2016-12-31T23:59:60Z',
      ].every(isDateTime),
    ).toBe(true);
    expect(
      [
        '2026-05-01T14:30',
        '2026-05-01T24:00:00Z',
        '2026-02-30T10:00:00Z',
        '2026-05-01T10:00:00+25:00',
        '2026-05-01',
      ].some(isDateTime),
    ).toBe(false);
  });
});

describe('validateElicitationValues: numbers', () => {
  it('parses text into numbers and keeps numbers', () => {
    expect(check(num(), '3.5')).toEqual({ value: 3.5 });
    expect(check(num(), ' -2e3 ')).toEqual({ value: -2000 });
    expect(check(num(), 7)).toEqual({ value: 7 });
    expect(check(num(), '')).toEqual({ value: undefined });
  });

  it('refuses what is not a number', () => {
    for (const bad of ['abc', '1,5', '0x10', 'Infinity', '1.2.3', true])
      expect(check(num(), bad)).toEqual({ error: 'Enter a number, like 3.5' });
    expect(check(num(), '1e999')).toEqual({ error: 'Enter a number of a usual size' });
    expect(check(num({ required: true }), '')).toEqual({ error: 'Enter a value for Field: it is required' });
  });

  it('integers: whole numbers only', () => {
    expect(check(num({ integer: true }), '12')).toEqual({ value: 12 });
    expect(check(num({ integer: true }), '12.5')).toEqual({ error: 'Enter a whole number: 12.5 has a fraction' });
    expect(check(num({ integer: true }), 'twelve')).toEqual({ error: 'Enter a whole number, like 42' });
    expect(check(num({ integer: true }), '12.0')).toEqual({ value: 12 });
  });

  it('bounds, inclusive', () => {
    expect(check(num({ minimum: 1, maximum: 10 }), '0')).toEqual({ error: 'Enter a number between 1 and 10' });
    expect(check(num({ minimum: 1, maximum: 10 }), '10')).toEqual({ value: 10 });
    expect(check(num({ minimum: 1 }), '0.5')).toEqual({ error: 'Enter a number of at least 1' });
    expect(check(num({ maximum: 1 }), '1.5')).toEqual({ error: 'Enter a number of at most 1' });
  });
});

describe('validateElicitationValues: booleans and selects', () => {
  it('booleans', () => {
    const field: ElicitationField = { name: 'f', label: 'Agree', required: true, kind: 'boolean' };
    expect(check(field, false)).toEqual({ value: false });
    expect(check(field, 'yes')).toEqual({ error: 'Choose yes or no' });
    expect(check(field, undefined)).toEqual({ error: 'Enter a value for Agree: it is required' });
  });

  it('single select: only listed values', () => {
    expect(check(select, 'blue')).toEqual({ value: 'blue' });
    expect(check(select, 'Blue')).toEqual({ error: 'Choose one of the listed options' });
    expect(check(select, '')).toEqual({ error: 'Choose a value for Colour: it is required' });
  });

  it('multi select: listed values, no repeats, item bounds', () => {
    expect(check(multi(), ['a', 'c'])).toEqual({ value: ['a', 'c'] });
    expect(check(multi(), [])).toEqual({ value: undefined });
    expect(check(multi({ required: true }), [])).toEqual({ value: [] });
    expect(check(multi(), ['a', 'z'])).toEqual({ error: "Choose only listed options ('z' is not one)" });
    expect(check(multi(), ['a', 'a'])).toEqual({ error: 'Choose each option at most once' });
    expect(check(multi({ minItems: 2 }), ['a'])).toEqual({ error: 'Choose at least 2 options' });
    expect(check(multi({ maxItems: 1 }), ['a', 'b'])).toEqual({ error: 'Choose at most 1 option' });
    expect(check(multi(), 'a')).toEqual({ error: 'Choose from the listed options' });
  });
});

describe('validateElicitationValues: the whole form', () => {
  const form: ElicitationField[] = [
    { name: 'name', label: 'Name', required: true, kind: 'string' },
    { name: 'age', label: 'Age', required: false, kind: 'number', integer: true, minimum: 0 },
    { name: 'news', label: 'Newsletter', required: false, kind: 'boolean', default: true },
    {
      name: 'pet',
      label: 'Pet',
      required: false,
      kind: 'select',
      options: [{ value: 'cat', label: 'Cat' }],
      default: 'cat',
    },
    {
      name: 'langs',
      label: 'Languages',
      required: false,
      kind: 'multi-select',
      options: [{ value: 'en', label: 'English' }],
      default: ['en'],
    },
  ];

  it('builds the content to send, numbers parsed', () => {
    expect(validateElicitationValues(form, { name: 'Ada', age: '36', news: true, pet: 'cat', langs: ['en'] })).toEqual({
      ok: true,
      content: { name: 'Ada', age: 36, news: true, pet: 'cat', langs: ['en'] },
    });
  });

  it('reports one message per field, and refuses unknown keys', () => {
    const result = validateElicitationValues(form, { name: '', age: '-1', extra: 'x' });
    expect(result).toEqual({
      ok: false,
      errors: {
        extra: {
          text: "'extra' is not a field of this form",
          hostMessage: { code: 'pending-errors.not-a-field', params: { key: 'extra' } },
        },
        name: {
          text: 'Enter a value for Name: it is required',
          hostMessage: { code: 'pending-errors.field-required', params: { field: 'Name', verb: 'enter' } },
        },
        age: {
          text: 'Enter a number of at least 0',
          hostMessage: { code: 'pending-errors.field-at-least', params: { min: 0 } },
        },
      },
    });
    if (!result.ok) {
      // The English names every field; the code carries the first field's problem as a nested code, and how many more.
      expect(fixFormRefusal(labelledProblems(form, result.errors))).toEqual({
        text: "Fix the form: extra: 'extra' is not a field of this form; Name: Enter a value for Name: it is required; Age: Enter a number of at least 0",
        hostMessage: {
          code: 'pending-errors.fix-form',
          params: {
            field: 'extra',
            reason: "'extra' is not a field of this form",
            more: 2,
          },
          cause: { code: 'pending-errors.not-a-field', params: { key: 'extra' } },
        },
      });
    }
  });

  it('starts from the defaults', () => {
    expect(initialElicitationValues(form)).toEqual({ name: '', age: '', news: true, pet: 'cat', langs: ['en'] });
    expect(validateElicitationValues(form, { ...initialElicitationValues(form), name: 'Ada' })).toEqual({
      ok: true,
      content: { name: 'Ada', news: true, pet: 'cat', langs: ['en'] },
    });
  });
});
