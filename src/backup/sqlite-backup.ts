import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { SQLITE_FILE } from '../db/connection.js';
import { SQLiteDatabase } from '../db/sqlite-driver.js';
import { errors } from '../shared/errors.js';

/** What a backup or restore copied. */
export interface Copied {
  file: string;
  bytes: number;
}

/**
 * Pages per backup step: all of them. SQLite restarts a stepwise backup whenever another
 * connection writes between steps, which a busy server does constantly; one step copies the whole
 * database inside one read transaction, a consistent snapshot that WAL lets writers run beside.
 */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies DATA_DIR's database to `file` with SQLite's online backup API while servers keep
 * writing: what was committed before the copy began is in it. Written beside `file` and renamed
 * once complete, so `file` is never a half-written backup.
 */
export async function backupSqlite(dataDir: string, file: string): Promise<Copied> {
  const source = path.join(dataDir, SQLITE_FILE);
  if (!fs.existsSync(source)) throw errors.validation('DATA_DIR', `holds no Parley database (${source})`);
  if (fs.existsSync(file)) throw errors.validation(file, 'already exists; name a new file');
  // Read-write only as WAL needs it (a reader of a WAL database takes part in its shared index); nothing is written.
  const database = new SQLiteDatabase(source, { fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  try {
    return await copyInto(database, file);
  } finally {
    database.close();
  }
}

/**
 * Makes `file` (a backup) DATA_DIR's database. Only into a DATA_DIR without one: a server may be
 * using an existing database, and replacing it under the server would corrupt it.
 */
export async function restoreSqlite(file: string, dataDir: string): Promise<Copied> {
  const target = path.join(dataDir, SQLITE_FILE);
  if (fs.existsSync(target) && fs.statSync(target).size > 0) {
    throw errors.conflict(
      `DATA_DIR already holds a database (${target}): restore into a new DATA_DIR, or stop every server using this one and move its ${SQLITE_FILE}* files aside first`,
    );
  }
  const backup = openBackup(file);
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    return await copyInto(backup, target);
  } finally {
    backup.close();
  }
}

/** A backup file opened read-only, checked to be a whole Parley database. */
function openBackup(file: string): SQLite.Database {
  if (!fs.existsSync(file)) throw errors.validation(file, 'does not exist');
  let database: SQLite.Database | undefined;
  try {
    database = new SQLiteDatabase(file, { readonly: true, fileMustExist: true });
    const check = database.pragma('quick_check', { simple: true });
    const parley = database.prepare(`select 1 from sqlite_master where name = 'kysely_migration'`).get();
    if (check === 'ok' && parley) return database;
  } catch {
    // Not a database at all: answered below like any other unusable file.
  }
  database?.close();
  throw errors.validation(file, 'is not a Parley SQLite backup (made by `parley backup`)');
}

/** The online backup of `database` into `file` (mode 0600: it holds contacts and sealed secrets). */
async function copyInto(database: SQLite.Database, file: string): Promise<Copied> {
  const partial = `${file}.partial`;
  fs.rmSync(partial, { force: true });
  fs.closeSync(fs.openSync(partial, 'wx', 0o600));
  try {
    await database.backup(partial, { progress: () => ALL_PAGES });
    selfContained(partial);
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return { file: path.resolve(file), bytes: fs.statSync(file).size };
}

/** The copy in rollback-journal mode: one file, readable alone (a server sets WAL again when it opens it). */
function selfContained(file: string): void {
  const copy = new SQLiteDatabase(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}
