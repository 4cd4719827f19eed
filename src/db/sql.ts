import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from './connection.js';

/** `value` matched literally inside a LIKE pattern (with ESCAPE '\\'). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `column` contains `needle`, case-insensitively; the same SQL on SQLite and PostgreSQL. */
export function containsIgnoringCase(
  column: string,
  needle: string,
  options: { lowered?: boolean } = {},
): RawBuilder<SqlBool> {
  const pattern = `%${escapeLike(needle.toLowerCase())}%`;
  const target = options.lowered ? sql.ref(column) : sql`lower(${sql.ref(column)})`;
  return sql<SqlBool>`${target} like ${pattern} escape '\\'`;
}

/** The error a unique index raises, on either engine (PostgreSQL 23505, SQLite's SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Column types for jsonRows, as PostgreSQL names them. */
export type JsonRowType = 'text' | 'uuid' | 'integer' | 'timestamptz' | 'jsonb';

/**
 * Rows passed as one JSON parameter and read back as a table (`v`) for a FROM clause: one bound
 * value and one statement however many rows, on both engines (no per-row round trips, no bound-
 * parameter limit). Column names come from code, never from input; a missing key reads as NULL.
 */
export function jsonRows(dialect: Dialect, rows: object[], columns: Record<string, JsonRowType>): RawBuilder<unknown> {
  const json = JSON.stringify(rows);
  const entries = Object.entries(columns);
  if (dialect === 'postgres') {
    const definition = entries.map(([name, type]) => `${name} ${type}`).join(', ');
    return sql`jsonb_to_recordset(${json}::jsonb) AS v(${sql.raw(definition)})`;
  }
  const select = entries.map(([name, type]) => `value ${type === 'jsonb' ? '->' : '->>'} '${name}' AS ${name}`);
  return sql`(SELECT ${sql.raw(select.join(', '))} FROM json_each(${json})) AS v`;
}
