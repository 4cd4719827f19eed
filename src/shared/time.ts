/** Stored form of a timestamp: ISO 8601 UTC with milliseconds; sorts lexically in SQLite. */
export function toStoredTimestamp(date: Date): string {
  return date.toISOString();
}

/** Public form of a timestamp: ISO 8601 UTC written with the `+00:00` offset, as the spec requires. */
export function formatTimestamp(stored: string): string;
export function formatTimestamp(stored: string | null): string | null;
export function formatTimestamp(stored: string | null): string | null {
  if (stored === null) return null;
  return new Date(stored).toISOString().replace('Z', '+00:00');
}
