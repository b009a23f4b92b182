import type { ElicitationField, MultiSelectField, NumberField, SelectField, StringField } from './form-schema';
import { isDate, isDateTime, isEmail, isUri } from './formats';

/** A value as the form holds it: text inputs give strings, checkboxes booleans, multi-selects lists. */
export type FormValue = string | number | boolean | string[] | null | undefined;

/** What goes back to the server in `ElicitResult.content`. */
export type ElicitationContent = Record<string, string | number | boolean | string[]>;

/** Either the cleaned content, or one human message per field that needs fixing. */
export type ElicitationValidation =
  { ok: true; content: ElicitationContent } | { ok: false; errors: Record<string, string> };

/** One check's verdict for one field: a value to send, nothing to send, or what is wrong. */
type FieldVerdict = { value: string | number | boolean | string[] } | { omit: true } | { error: string };

const FORMAT_HELP: Record<NonNullable<StringField['format']>, string> = {
  email: 'Enter an email address like name@example.com',
  uri: 'Enter a full address with its scheme, like https://example.com',
  date: 'Enter a real date as YYYY-MM-DD, like 2026-05-01',
  'date-time': 'Enter a date and time with a time zone, like 2026-05-01T14:30:00Z',
};

const FORMAT_CHECK: Record<NonNullable<StringField['format']>, (value: string) => boolean> = {
  email: isEmail,
  uri: isUri,
  date: isDate,
  'date-time': isDateTime,
};

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** JSON Schema counts string length in code points, not UTF-16 units. */
function length(text: string): number {
  return [...text].length;
}

function missing(field: ElicitationField): FieldVerdict {
  if (!field.required) return { omit: true };
  const verb = field.kind === 'select' || field.kind === 'multi-select' ? 'Choose' : 'Enter';
  return { error: `${verb} a value for ${field.label}: it is required` };
}

function checkString(field: StringField, raw: FormValue): FieldVerdict {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return missing(field);
  if (typeof raw !== 'string') return { error: 'Enter text' };
  const size = length(raw);
  if (field.minLength !== undefined && size < field.minLength)
    return { error: `Use at least ${plural(field.minLength, 'character')} (now ${size})` };
  if (field.maxLength !== undefined && size > field.maxLength)
    return { error: `Use at most ${plural(field.maxLength, 'character')} (now ${size})` };
  if (field.format !== undefined && !FORMAT_CHECK[field.format](raw)) return { error: FORMAT_HELP[field.format] };
  return { value: raw };
}

const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/u;

function checkNumber(field: NumberField, raw: FormValue): FieldVerdict {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return missing(field);
  let value: number;
  if (typeof raw === 'number') value = raw;
  else if (typeof raw === 'string' && NUMBER_TEXT.test(raw.trim())) value = Number(raw.trim());
  else return { error: field.integer ? 'Enter a whole number, like 42' : 'Enter a number, like 3.5' };
  if (!Number.isFinite(value)) return { error: 'Enter a number of a usual size' };
  if (field.integer && !Number.isInteger(value)) return { error: `Enter a whole number: ${raw} has a fraction` };
  const { minimum, maximum } = field;
  const outside = (minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum);
  if (outside) {
    if (minimum !== undefined && maximum !== undefined)
      return { error: `Enter a number between ${minimum} and ${maximum}` };
    return {
      error: minimum !== undefined ? `Enter a number of at least ${minimum}` : `Enter a number of at most ${maximum}`,
    };
  }
  return { value };
}

function checkSelect(field: SelectField, raw: FormValue): FieldVerdict {
  if (raw === undefined || raw === null || raw === '') return missing(field);
  if (typeof raw !== 'string' || !field.options.some((o) => o.value === raw))
    return { error: 'Choose one of the listed options' };
  return { value: raw };
}

function checkMultiSelect(field: MultiSelectField, raw: FormValue): FieldVerdict {
  if (raw === undefined || raw === null) return missing(field);
  if (!Array.isArray(raw)) return { error: 'Choose from the listed options' };
  if (raw.length === 0 && !field.required) return { omit: true };
  const unknown = raw.filter((v) => !field.options.some((o) => o.value === v));
  if (unknown.length > 0)
    return { error: `Choose only listed options (${unknown.map((v) => `'${v}'`).join(', ')} is not one)` };
  if (new Set(raw).size !== raw.length) return { error: 'Choose each option at most once' };
  if (field.minItems !== undefined && raw.length < field.minItems)
    return { error: `Choose at least ${plural(field.minItems, 'option')}` };
  if (field.maxItems !== undefined && raw.length > field.maxItems)
    return { error: `Choose at most ${plural(field.maxItems, 'option')}` };
  return { value: [...raw] };
}

function checkField(field: ElicitationField, raw: FormValue): FieldVerdict {
  switch (field.kind) {
    case 'string':
      return checkString(field, raw);
    case 'number':
      return checkNumber(field, raw);
    case 'boolean':
      if (raw === undefined || raw === null) return missing(field);
      return typeof raw === 'boolean' ? { value: raw } : { error: 'Choose yes or no' };
    case 'select':
      return checkSelect(field, raw);
    case 'multi-select':
      return checkMultiSelect(field, raw);
  }
}

/**
 * Check what the person entered against the form and build the content to
 * send: numbers parsed, empty optional fields left out, unknown keys refused.
 */
export function validateElicitationValues(
  fields: readonly ElicitationField[],
  values: Readonly<Record<string, unknown>>,
): ElicitationValidation {
  const errors: Record<string, string> = {};
  const content: ElicitationContent = {};
  const known = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(values)) {
    if (!known.has(key)) errors[key] = `'${key}' is not a field of this form`;
  }
  for (const field of fields) {
    const verdict = checkField(field, values[field.name] as FormValue);
    if ('error' in verdict) errors[field.name] = verdict.error;
    else if ('value' in verdict) content[field.name] = verdict.value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content };
}

/** The values a new form starts with: the schema's defaults, otherwise empty. */
export function initialElicitationValues(
  fields: readonly ElicitationField[],
): Record<string, string | boolean | string[]> {
  const values: Record<string, string | boolean | string[]> = {};
  for (const field of fields) {
    switch (field.kind) {
      case 'string':
      case 'select':
        values[field.name] = field.default ?? '';
        break;
      case 'number':
        values[field.name] = field.default === undefined ? '' : String(field.default);
        break;
      case 'boolean':
        values[field.name] = field.default ?? false;
        break;
      case 'multi-select':
        values[field.name] = [...(field.default ?? [])];
        break;
    }
  }
  return values;
}

/** All field errors as one line, in form order, e.g. for an error sent back over the bridge. */
export function describeFieldErrors(
  fields: readonly ElicitationField[],
  errors: Readonly<Record<string, string>>,
): string {
  const labelOf = new Map(fields.map((f) => [f.name, f.label]));
  return Object.entries(errors)
    .map(([name, text]) => `${labelOf.get(name) ?? name}: ${text}`)
    .join('; ');
}
