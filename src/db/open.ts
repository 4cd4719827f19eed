import type { Config } from '../config.js';
import { systemClock, type Clock } from '../shared/clock.js';
import type { Deps } from './deps.js';
import { createIdGenerator } from '../shared/ids.js';
import { openDatabase, type OpenOptions } from './connection.js';
import { migrateToLatest } from './migrate.js';

/**
 * The database (migrated), the clock and the id generator: what every service is built from. A CLI
 * command that needs one service builds it from these instead of importing the whole application.
 */
export async function openDeps(config: Config, clock: Clock = systemClock, options: OpenOptions = {}): Promise<Deps> {
  const { db, reads, dialect, health } = openDatabase(config, options);
  try {
    await migrateToLatest(db, dialect);
  } catch (error) {
    // A start that waits for the database tries again with a new pool; this one must not linger.
    await db.destroy();
    throw error;
  }
  return { db, reads, dialect, health, clock, newId: createIdGenerator(clock) };
}
