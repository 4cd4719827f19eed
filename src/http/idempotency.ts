import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Deps } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { PROBLEM_CONTENT_TYPE } from './problem.js';
import type { Api } from './types.js';

const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A claim with no stored result after this long belongs to a request that died with its process. */
const ABANDONED_CLAIM_MS = 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on POST actions: the first request's response is stored and replayed for a
 * retry with the same key and body within 24 hours; the same key with another body is a 422.
 * A pending row claims the key first, so two concurrent retries cannot both do the work.
 */
export function registerIdempotency(app: Api, { db, clock }: Pick<Deps, 'db' | 'clock'>): void {
  const keys = idempotencyKeys(db);
  let lastSweep = 0;

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined || !request.principal) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw errors.validation('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
    }
    const workspaceId = request.principal.workspaceId;
    // The query string counts only when there is one (paging parameters), so older fingerprints still match.
    const query = request.url.split('?')[1];
    const fingerprint = createHash('sha256')
      .update(`${request.routeOptions.url}\n${JSON.stringify(request.body ?? null)}${query ? `\n${query}` : ''}`)
      .digest('hex');
    const now = clock.now().getTime();
    if (now - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = now;
      await keys.deleteOlderThan(toStoredTimestamp(new Date(now - RETENTION_MS)));
    }
    await keys.releaseStale(workspaceId, key, {
      expiredBefore: toStoredTimestamp(new Date(now - RETENTION_MS)),
      abandonedBefore: toStoredTimestamp(new Date(now - ABANDONED_CLAIM_MS)),
    });
    if (await keys.claim(workspaceId, key, fingerprint, toStoredTimestamp(new Date(now)))) {
      request.idempotencyKey = key;
      return;
    }
    const stored = await keys.find(workspaceId, key);
    if (stored && stored.fingerprint !== fingerprint) throw errors.idempotencyKeyReused();
    if (!stored || stored.status_code === null || stored.response_body === null) throw errors.idempotencyInProgress();
    return (
      reply
        .code(stored.status_code)
        .header('idempotent-replayed', 'true')
        // Stored errors are problem documents and keep their media type on replay.
        .type(stored.status_code >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json; charset=utf-8')
        .serializer((payload) => payload as string)
        .send(stored.response_body)
    );
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (key === null || !request.principal) return payload;
    request.idempotencyKey = null;
    // A server error is not a result: release the key so the client's retry runs again.
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await keys.release(request.principal.workspaceId, key);
    } else {
      await keys.complete(request.principal.workspaceId, key, reply.statusCode, payload);
    }
    return payload;
  });
}

/** SQL for idempotency keys. */
function idempotencyKeys(db: Kysely<Database>) {
  return {
    /** Inserts a pending claim; false when the key exists already. */
    async claim(workspaceId: string, key: string, fingerprint: string, createdAt: string): Promise<boolean> {
      const result = await db
        .insertInto('idempotency_keys')
        .values({ workspace_id: workspaceId, key, fingerprint, created_at: createdAt })
        .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows) === 1;
    },
    find: (workspaceId: string, key: string) =>
      db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('key', '=', key)
        .executeTakeFirst(),
    async complete(workspaceId: string, key: string, statusCode: number, body: string): Promise<void> {
      await db
        .updateTable('idempotency_keys')
        .set({ status_code: statusCode, response_body: body })
        .where('workspace_id', '=', workspaceId)
        .where('key', '=', key)
        .execute();
    },
    async release(workspaceId: string, key: string): Promise<void> {
      await db.deleteFrom('idempotency_keys').where('workspace_id', '=', workspaceId).where('key', '=', key).execute();
    },
    /** Frees a key whose result expired, or whose claim was abandoned by a crashed request. */
    async releaseStale(workspaceId: string, key: string, cutoffs: { expiredBefore: string; abandonedBefore: string }) {
      await db
        .deleteFrom('idempotency_keys')
        .where('workspace_id', '=', workspaceId)
        .where('key', '=', key)
        .where((eb) =>
          eb.or([
            eb('created_at', '<', cutoffs.expiredBefore),
            eb.and([eb('status_code', 'is', null), eb('created_at', '<', cutoffs.abandonedBefore)]),
          ]),
        )
        .execute();
    },
    async deleteOlderThan(cutoff: string): Promise<void> {
      await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).execute();
    },
  };
}
