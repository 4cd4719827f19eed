import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
  type SqliteDatabase,
} from 'kysely';
import pg from 'pg';
import { checkpointInBackground } from './checkpointer.js';
import { createDatabaseHealth, type DatabaseHealth } from './outage.js';
import { registerDigitGrams } from './digit-grams.js';
import { SqliteReadPool, type ReadPoolUsage } from './read-pool.js';
import { SQLiteDatabase } from './sqlite-driver.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

/** The embedded database's file name in DATA_DIR (with its -wal and -shm beside it). */
export const SQLITE_FILE = 'parley.db';

/** A Kysely handle and the engine behind it. */
export interface DatabaseHandle {
  db: Kysely<Database>;
  /**
   * For reads outside transactions (searches, feeds, lists): on a SQLite server, a pool of read-only
   * connections on worker threads (read-pool.ts), so they never stall the event loop; else `db` itself
   * (PostgreSQL already runs queries on a pool of connections). Destroying `db` closes it too.
   */
  reads: Kysely<Database>;
  dialect: Dialect;
  /** Whether the database answers (PostgreSQL's pool reports lost and new connections to it). */
  health: DatabaseHealth;
}

export interface OpenOptions {
  /** A long-running server moves WAL checkpoints off the event loop (checkpointer.ts). */
  backgroundCheckpoints?: boolean;
  /** SQLite worker threads serving `reads`; 0 (a CLI command) reads on the main connection. */
  readWorkers?: number;
}

/** Opens PostgreSQL when a URL is given, else the embedded SQLite file in `dataDir`. */
export function openDatabase(
  options: { databaseUrl: string | null; dataDir: string },
  open: OpenOptions = {},
): DatabaseHandle {
  const health = createDatabaseHealth();
  if (options.databaseUrl) {
    const db = openPostgres(options.databaseUrl, health);
    return { db, reads: db, dialect: 'postgres', health };
  }
  return { ...openSqlite(path.join(options.dataDir, SQLITE_FILE), open), dialect: 'sqlite', health };
}

function openSqlite(
  file: string,
  { backgroundCheckpoints = false, readWorkers = 0 }: OpenOptions,
): Pick<DatabaseHandle, 'db' | 'reads'> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  createPrivately(file);
  const database = new SQLiteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // 64 MiB of pages (the default is 2 MiB): a batch of bulk writes touches more index pages than that.
  database.pragma('cache_size = -65536');
  registerDigitGrams(database);
  const checkpointer = backgroundCheckpoints ? checkpointInBackground(database, file) : null;
  const pool = readWorkers > 0 ? new SqliteReadPool(file, readWorkers) : null;
  const close = () => {
    checkpointer?.stop();
    void pool?.close();
    database.close();
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database, close) }) });
  const reads = pool?.kysely() ?? db;
  if (pool) readPools.set(reads, pool);
  return { db, reads };
}

/**
 * The database holds contacts, conversations and sealed secrets: only Parley's user may read it. SQLite
 * creates the -wal and -shm files with the database file's permissions, so they follow.
 */
function createPrivately(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  // Files made by an older Parley under a looser umask are tightened too.
  for (const existing of [file, `${file}-wal`, `${file}-shm`]) {
    if (fs.existsSync(existing)) fs.chmodSync(existing, 0o600);
  }
}

const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely begins deferred transactions; one that reads, then writes while another process writes,
 * cannot wait for the lock (SQLite answers "database is locked" at once to avoid a deadlock).
 * Transactions begin IMMEDIATE: they take the write lock first and wait for it under busy_timeout.
 */
const BEGIN_IMMEDIATE = 'begin immediate';

/**
 * Kysely prepares every query anew; preparing costs more than running a point lookup, so the
 * prepared statements are kept (least recently used out) per distinct SQL text.
 */
