import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import { ENGINE } from '../../test/server.js';
import { openDatabase } from './connection.js';

// The pool exists on SQLite only: PostgreSQL reads already run on a pool of server connections.
describe('SQLite read pool', { skip: ENGINE === 'postgres' && 'SQLite only' }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-read-pool-'));
  const { db, reads } = openDatabase({ databaseUrl: null, dataDir }, { readWorkers: 2 });
  const rows = (query: Kysely<Database>, text: string) => sql.raw<{ n: number }>(text).execute(query);

  before(() => sql`create table notes (n integer)`.execute(db));
  after(async () => {
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('a long read on the pool does not hold up statements on the main connection', async () => {
    const finished: string[] = [];
    // Millions of steps: a second or so of work on a worker thread (better-sqlite3 would hold the event loop).
    const long = rows(
      reads,
      'with recursive k(i) as (select 1 union all select i + 1 from k where i < 3000000) select count(*) as n from k',
    ).then(() => finished.push('long read'));
    await sql`insert into notes (n) values (1)`.execute(db);
    await rows(db, 'select count(*) as n from notes');
    finished.push('main connection');
    await long;
    assert.deepEqual(finished, ['main connection', 'long read']);
  });

  test('a read on the pool sees what the main connection committed just before', async () => {
    await sql`insert into notes (n) values (42)`.execute(db);
    const { rows: found } = await rows(reads, 'select n from notes where n = 42');
    assert.deepEqual(found, [{ n: 42 }]);
  });

  test('the pool refuses writes and changes nothing', async () => {
    await assert.rejects(rows(reads, 'insert into notes (n) values (7)'), /read/i);
    const { rows: found } = await rows(db, 'select n from notes where n = 7');
    assert.deepEqual(found, []);
  });

  test('the pool refuses transactions', async () => {
    await assert.rejects(
      reads.transaction().execute(() => Promise.resolve()),
      /no transactions/,
    );
  });
});
