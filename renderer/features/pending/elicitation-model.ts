import {
  initialElicitationValues,
  validateElicitationValues,
  type ElicitationField,
  type ElicitationValidation,
} from '../../../shared/elicitation';

/** What the form holds per field: text inputs give strings, checkboxes booleans, checkbox groups lists. */
export type FormState = Record<string, string | boolean | string[]>;

function pad(n: number, width = 2): string {
  return String(Math.abs(n)).padStart(width, '0');
}

/** `+02:00` for a UTC offset in minutes east of Greenwich (`Z` would hide that it is local time). */
function formatOffset(minutesEast: number): string {
  const sign = minutesEast < 0 ? '-' : '+';
  const abs = Math.abs(minutesEast);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const LOCAL_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/u;

/**
 * A `datetime-local` input value (`2026-05-01T14:30`) as RFC 3339 with the
 * offset this computer had at that moment (`2026-05-01T14:30:00+02:00`).
 * Undefined when the text is not a local date-time.
 */
export function localDateTimeToRfc3339(local: string): string | undefined {
  const match = LOCAL_DATETIME.exec(local);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part))) as [number, number, number, number, number, number];
  const date = new Date(year, month - 1, day, hour, minute, second);
  // A date the calendar does not have (Feb 30) rolls over in Date: refuse it instead.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return undefined;
  // The offset depends on the date (daylight saving), so it is taken for that moment, not for now.
  const offset = -date.getTimezoneOffset();
  // eslint-disable-next-line lingui/no-unlocalized-strings -- an RFC 3339 value, not words
  return `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${pad(second)}${formatOffset(offset)}`;
}

/** An RFC 3339 date-time (a server's default) as a `datetime-local` value in this computer's time zone. */
export function rfc3339ToLocalDateTime(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return '';
  const d = new Date(time);
  const seconds = d.getSeconds() !== 0 ? `:${pad(d.getSeconds())}` : '';
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a datetime-local value, not words
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}${seconds}`;
}

function isDateTimeField(field: ElicitationField): boolean {
  return field.kind === 'string' && field.format === 'date-time';
}

/** The values a form starts with: the schema's defaults, date-times shown in local time. */
export function initialFormState(fields: readonly ElicitationField[]): FormState {
  const values: FormState = initialElicitationValues(fields);
  for (const field of fields) {
    const value = values[field.name];
    if (isDateTimeField(field) && typeof value === 'string' && value !== '')
      values[field.name] = rfc3339ToLocalDateTime(value);
  }
  return values;
}

/** The form as the shared validator reads it: date-times converted to RFC 3339 (kept as typed when they do not parse). */
export function toElicitationValues(
  fields: readonly ElicitationField[],
  state: FormState,
): Record<string, string | boolean | string[]> {
  const values: Record<string, string | boolean | string[]> = {};
  for (const field of fields) {
    const value = state[field.name];
    if (value === undefined) continue;
    if (isDateTimeField(field) && typeof value === 'string' && value !== '')
      values[field.name] = localDateTimeToRfc3339(value) ?? value;
    else values[field.name] = value;
  }
  return values;
}

/**
 * Checks the form with the same rules the host applies, so the person sees
 * every problem under its field before anything is sent.
 */
export function submitForm(fields: readonly ElicitationField[], state: FormState): ElicitationValidation {
  return validateElicitationValues(fields, toElicitationValues(fields, state));
}

/** A checkbox group toggle that keeps the options in the order the server listed them. */
export function toggleOption(
  field: Extract<ElicitationField, { kind: 'multi-select' }>,
  current: readonly string[],
  value: string,
  on: boolean,
): string[] {
  const chosen = new Set(current);
  if (on) chosen.add(value);
  else chosen.delete(value);
  return field.options.map((o) => o.value).filter((v) => chosen.has(v));
}
