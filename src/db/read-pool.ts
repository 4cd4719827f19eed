import { Worker } from 'node:worker_threads';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Database } from './schema.js';
import { sqliteDriverPath } from './sqlite-driver.js';

// Plain JavaScript: a worker evaluated from a string runs without the TypeScript loader. Each worker
// keeps its prepared statements (least recently used out), as the main connection does. On Linux a
// nice value is per thread: the workers yield the cores to the event loop (point reads, writes, TLS),
// so searches that fill both cores slow down themselves rather than every other request.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
try {
  const threadId = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(threadId, workerData.nice);
} catch {}
const SQLite = require(workerData.driver);
const database = new SQLite(workerData.file, { readonly: true });
database.pragma('busy_timeout = 5000');
const statements = new Map();
function prepared(sql) {
  let statement = statements.get(sql);
  if (statement) statements.delete(sql);
  else {
    statement = database.prepare(sql);
    if (statements.size >= workerData.cacheSize) statements.delete(statements.keys().next().value);
  }
  statements.set(sql, statement);
  return statement;
}
parentPort.on('message', (request) => {
  if (request === 'close') {
    database.close();
    parentPort.close();
    return;
  }
  try {
    const started = performance.now();
    const statement = prepared(request.sql);
    if (!statement.reader) throw Object.assign(new Error('the read pool only reads'), { code: 'PARLEY_READ_ONLY' });
    const rows = statement.all(request.parameters);
    parentPort.postMessage({ id: request.id, rows, ms: performance.now() - started });
  } catch (error) {
    parentPort.postMessage({ id: request.id, error: { message: error.message, code: error.code } });
  }
});
`;

const STATEMENT_CACHE_SIZE = 500;
/** Lower than the event loop's 0: about a tenth of its share of a contended core (Linux CFS weights). */
const WORKER_NICE = 10;

interface Answer {
  id: number;
  rows?: unknown[];
  /** How long the worker spent on the statement; the rest of the round trip was waiting. */
  ms?: number;
  error?: { message: string; code?: string };
}

interface Pending {
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
  sentAt: number;
}

/** What the pool has done since it opened (the metrics report it): reads answered, and their time queued. */
export interface ReadPoolTotals {
  reads: number;
  waitSeconds: number;
}

/** The pool as it stands: worker threads, those reading now, and reads queued behind them. */
export interface ReadPoolUsage extends ReadPoolTotals {
  workers: number;
  busy: number;
  waiting: number;
}

/** One worker thread with its read-only connection, and the statements it has been handed. */
class ReadWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | null = null;

  constructor(
    file: string,
    private readonly totals: ReadPoolTotals,
  ) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, driver: sqliteDriverPath, cacheSize: STATEMENT_CACHE_SIZE, nice: WORKER_NICE },
      // Plain JavaScript needs none of the parent's flags; inherited, `--input-type=module` made it fail to start.
      execArgv: [],
    });
    this.worker.on('message', (answer: Answer) => this.settle(answer));
    this.worker.on('error', (error) => this.failAll(error));
    this.worker.on('exit', () => this.failAll(new Error('SQLite read worker exited')));
    // An idle worker keeps no process alive; one with work holds it until it answers.
    this.worker.unref();
  }

  get queued(): number {
    return this.pending.size;
  }

  run(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    // A worker that has failed never answers: refuse at once rather than wait forever.
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject, sentAt: performance.now() });
      this.worker.postMessage({ id, sql, parameters });
    });
  }

  async close(): Promise<void> {
    if (this.failure) return; // already gone
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.postMessage('close');
    await exited;
  }

  private settle(answer: Answer): void {
    const pending = this.pending.get(answer.id);
    if (!pending) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker.unref();
    this.totals.reads++;
    this.totals.waitSeconds += Math.max(0, performance.now() - pending.sentAt - (answer.ms ?? 0)) / 1000;
    if (answer.error) pending.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
    else pending.resolve(answer.rows!);
  }

  private failAll(error: Error): void {
    this.failure ??= error;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    this.worker.unref();
  }
}

/**
 * Read-only SQLite connections on worker threads. better-sqlite3 runs each statement on the calling
 * thread, so on the main connection one long search stalls every request behind it; here it runs
 * beside them (WAL lets readers read while the main connection writes). Each statement reads the
 * latest commit, so a read after a write the caller saw committed finds it.
 */
export class SqliteReadPool {
  private readonly workers: ReadWorker[];
  private readonly totals: ReadPoolTotals = { reads: 0, waitSeconds: 0 };
  private closing: Promise<void> | null = null;

  constructor(file: string, size: number) {
    this.workers = Array.from({ length: size }, () => new ReadWorker(file, this.totals));
  }

  /** The pool as it stands, for the metrics. */
  usage(): ReadPoolUsage {
    const queued = this.workers.map((worker) => worker.queued);
    return {
      ...this.totals,
      workers: queued.length,
      busy: queued.filter((n) => n > 0).length,
      waiting: queued.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
    };
  }

  /** Runs one statement on the least busy worker. */
  run(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.closing) return Promise.reject(new Error('the database is closed'));
    let chosen = this.workers[0]!;
    for (const worker of this.workers) if (worker.queued < chosen.queued) chosen = worker;
    return chosen.run(sql, parameters);
  }

  close(): Promise<void> {
    this.closing ??= Promise.all(this.workers.map((worker) => worker.close())).then(() => undefined);
    return this.closing;
  }

  /** A Kysely handle whose queries run on this pool: reads only, no transactions. */
  kysely(): Kysely<Database> {
    return new Kysely<Database>({ dialect: readPoolDialect(this) });
  }
}

function readPoolDialect(pool: SqliteReadPool): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => readPoolDriver(pool),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  };
}

function readPoolDriver(pool: SqliteReadPool): Driver {
  const noTransactions = () => Promise.reject(new Error('the read pool runs no transactions'));
  const connection: DatabaseConnection = {
    async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
      return { rows: (await pool.run(compiled.sql, compiled.parameters)) as R[] };
    },
    streamQuery() {
      throw new Error('the read pool does not stream; stream on the main connection');
    },
  };
  return {
    init: () => Promise.resolve(),
    acquireConnection: () => Promise.resolve(connection),
    beginTransaction: noTransactions,
    commitTransaction: noTransactions,
    rollbackTransaction: noTransactions,
    releaseConnection: () => Promise.resolve(),
    destroy: () => pool.close(),
  };
}
