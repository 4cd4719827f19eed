import type { Dialect } from '../connection.js';

/** Column types per engine: native uuid/timestamptz/jsonb in PostgreSQL, text in SQLite. */
export function columnTypes(dialect: Dialect) {
  return dialect === 'postgres'
    ? ({ id: 'uuid', timestamp: 'timestamptz', json: 'jsonb' } as const)
    : ({ id: 'text', timestamp: 'text', json: 'text' } as const);
}
