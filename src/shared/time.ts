const STORED_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Stored form of a timestamp: ISO 8601 UTC with milliseconds; sorts lexically in SQLite. */
export function toStoredTimestamp(date: Date): string {
  return date.toISOString();
}

/** Public form of a timestamp: ISO 8601 UTC written with the `+00:00` offset, as the spec requires. */
export function formatTimestamp(stored: string): string;
export function formatTimestamp(stored: string | null): string | null;
export function formatTimestamp(stored: string | null): string | null {
  if (stored === null) return null;
  // Both engines hand back toISOString() form; anything else is normalised through Date.
  const iso = STORED_FORM.test(stored) ? stored : new Date(stored).toISOString();
  return iso.slice(0, -1) + '+00:00';
}
