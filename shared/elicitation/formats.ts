/**
 * Format checks for elicitation string fields. Pure and shared, so the form
 * in the renderer and the host's second check agree on every value.
 */

// Deliberately modest: one @, no spaces, a dot in the domain. Stricter RFC 5322
// checks reject real addresses more often than they catch typos.
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/u;

export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** An absolute URI: a scheme and something after it (RFC 3986 as the URL parser reads it). */
export function isUri(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/u.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** `YYYY-MM-DD` naming a day that exists (RFC 3339 full-date). */
export function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * RFC 3339 date-time: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`. The offset is
 * required, so a value never means different instants on different machines.
 */
export function isDateTime(value: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/u.exec(
    value,
  );
  if (match === null || !isDate(match[1] ?? '')) return false;
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4])];
  // 60 allows a leap second, as RFC 3339 does.
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (match[5] !== undefined && (Number(match[6]) > 23 || Number(match[7]) > 59)) return false;
  return true;
}
