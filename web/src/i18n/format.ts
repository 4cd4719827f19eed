import { currentLanguage } from './i18n';

/**
 * Dates, times, numbers and money as the person's language writes them (Intl), with times in the
 * workspace's time zone: a team in São Paulo reads the same hours whatever their laptops say. The one
 * place the dashboard formats a value for people.
 */

let workspaceTimeZone: string | undefined;

/** The zone times are shown in: the workspace's once signed in; the browser's before. */
export function showTimesIn(timeZone: string | undefined): void {
  workspaceTimeZone = timeZone;
}

const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>();
/** One formatter per language, zone and options (building one costs more than using it). */
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>(
  kind: string,
  options: object,
  make: (language: string) => T,
): T {
  const key = `${kind}|${currentLanguage()}|${workspaceTimeZone}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = make(currentLanguage());
    formatters.set(key, formatter);
  }
  return formatter;
}

const dateTimeFormat = (options: Intl.DateTimeFormatOptions) =>
  cached('date', options, (language) => new Intl.DateTimeFormat(language, { timeZone: workspaceTimeZone, ...options }));

/** An instant (ISO timestamp) as a date and time; a dash for none. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)) : '—';
}

/** An instant as a time of day only (today's messages). */
export function formatTimeOfDay(iso: string): string {
  return dateTimeFormat({ timeStyle: 'short' }).format(new Date(iso));
}

/** A calendar day (YYYY-MM-DD, already in the workspace's zone) as a date: `31 mar 2026`, `31/03/2026`… */
export function formatDay(day: string, style: 'medium' | 'short' = 'medium'): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const options: Intl.DateTimeFormatOptions = { dateStyle: style, timeZone: 'UTC' };
  return cached('day', options, (language) => new Intl.DateTimeFormat(language, options)).format(
    new Date(Date.UTC(year, month - 1, date)),
  );
}

/** A weekday's name (0 = Sunday … 6 = Saturday), e.g. for the hour-of-week chart. */
export function formatWeekday(day: number, width: 'long' | 'short' = 'short'): string {
  const options: Intl.DateTimeFormatOptions = { weekday: width, timeZone: 'UTC' };
  // 2026-03-01 was a Sunday.
  return cached('weekday', options, (language) => new Intl.DateTimeFormat(language, options)).format(
    new Date(Date.UTC(2026, 2, 1 + day)),
  );
}

/** A number with the language's digits and grouping. */
export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  return cached('number', options, (language) => new Intl.NumberFormat(language, options)).format(value);
}

/** A share (0.42) as a percentage (42 %, 42%). */
export function formatPercent(ratio: number): string {
  return formatNumber(ratio, { style: 'percent', maximumFractionDigits: 1 });
}

/** An amount of money in an ISO 4217 currency. */
export function formatMoney(amount: number, currency: string): string {
  return formatNumber(amount, { style: 'currency', currency, maximumFractionDigits: 4 });
}

const FILE_SIZE_UNITS = [
  ['gigabyte', 1024 ** 3],
  ['megabyte', 1024 ** 2],
  ['kilobyte', 1024],
] as const;

/** A file's size in its largest whole unit (`5 MB`, `6,3 MB`, `500 kB`), counted in 1024s as Meta's limits are. */
export function formatFileSize(bytes: number): string {
  const [unit, size] = FILE_SIZE_UNITS.find(([, size]) => bytes >= size) ?? FILE_SIZE_UNITS[2];
  return formatNumber(bytes / size, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 });
}

const DURATION_UNITS = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
] as const;

/** A length of time in its two largest units (`2 h 5 min`, `3 días 4 h`); a dash for none. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const total = Math.round(seconds);
  const first = DURATION_UNITS.findIndex(([, size]) => total >= size);
  if (first === -1) return formatNumber(0, { style: 'unit', unit: 'second', unitDisplay: 'short' });
  const [unit, size] = DURATION_UNITS[first]!;
  const parts = [formatNumber(Math.floor(total / size), { style: 'unit', unit, unitDisplay: 'short' })];
  const next = DURATION_UNITS[first + 1];
  const remainder = next ? Math.floor((total % size) / next[1]) : 0;
  if (next && remainder > 0)
    parts.push(formatNumber(remainder, { style: 'unit', unit: next[0], unitDisplay: 'short' }));
  return formatList(parts, 'unit');
}

/** Items as the language lists them: `a, b and c`, `a, b y c`. */
export function formatList(items: string[], type: 'conjunction' | 'unit' = 'conjunction'): string {
  const options = { type, style: type === 'unit' ? 'narrow' : 'long' } as const;
  return cached('list', options, (language) => new Intl.ListFormat(language, options)).format(items);
}

/** A time on the clock (HH:MM, already in the zone meant; 24:00 is the day's end) as the language writes it. */
export function formatClock(time: string): string {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const options: Intl.DateTimeFormatOptions = { timeStyle: 'short', timeZone: 'UTC' };
  return cached('clock', options, (language) => new Intl.DateTimeFormat(language, options)).format(
    new Date(Date.UTC(2026, 2, 1, hours, minutes)),
  );
}

const displayNames = new Map<string, Intl.DisplayNames>();
/**
 * A language or country code in the person's language: `pt_BR` (Meta's template languages write `_`)
 * → "portugués (Brasil)", `GB` → "Reino Unido"; the code itself when Intl does not know it.
 */
export function formatDisplayName(code: string, type: 'language' | 'region'): string {
  const key = `${type}|${currentLanguage()}`;
  let names = displayNames.get(key);
  if (!names) {
    names = new Intl.DisplayNames(currentLanguage(), { type, fallback: 'code' });
    displayNames.set(key, names);
  }
  try {
    return names.of(type === 'language' ? code.replaceAll('_', '-') : code) ?? code;
  } catch {
    return code; // not a well-formed code (a template language typed by hand)
  }
}

/**
 * A count for `t()`: `count` picks the plural form, the text shows it as the person's language writes
 * numbers (30,000 · 30.000 · ٣٠٬٠٠٠). Other values for the text's placeholders go in `values`.
 */
export function counted(count: number, values: Record<string, string> = {}) {
  return { count, replace: { ...values, count: formatNumber(count) } };
}
