import type { Kysely } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import type { Clock } from './clock.js';
import type { IdGenerator } from './ids.js';

/** What every repository and service is built from: the database, its engine, time and ids. */
export interface Deps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  newId: IdGenerator;
}

/** Who is calling: every service call is scoped to one workspace. */
export interface Caller {
  workspaceId: string;
}
