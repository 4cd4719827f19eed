import { setTimeout as sleep } from 'node:timers/promises';
import type { App } from './app.js';
import type { Config } from './config.js';
import { isDatabaseUnavailable } from './db/outage.js';
import { startLogger } from './http/log-redaction.js';
import type { DestinationStream } from 'pino';
import { backoffMs } from './shared/backoff.js';

/** Between tries: 0.5 s at first, doubling up to 5 s (a database starting up answers within seconds). */
const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 5_000;

/** The database did not answer within DATABASE_WAIT_SECONDS: the start gives up (exit 1). */
export class DatabaseWaitError extends Error {}

/**
 * Builds the application once the database answers. Under compose or Kubernetes, Parley often starts
 * before its database: it tries again with backoff, logging why, for up to `config.databaseWaitMs`,
 * then gives up with a clear message (an orchestrator restarts it; a mistyped DATABASE_URL shows).
 * Any other error (a failed migration, a wrong password) ends the start at once. The application is
 * loaded here, not imported by this module: main.ts installs its signal handlers before that load.
 */
export async function createAppWhenDatabaseAnswers(
  config: Config,
  logger: { level: string; stream: DestinationStream },
): Promise<App> {
  const log = startLogger(logger);
  const { createApp } = await import('./app.js');
  const deadline = Date.now() + config.databaseWaitMs;
  for (let tries = 1; ; tries++) {
    try {
      return await createApp(config, { logger });
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const reason = (error as Error).message || String((error as { code?: unknown }).code);
      const wait = backoffMs(tries, FIRST_WAIT_MS, LONGEST_WAIT_MS);
      if (Date.now() + wait > deadline) {
        const seconds = config.databaseWaitMs / 1000;
        throw new DatabaseWaitError(
          `The database did not answer within ${seconds} s (DATABASE_WAIT_SECONDS): ${reason}. Check DATABASE_URL and that PostgreSQL is running.`,
        );
      }
      log.warn({ reason, tries, retry_in_ms: wait }, 'waiting for the database');
      await sleep(wait);
    }
  }
}
