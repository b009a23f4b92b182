import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ElicitationField } from '../../../shared/elicitation';
import { isDateTime } from '../../../shared/elicitation';
import {
  initialFormState,
  localDateTimeToRfc3339,
  rfc3339ToLocalDateTime,
  submitForm,
  toggleOption,
} from './elicitation-model';

// A zone with daylight saving, so the offset must be taken for the chosen date, not for today.
const savedTz = process.env.TZ;
beforeEach(() => {
  process.env.TZ = 'Europe/Berlin';
});
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('datetime-local ↔ RFC 3339', () => {
  it('adds seconds and the local offset of that date', () => {
    expect(localDateTimeToRfc3339('2026-07-01T14:30')).toBe('2026-07-01T14:30:00+02:00');
    expect(localDateTimeToRfc3339('2026-01-15T09:05:07')).toBe('2026-01-15T09:05:07+01:00');
    expect(isDateTime(localDateTimeToRfc3339('2026-07-01T14:30')!)).toBe(true);
  });

  it('refuses text that is not a real local date-time', () => {
    expect(localDateTimeToRfc3339('2026-02-30T10:00')).toBeUndefined();
    expect(localDateTimeToRfc3339('tomorrow')).toBeUndefined();
    expect(localDateTimeToRfc3339('2026-07-01T14:30Z')).toBeUndefined();
  });

  it('shows a server default in local time', () => {
    expect(rfc3339ToLocalDateTime('2026-07-01T12:30:00Z')).toBe('2026-07-01T14:30');
    expect(rfc3339ToLocalDateTime('2026-01-15T08:05:07Z')).toBe('2026-01-15T09:05:07');
    expect(rfc3339ToLocalDateTime('not a date')).toBe('');
  });
});

const fields: ElicitationField[] = [
  { kind: 'string', name: 'name', label: 'Name', required: true, minLength: 2 },
  {
    kind: 'string',
    name: 'when',
    label: 'When',
    required: false,
    format: 'date-time',
    default: '2026-07-01T12:30:00Z',
  },
  { kind: 'string', name: 'day', label: 'Day', required: false, format: 'date' },
  { kind: 'number', name: 'age', label: 'Age', required: true, integer: true, minimum: 0, maximum: 150 },
  { kind: 'number', name: 'score', label: 'Score', required: false, integer: false },
  { kind: 'boolean', name: 'ok', label: 'OK', required: false, default: true },
  {
    kind: 'select',
    name: 'size',
    label: 'Size',
    required: true,
    options: [
      { value: 's', label: 'Small' },
      { value: 'l', label: 'Large' },
    ],
  },
  {
    kind: 'multi-select',
    name: 'colors',
    label: 'Colors',
    required: false,
    minItems: 1,
    options: [
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'Green' },
      { value: 'b', label: 'Blue' },
    ],
    default: ['g'],
  },
];

describe('the elicitation form', () => {
  it('starts from the defaults, date-times in local time', () => {
    expect(initialFormState(fields)).toEqual({
      name: '',
      when: '2026-07-01T14:30',
      day: '',
      age: '',
      score: '',
      ok: true,
      size: '',
      colors: ['g'],
    });
  });

  it('converts what was typed into the content the server gets', () => {
    const state = {
      ...initialFormState(fields),
      name: 'Ada',
      age: '36',
      score: '2.5',
      size: 'l',
      day: '2026-03-04',
      colors: ['b', 'r'],
    };
    expect(submitForm(fields, state)).toEqual({
      ok: true,
      content: {
        name: 'Ada',
        when: '2026-07-01T14:30:00+02:00',
        day: '2026-03-04',
        age: 36,
        score: 2.5,
        ok: true,
        size: 'l',
        colors: ['b', 'r'],
      },
    });
  });

  it('puts every problem under its field', () => {
    const state = { ...initialFormState(fields), name: 'A', age: '36.5', colors: [] as string[] };
    const result = submitForm(fields, state);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(['age', 'name', 'size']);
    expect(result.errors.age?.text).toMatch(/whole number/);
    expect(result.errors.size?.text).toMatch(/Choose a value for Size/);
  });

  it('keeps a checkbox group in the order the server listed the options', () => {
    const colors = fields[7] as Extract<ElicitationField, { kind: 'multi-select' }>;
    expect(toggleOption(colors, ['b'], 'r', true)).toEqual(['r', 'b']);
    expect(toggleOption(colors, ['r', 'b'], 'r', false)).toEqual(['b']);
  });
});
