/**
 * What a lost database and a full disk look like from Parley's side, and the one record of whether
 * the database answers (logged once when it goes away and once when it is back, not per connection).
 */

/** Node's socket errors: the server is not listening (restarting, not up yet) or dropped the connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'EAI_AGAIN']);
/** PostgreSQL's SQLSTATEs for a server shutting down, starting up or crashed (class 57P). */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);
/**
 * pg's own words when a connection ends under a query, a client is used after its connection died, or
 * no connection could be made within the pool's connection timeout.
 */
const CLIENT_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

/** Disk full: SQLite's SQLITE_FULL, the filesystem's ENOSPC / EDQUOT (quota), PostgreSQL's 53100 disk_full. */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT', '53100']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when `error` says the database cannot be reached right now (rather than that a statement is wrong). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = codeOf(error);
  if (code && (SOCKET_CODES.has(code) || SHUTDOWN_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  return CLIENT_MESSAGES.test(error.message);
}

/** True when `error` says a write found no room: the disk (or the database's quota) is full. */
export function isStorageFull(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && FULL_CODES.has(code);
}

/** Where the record logs: the server's logger (pino's signature, the part used here). */
export interface OutageLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/** Whether the database answers, as the pool and the workers find out. */
export interface DatabaseHealth {
  /** Logs to `log` from now on (the server's logger; until it is attached, nowhere). */
  attach(log: OutageLog): void;
  /** Notes an error: true when it says the database is away (then logged once per outage), else false. */
  failed(error: unknown): boolean;
  /** Notes that the database answered again (a new connection was made): ends an outage. */
  answered(): void;
  /** False from a lost connection until the next successful one. */
  readonly available: boolean;
}

/** A fresh record: the database is taken to answer until an error says otherwise. */
export function createDatabaseHealth(): DatabaseHealth {
  let log: OutageLog | null = null;
  let lostAt: number | null = null;
  return {
    attach(logger) {
      log = logger;
    },
    failed(error) {
      if (!isDatabaseUnavailable(error)) return false;
      if (lostAt === null) {
        lostAt = Date.now();
        const reason = error instanceof Error ? error.message : String(error);
        log?.warn({ reason, code: codeOf(error) }, 'the database is unavailable: answering 503 and retrying');
      }
      return true;
    },
    answered() {
      if (lostAt === null) return;
      log?.info({ unavailable_ms: Date.now() - lostAt }, 'the database answers again');
      lostAt = null;
    },
    get available() {
      return lostAt === null;
    },
  };
}
