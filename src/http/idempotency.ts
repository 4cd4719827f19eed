import { createHash } from 'node:crypto';
import type { Deps } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { PROBLEM_CONTENT_TYPE } from './problem.js';
import type { Api } from './types.js';

const RETENTION_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on POST actions: the first request's response is stored and replayed for a
 * retry with the same key and body within 24 hours; the same key with another body is a 422.
 * A pending row claims the key first, so two concurrent retries cannot both do the work.
 */
export function registerIdempotency(app: Api, { db, clock }: Pick<Deps, 'db' | 'clock'>): void {
  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined || !request.principal) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw errors.validation('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
    }
    const workspaceId = request.principal.workspaceId;
    const fingerprint = createHash('sha256')
      .update(`${request.routeOptions.url}\n${JSON.stringify(request.body ?? null)}`)
      .digest('hex');
    const now = clock.now();
    await db
      .deleteFrom('idempotency_keys')
      .where('workspace_id', '=', workspaceId)
      .where('key', '=', key)
      .where('created_at', '<', toStoredTimestamp(new Date(now.getTime() - RETENTION_MS)))
      .execute();
    const claimed = await db
      .insertInto('idempotency_keys')
      .values({ workspace_id: workspaceId, key, fingerprint, created_at: toStoredTimestamp(now) })
      .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows) === 1) {
      request.idempotencyKey = key;
      return;
    }
    const stored = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    if (stored.fingerprint !== fingerprint) throw errors.idempotencyKeyReused();
    if (stored.status_code === null || stored.response_body === null) throw errors.idempotencyInProgress();
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
    const row = db
      .updateTable('idempotency_keys')
      .where('workspace_id', '=', request.principal.workspaceId)
      .where('key', '=', key);
    // A server error is not a result: release the key so the client's retry runs again.
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await db
        .deleteFrom('idempotency_keys')
        .where('workspace_id', '=', request.principal.workspaceId)
        .where('key', '=', key)
        .execute();
    } else {
      await row.set({ status_code: reply.statusCode, response_body: payload }).execute();
    }
    return payload;
  });
}
