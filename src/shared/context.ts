import type { Kysely } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { DatabaseHealth } from '../db/outage.js';
import type { Database } from '../db/schema.js';
import type { Signals } from '../metrics/signals.js';
import type { Clock } from './clock.js';
import type { IdGenerator } from './ids.js';

/** What every repository and service is built from: the database, its engine, time and ids. */
export interface Deps {
  db: Kysely<Database>;
  /** Reads that need no transaction and may run beside others (connection.ts: DatabaseHandle.reads). */
  reads: Kysely<Database>;
  dialect: Dialect;
  /** Whether the database answers: workers note its outages here rather than log every failed round. */
  health: DatabaseHealth;
  clock: Clock;
  newId: IdGenerator;
  /** Where the workers report sends, deliveries and job lag; absent: nobody listens (metrics off). */
  signals?: Signals;
}

/** Who is calling: every service call is scoped to one workspace. */
export interface Caller {
  workspaceId: string;
  /** The API token acting, or SESSION_TOKEN_PREFIX + user id for a dashboard session; absent for Parley's own work. */
  tokenId?: string;
  userId?: string;
}

/** How a dashboard session's calls name their "token": its user's id after this prefix. */
export const SESSION_TOKEN_PREFIX = 'session:';
