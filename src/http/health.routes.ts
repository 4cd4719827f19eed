import { sql } from 'kysely';
import type { Deps } from '../db/deps.js';
import { PARLEY_VERSION as version } from '../shared/version.js';
import { DATABASE_RETRY_AFTER_SECONDS } from './problem.js';
import type { Api } from './types.js';

/**
 * GET /healthz: the process is up and the database answers (200 `{"status":"ok"}`), or it does not
 * (503 `{"status":"unavailable"}`, so an orchestrator takes the process out of rotation meanwhile).
 * No token needed; it tells nothing but the release.
 */
export function registerHealthRoutes(app: Api, { db, health }: Pick<Deps, 'db' | 'health'>): void {
  app.get('/healthz', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      if (!health.failed(error)) throw error;
      void reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return { status: 'unavailable', version, reason: 'the database does not answer' };
    }
    return { status: 'ok', version };
  });
}
