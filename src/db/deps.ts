import type { Kysely } from 'kysely';
import type { Dialect } from './connection.js';
import type { DatabaseHealth } from './outage.js';
import type { Database } from './schema.js';
import type { Signals } from '../shared/signals.js';
import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/ids.js';

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
