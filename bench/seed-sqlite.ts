import type SQLite from 'better-sqlite3';
import { SQLiteDatabase } from '../src/db/sqlite-driver.js';
import { DIGIT_GRAMS_FUNCTION, registerDigitGrams } from '../src/db/digit-grams.js';
import { randomUUID } from 'node:crypto';
import { tagHexBound, type BenchTag, type WorkspaceDataset } from './dataset.js';

/** Rows per INSERT statement: 1,000 × 12 columns stays under SQLite's 32,766 bound parameters. */
const BATCH = 1000;

/**
 * Bulk loading for SQLite: one transaction per table and workspace, multi-row INSERT statements
 * prepared once. Why not one row per statement (where the FTS5 trigger fires): FTS5 flushes its in-memory index to disk at
 * every statement savepoint (fts5SavepointMethod), and a statement that fires a trigger opens one,
 * so single-row inserts write one tiny index segment per contact and spend their time merging
 * them (measured: ~3.5× the CPU of 1,000-row statements).
 */
export class SqliteSeeder {
  private readonly db: SQLite.Database;

  constructor(file: string) {
    this.db = new SQLiteDatabase(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    // A big page cache keeps the touched index pages in memory until commit instead of spilling.
    this.db.pragma('cache_size = -524288');
    registerDigitGrams(this.db);
  }

  /**
   * Loads contacts the way a bulk load should: the search trigger and the secondary indexes are
   * dropped, the rows inserted, then the indexes built once from sorted data, the trigram index
   * rebuilt and the digit grams inserted in one statement (random inserts into five B-trees and
   * two full-text indexes cost more than one sorted build each: on 1M contacts, ~45 s less).
   */
  insertContacts(workspaceId: string, data: WorkspaceDataset): void {
    const indexes = ['contacts_recent', 'contacts_email', 'contacts_workspace_id'];
    const deferred = this.db
      .prepare<string[], { type: string; name: string; sql: string }>(
        `select type, name, sql from sqlite_master
          where (type = 'trigger' and name = 'contacts_search_insert')
             or (type = 'index' and name in (${indexes.map(() => '?').join(', ')}))`,
      )
      .all(...indexes);
    if (deferred.length !== indexes.length + 1) throw new Error('the contacts schema is not the one this loader knows');
    for (const { type, name } of deferred) this.db.exec(`drop ${type} ${name}`);
    this.insertContactRows(workspaceId, data);
    this.db.exec("insert into contacts_search(contacts_search) values ('rebuild')");
    this.db
      .prepare(
        `insert into contacts_digit_grams(rowid, grams)
           select seq, ${DIGIT_GRAMS_FUNCTION}(phone, name, email) from contacts where workspace_id = ?`,
      )
      .run(workspaceId);
    // A bulk load leaves the full-text indexes in hundreds of segments, and every lookup visits
    // each of them (measured: 0.5 ms instead of 0.15 ms per gram); merge them into one.
    for (const index of ['contacts_search', 'contacts_digit_grams']) {
      this.db.exec(`insert into ${index}(${index}) values ('optimize')`);
    }
    for (const { sql } of deferred) this.db.exec(sql);
  }

  private insertContactRows(workspaceId: string, data: WorkspaceDataset): void {
    const columns = `id, workspace_id, phone, name, email, custom_attributes, opted_out_at,
      last_message_at, last_inbound_at, created_at, updated_at`;
    this.insertRows('contacts', columns, 11, data.spec.contacts, (i) => {
      const c = data.contact(i);
      // Every seeded message is inbound, so the last inbound message is the last message.
      const last = c.lastMessageAt;
      return [
        c.id,
        workspaceId,
        c.phone,
        c.name,
        c.email,
        c.customAttributes,
        c.optedOutAt,
        last,
        last,
        c.createdAt,
        last ?? c.createdAt,
      ];
    });
  }

  insertMessages(workspaceId: string, data: WorkspaceDataset): void {
    const columns = `id, workspace_id, contact_id, direction, type, content, status,
      provider_message_id, error, feed_record, created_at, updated_at`;
    this.insertRows('messages', columns, 12, data.spec.messages, (i) => {
      const m = data.message(i);
      return [
        m.id,
        workspaceId,
        m.contactId,
        'inbound',
        m.type,
        m.content,
        'received',
        m.providerMessageId,
        null,
        m.feedRecord,
        m.createdAt,
        m.createdAt,
      ];
    });
  }

  /** Inserts rows 0..count-1 of `row` in one transaction, BATCH rows per statement. */
  private insertRows(
    table: string,
    columns: string,
    width: number,
    count: number,
    row: (i: number) => unknown[],
  ): void {
    const tuple = `(${Array<string>(width).fill('?').join(', ')})`;
    const statement = (rows: number) =>
      this.db.prepare(`INSERT INTO ${table} (${columns}) VALUES ${Array<string>(rows).fill(tuple).join(', ')}`);
    const full = statement(BATCH);
    this.db.transaction(() => {
      for (let from = 0; from < count; from += BATCH) {
        const to = Math.min(count, from + BATCH);
        const params: unknown[] = [];
        for (let i = from; i < to; i++) params.push(...row(i));
        (to - from === BATCH ? full : statement(to - from)).run(params);
      }
    })();
  }

  /** Creates `tag` and gives it to about `tag.share` of the workspace's contacts (dataset.ts: tagHexBound). */
  tagContacts(workspaceId: string, tag: BenchTag): void {
    const tagId = randomUUID();
    this.db.transaction(() => {
      this.db
        .prepare(`insert into tags (id, workspace_id, name, name_key, created_at) values (?, ?, ?, ?, ?)`)
        .run(tagId, workspaceId, tag.name, tag.name.toLowerCase(), new Date().toISOString());
      this.db
        .prepare(
          `insert into contact_tags (contact_id, tag_id, created_at, last_message_at)
             select id, ?, created_at, last_message_at from contacts where workspace_id = ? and substr(id, 34, 3) < ?`,
        )
        .run(tagId, workspaceId, tagHexBound(tag.share));
    })();
  }

  /** Contacts of the workspace whose name, phone or email contains `needle` (any case). */
  countMatches(workspaceId: string, needle: string): number {
    const row = this.db
      .prepare(
        `SELECT count(*) AS n FROM contacts WHERE workspace_id = ?
           AND (instr(lower(name), ?) > 0 OR instr(phone, ?) > 0 OR instr(lower(email), ?) > 0)`,
      )
      .get(workspaceId, needle, needle, needle) as { n: number };
    return row.n;
  }

  version(): string {
    return `SQLite ${(this.db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v}`;
  }

  /** Fresh planner statistics, and the WAL folded back so the server starts on a clean file. */
  finish(): void {
    this.db.exec('ANALYZE');
    this.db.pragma('optimize');
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.close();
  }
}
