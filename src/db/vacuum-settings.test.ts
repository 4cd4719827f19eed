import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { ENGINE, startServer } from '../../test/server.js';

const server = await startServer();

describe(`autovacuum of the busiest tables (${ENGINE})`, () => {
  test(
    'PostgreSQL vacuums messages and conversation spans after 2 % of their rows change',
    { skip: ENGINE !== 'postgres' },
    async () => {
      const { rows } = await sql<{ relname: string; reloptions: string[] }>`SELECT relname, reloptions FROM pg_class
      WHERE relname IN ('messages', 'conversation_spans') ORDER BY relname`.execute(server.app.services.deps.db);
      const expected = [
        'autovacuum_vacuum_scale_factor=0.02',
        'autovacuum_vacuum_insert_scale_factor=0.02',
        'autovacuum_analyze_scale_factor=0.02',
      ];
      assert.deepEqual(
        rows.map((row) => [row.relname, row.reloptions]),
        [
          ['conversation_spans', expected],
          ['messages', expected],
        ],
      );
    },
  );
});
