import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import { ENGINE } from '../../test/server.js';
import { WAL_LIMIT_BYTES } from './checkpointer.js';
import { openDatabase, SQLITE_FILE } from './connection.js';

// PostgreSQL keeps its own write-ahead log.
describe('SQLite write-ahead log', { skip: ENGINE === 'postgres' && 'SQLite only' }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-wal-'));
  const { db, reads } = openDatabase({ databaseUrl: null, dataDir }, { backgroundCheckpoints: true, readWorkers: 2 });
  const walSize = () => fs.statSync(path.join(dataDir, `${SQLITE_FILE}-wal`)).size;
  after(async () => {
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('stays bounded while a server writes without pause and reads overlap every write', async () => {
    await sql`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)`.execute(db);
    let writing = true;
    // Readers on the pool's connections, one always in a snapshot: what keeps a passive checkpoint from
    // ever reaching the end of the log, so the log is never started over.
    const reader = async () => {
      while (writing) await sql`SELECT count(*) AS n, max(id) AS last FROM notes`.execute(reads);
    };
    const readers = [reader(), reader()];
    const body = 'x'.repeat(4000);
    let largest = 0;
    // Three times the limit, in small transactions as requests write.
    for (let written = 0; written < 3 * WAL_LIMIT_BYTES; written += 50 * body.length) {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < 50; i++) await sql`INSERT INTO notes (body) VALUES (${body})`.execute(trx);
      });
      largest = Math.max(largest, walSize());
      await delay(0);
    }
    writing = false;
    await Promise.all(readers);
    assert.ok(largest < 2 * WAL_LIMIT_BYTES, `the log reached ${largest} bytes (limit ${WAL_LIMIT_BYTES})`);
  });
});
