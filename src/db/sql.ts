import { sql, type RawBuilder, type SqlBool } from 'kysely';

function escapeLike(value: string): string {
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
