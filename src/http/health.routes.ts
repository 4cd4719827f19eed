import { sql } from 'kysely';
import type { Deps } from '../shared/context.js';
import type { Api } from './types.js';

/** GET /healthz: the process is up and the database answers. No token needed. */
export function registerHealthRoutes(app: Api, { db }: Pick<Deps, 'db'>): void {
  app.get('/healthz', { config: { access: 'public' }, schema: { hide: true } }, async () => {
    await sql`select 1`.execute(db);
    return { status: 'ok' };
  });
}