function withStatementCache(database: SQLite.Database, close: () => void): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  let nothing: SQLite.Statement | undefined;
  return {
    close,
    prepare(sql: string) {
      // SQLite has already rolled back a transaction a write of which found the disk full (SQLITE_FULL);
      // Kysely's ROLLBACK then fails ("no transaction is active") and would hide that cause.
      if (sql === 'rollback' && !database.inTransaction) return (nothing ??= database.prepare('select 1 where 0'));
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = database.prepare(sql === 'begin' ? BEGIN_IMMEDIATE : sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

const PG_TYPES = { INT8: 20, JSON: 114, JSONB: 3802, TIMESTAMPTZ: 1184 };

/**
 * Type parsers that make PostgreSQL rows look like SQLite rows: timestamps as ISO strings,
 * JSON as text, counts as numbers. Scoped to this pool rather than set globally on `pg`.
 */
function postgresTypes(): pg.CustomTypesConfig {
  const parseTimestamp = pg.types.getTypeParser(PG_TYPES.TIMESTAMPTZ) as (value: string) => Date;
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      switch (oid) {
        case PG_TYPES.INT8:
          return (value: string) => Number(value);
        case PG_TYPES.JSON:
        case PG_TYPES.JSONB:
          return (value: string) => value;
        case PG_TYPES.TIMESTAMPTZ:
          return (value: string) => parseTimestamp(value).toISOString();
        default:
          return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
      }
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/** A PostgreSQL pool's connections now and its running totals of acquisitions (for metrics). */
export interface PoolUsage {
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  acquires: number;
  acquireSeconds: number;
}

const pools = new WeakMap<Kysely<Database>, { pool: pg.Pool; acquires: number; acquireSeconds: number }>();
const readPools = new WeakMap<Kysely<Database>, SqliteReadPool>();

/** The SQLite read pool behind a `reads` handle as it stands; null without one (PostgreSQL, the CLI). */
export function readPoolUsage(reads: Kysely<Database>): ReadPoolUsage | null {
  return readPools.get(reads)?.usage() ?? null;
}

/** The pool behind a PostgreSQL handle as it stands; null on SQLite (one connection, no pool). */
export function poolUsage(db: Kysely<Database>): PoolUsage | null {
  const entry = pools.get(db);
  if (!entry) return null;
  const { pool, acquires, acquireSeconds } = entry;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, acquires, acquireSeconds };
}

function openPostgres(connectionString: string, health: DatabaseHealth): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    // A database that does not answer at all (a network partition) fails a request in 10 s, not never.
    connectionTimeoutMillis: 10_000,
    types: postgresTypes(),
    // Outside transactions, prepared statements (below) are planned for their values on every execution:
    // a generic plan cached while `jobs` was small turned the scheduler's claim into a scan of the whole
    // table once it was not. Transactions allow cached plans (see BEGIN_WITH_CACHED_PLANS).
    // No parallel workers: with ten connections serving requests, a search that forked two workers
    // to walk an index took three times as long (85 ms instead of 28) on a busy two-core machine.
    options: '-c plan_cache_mode=force_custom_plan -c max_parallel_workers_per_gather=0',
  });
  rideThroughRestarts(pool, health);
  const usage = { pool, acquires: 0, acquireSeconds: 0 };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool, usage) }) });
  pools.set(db, usage);
  return db;
}

/**
 * A restart, failover or pg_terminate_backend ends the pool's connections, and pg reports it as an
 * 'error' event on each client (idle ones through the pool): unheard, node would end the process. The
 * queries running on them fail on their own (answered 503, retried by the workers); the pool drops
 * the dead connections and opens new ones for the next queries. Other errors of an idle connection
 * (an idle-session timeout) need nothing either: that connection is dropped the same way.
 */
function rideThroughRestarts(pool: pg.Pool, health: DatabaseHealth): void {
  const heard = (error: Error) => void health.failed(error);
  pool.on('error', heard);
  pool.on('connect', (client) => {
    client.on('error', heard);
    health.answered();
  });
}

/**
 * Kysely's BEGIN, sent with a setting in the same round trip: statements in a transaction may reuse a
 * cached generic plan. They are the writes and reads keyed by ids behind every action, whose planning
 * cost more than their execution (a flow reply: ~3 ms of its ~6 ms in PostgreSQL). The statements
 * that choose rows by a range over a fast-changing table (the workers' claims, searches, feeds) run
 * outside transactions and stay planned for their values.
 */
const BEGIN_WITH_CACHED_PLANS = 'begin; set local plan_cache_mode = auto';

/** Statements with more parameters (long IN lists, multi-row inserts) vary in text and stay unnamed. */
const MAX_NAMED_PARAMETERS = 32;
/** Distinct statement texts to name; beyond this, new texts run unnamed. */
const MAX_NAMED_STATEMENTS = 5_000;

/**
 * Runs parameterised statements as named prepared statements: PostgreSQL parses and analyses each
 * distinct text once per connection rather than on every execution. A statement without
 * parameters (BEGIN, DDL, migrations' multi-statement scripts) stays on the simple protocol. A
 * migration that changes a table's columns needs the servers restarted, as with any statement cache.
 */
function preparingPool(pool: pg.Pool, usage: { acquires: number; acquireSeconds: number }): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (!name && names.size < MAX_NAMED_STATEMENTS) {
      name = `p${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  function wrap(client: pg.PoolClient): PostgresPoolClient {
    function query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query(sqlOrCursor: string | PostgresCursor<unknown>, parameters: readonly unknown[] = []): unknown {
      if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as unknown as pg.Submittable);
      if (sqlOrCursor === 'begin') {
        // Two statements on the simple protocol answer with two results; Kysely expects BEGIN's.
        const results = client.query(BEGIN_WITH_CACHED_PLANS) as unknown as Promise<pg.QueryResult[]>;
        return results.then(([begun]) => begun);
      }
      const values = [...parameters];
      const name = values.length > 0 && values.length <= MAX_NAMED_PARAMETERS ? nameOf(sqlOrCursor) : undefined;
      return client.query(name ? { name, text: sqlOrCursor, values } : { text: sqlOrCursor, values });
    }
    return { query, release: () => client.release() };
  }
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const started = performance.now();
      const client = await pool.connect();
      usage.acquires += 1;
      usage.acquireSeconds += (performance.now() - started) / 1000;
      let connection = wrapped.get(client);
      if (!connection) wrapped.set(client, (connection = wrap(client)));
      return connection;
    },
    end: () => pool.end(),
  };
}
