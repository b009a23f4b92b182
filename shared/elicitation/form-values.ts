import type { ElicitationField, MultiSelectField, NumberField, SelectField, StringField } from './form-schema';
import { isDate, isDateTime, isEmail, isUri } from './formats';
import { pendingError, type FieldProblem, type PendingErrorCode } from '../domain/pending-errors';

/** A value as the form holds it: text inputs give strings, checkboxes booleans, multi-selects lists. */
export type FormValue = string | number | boolean | string[] | null | undefined;

/** What goes back to the server in `ElicitResult.content`. */
export type ElicitationContent = Record<string, string | number | boolean | string[]>;

/** Either the cleaned content, or one problem per field that needs fixing (its English and its code). */
export type ElicitationValidation =
  { ok: true; content: ElicitationContent } | { ok: false; errors: Record<string, FieldProblem> };

/** One check's verdict for one field: a value to send, nothing to send, or what is wrong. */
type FieldVerdict = { value: string | number | boolean | string[] } | { omit: true } | { error: FieldProblem };

const FORMAT_HELP: Record<NonNullable<StringField['format']>, PendingErrorCode & `pending-errors.field-${string}`> = {
  email: 'pending-errors.field-email',
  uri: 'pending-errors.field-uri',
  date: 'pending-errors.field-date',
  'date-time': 'pending-errors.field-date-time',
};

const FORMAT_CHECK: Record<NonNullable<StringField['format']>, (value: string) => boolean> = {
  email: isEmail,
  uri: isUri,
  date: isDate,
  'date-time': isDateTime,
};

/** JSON Schema counts string length in code points, not UTF-16 units. */
function length(text: string): number {
  return [...text].length;
}

function missing(field: ElicitationField): FieldVerdict {
  if (!field.required) return { omit: true };
  const verb = field.kind === 'select' || field.kind === 'multi-select' ? 'choose' : 'enter';
  return { error: pendingError('pending-errors.field-required', { field: field.label, verb }) };
}

function checkString(field: StringField, raw: FormValue): FieldVerdict {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return missing(field);
  if (typeof raw !== 'string') return { error: pendingError('pending-errors.field-text', {}) };
  const size = length(raw);
  if (field.minLength !== undefined && size < field.minLength)
    return { error: pendingError('pending-errors.field-too-short', { min: field.minLength, now: size }) };
  if (field.maxLength !== undefined && size > field.maxLength)
    return { error: pendingError('pending-errors.field-too-long', { max: field.maxLength, now: size }) };
  if (field.format !== undefined && !FORMAT_CHECK[field.format](raw))
    return { error: pendingError(FORMAT_HELP[field.format], {}) };
  return { value: raw };
}

const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/u;

function checkNumber(field: NumberField, raw: FormValue): FieldVerdict {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return missing(field);
  let value: number;
  if (typeof raw === 'number') value = raw;
  else if (typeof raw === 'string' && NUMBER_TEXT.test(raw.trim())) value = Number(raw.trim());
  else
    return {
      error: pendingError(field.integer ? 'pending-errors.field-whole-number' : 'pending-errors.field-number', {}),
    };
  if (!Number.isFinite(value)) return { error: pendingError('pending-errors.field-number-size', {}) };
  if (field.integer && !Number.isInteger(value))
    return { error: pendingError('pending-errors.field-fraction', { value: String(raw) }) };
  const { minimum, maximum } = field;
  const outside = (minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum);
  if (outside) {
    if (minimum !== undefined && maximum !== undefined)
      return { error: pendingError('pending-errors.field-between', { min: minimum, max: maximum }) };
    return {
      error:
        minimum !== undefined
          ? pendingError('pending-errors.field-at-least', { min: minimum })
          : pendingError('pending-errors.field-at-most', { max: maximum ?? 0 }),
    };
  }
  return { value };
}

function checkSelect(field: SelectField, raw: FormValue): FieldVerdict {
  if (raw === undefined || raw === null || raw === '') return missing(field);
  if (typeof raw !== 'string' || !field.options.some((o) => o.value === raw))
    return { error: pendingError('pending-errors.field-one-of-listed', {}) };
  return { value: raw };
}

function checkMultiSelect(field: MultiSelectField, raw: FormValue): FieldVerdict {
  if (raw === undefined || raw === null) return missing(field);
  if (!Array.isArray(raw)) return { error: pendingError('pending-errors.field-from-listed', {}) };
  if (raw.length === 0 && !field.required) return { omit: true };
  const unknown = raw.filter((v) => !field.options.some((o) => o.value === v));
  if (unknown.length > 0)
    return {
      error: pendingError('pending-errors.field-only-listed', { values: unknown.map((v) => `'${v}'`).join(', ') }),
    };
  if (new Set(raw).size !== raw.length) return { error: pendingError('pending-errors.field-each-once', {}) };
  if (field.minItems !== undefined && raw.length < field.minItems)
    return { error: pendingError('pending-errors.field-min-options', { min: field.minItems }) };
  if (field.maxItems !== undefined && raw.length > field.maxItems)
    return { error: pendingError('pending-errors.field-max-options', { max: field.maxItems }) };
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
      return typeof raw === 'boolean' ? { value: raw } : { error: pendingError('pending-errors.field-yes-no', {}) };
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
  const errors: Record<string, FieldProblem> = {};
  const content: ElicitationContent = {};
  const known = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(values)) {
    if (!known.has(key)) errors[key] = pendingError('pending-errors.not-a-field', { key });
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

/** Each field's problem with the label the form shows for it (a key that is no field keeps its own name), in the form's order of errors. */
export function labelledProblems(
  fields: readonly ElicitationField[],
  errors: Readonly<Record<string, FieldProblem>>,
): { label: string; problem: FieldProblem }[] {
  const labelOf = new Map(fields.map((f) => [f.name, f.label]));
  return Object.entries(errors).map(([name, problem]) => ({ label: labelOf.get(name) ?? name, problem }));
}
