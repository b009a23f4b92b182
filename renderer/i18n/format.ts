import { activeLocale, intlLocale } from './i18n';

// Dates, times, numbers, sizes and durations in the active locale, through Intl. Call them while
// rendering a component that uses useT() (or useLocale()), so it re-renders when the language changes.

const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>(
  kind: string,
  options: object,
  make: (locale: string) => F,
): F {
  const locale = intlLocale(activeLocale());
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = make(locale);
    formatters.set(key, formatter);
  }
  return formatter as F;
}

/** `12,345` / `12,345` / `1.2K` (with `{ notation: 'compact' }`). */
export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  return cached('number', options, (locale) => new Intl.NumberFormat(locale, options)).format(value);
}

// Size symbols are international (Windows and macOS show "KB" in Chinese, Korean and Japanese too);
// only the number is the locale's. Intl's byte units vary by ICU version ("512 byte", "1.5 kB").
// eslint-disable-next-line lingui/no-unlocalized-strings -- the same symbols in every language (above)
const BYTE_UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** A size as people read it: `512 B`, `1.5 KB`, `3.2 MB` (binary steps of 1024, as file managers and the code before this did). */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : 1;
  return `${formatNumber(value, { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${BYTE_UNITS[unit]}`;
}

function unit(value: number, name: 'hour' | 'minute' | 'second'): string {
  const options: Intl.NumberFormatOptions = { style: 'unit', unit: name, unitDisplay: 'short' };
  return cached('duration', options, (locale) => new Intl.NumberFormat(locale, options)).format(value);
}

/**
 * A duration to the second: `12 sec`, `3 min 5 sec`, `1 hr 2 min` in English, `3分钟5秒` in Chinese.
 * (Intl.DurationFormat would do this, but Node 20, where the tests run, lacks it.)
 */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const parts =
    hours > 0
      ? [unit(hours, 'hour'), ...(minutes > 0 ? [unit(minutes, 'minute')] : [])]
      : minutes > 0
        ? [unit(minutes, 'minute'), ...(seconds > 0 ? [unit(seconds, 'second')] : [])]
        : [unit(seconds, 'second')];
  // CJK joins units with no space (3分钟5秒), as its own clocks do; others with one.
  return parts.join(/^(zh|ja|ko)\b/.test(intlLocale(activeLocale())) ? '' : ' ');
}

type DateInput = number | string | Date;
const asDate = (value: DateInput): Date => (value instanceof Date ? value : new Date(value));

/** A date and time: `Dec 7, 2026, 10:56 AM` / `2026年12月7日 10:56`. */
export function formatDateTime(
  value: DateInput,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string {
  return cached('datetime', options, (locale) => new Intl.DateTimeFormat(locale, options)).format(asDate(value));
}

/** A date alone: `Dec 7, 2026`. */
export function formatDate(value: DateInput): string {
  return formatDateTime(value, { dateStyle: 'medium' });
}

/** A time of day to the second (log lines, denials): `10:56:05 AM` / `10:56:05`. */
export function formatTime(value: DateInput): string {
  return formatDateTime(value, { timeStyle: 'medium' });
}

const RELATIVE_STEPS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** How long ago (or until): `5 minutes ago`, `yesterday`, `in 2 hours` / `5分钟前`, `昨天`. */
export function formatRelativeTime(value: DateInput, now: number = Date.now()): string {
  const seconds = Math.round((asDate(value).getTime() - now) / 1000);
  const [name, size] = RELATIVE_STEPS.find(([, step]) => Math.abs(seconds) >= step) ?? ['second', 1];
  const options: Intl.RelativeTimeFormatOptions = { numeric: 'auto' };
  return cached('relative', options, (locale) => new Intl.RelativeTimeFormat(locale, options)).format(
    Math.round(seconds / size),
    name,
  );
}
