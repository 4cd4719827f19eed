import { createHash } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { Principal } from '../access/principal.js';
import { PROBLEM_CONTENT_TYPE } from './problem.js';
import type { Api } from './types.js';
import { requestProblems } from '../shared/request.problems.js';

const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A claim with no stored result after this long belongs to a request that died with its process. */
const ABANDONED_CLAIM_MS = 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on POST actions: the first request's response is stored and replayed for a
 * retry with the same key and body within 24 hours; the same key with another body is a 422.
 * Keys belong to their caller (the token, or the dashboard user), so no one else's retry can
 * replay a response. A pending row claims the key first, so two concurrent retries cannot both
 * do the work. A route whose answer carries a secret (`config.secretResponse`) keeps only the
 * fact that it succeeded: its retry is a 409, and the secret exists nowhere but in the first answer.
 */
export function registerIdempotency(app: Api, { db, clock }: Pick<Deps, 'db' | 'clock'>): void {
  const keys = idempotencyKeys(db);
  let lastSweep = 0;

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined || !request.principal) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw errors.invalid(requestProblems.problem('Idempotency-Key', 'idempotency_key_format'));
    }
    const owner = keyOwner(request.principal);
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
    await keys.releaseStale(owner, key, {
      expiredBefore: toStoredTimestamp(new Date(now - RETENTION_MS)),
      abandonedBefore: toStoredTimestamp(new Date(now - ABANDONED_CLAIM_MS)),
    });
    if (await keys.claim(owner, key, fingerprint, toStoredTimestamp(new Date(now)))) {
      request.idempotencyKey = key;
      return;
    }
    const stored = await keys.find(owner, key);
    if (stored && stored.fingerprint !== fingerprint) throw errors.idempotencyKeyReused();
    if (!stored || stored.status_code === null) throw errors.idempotencyInProgress();
    void reply.header('idempotent-replayed', 'true');
    if (stored.response_body === null) throw errors.idempotencySecretWithheld();
    return (
      reply
        .code(stored.status_code)
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
    const owner = keyOwner(request.principal);
    // A server error is not a result: release the key so the client's retry runs again.
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await keys.release(owner, key);
    } else {
      const carriesSecret = request.routeOptions.config.secretResponse === true && reply.statusCode < 400;
      await keys.complete(owner, key, reply.statusCode, carriesSecret ? null : payload);
    }
    return payload;
  });
}

interface KeyOwner {
  workspaceId: string;
  caller: string;
}

/** Whose keys a request uses: its workspace's, and within it its token's or dashboard user's. */
function keyOwner(principal: Principal): KeyOwner {
  return { workspaceId: principal.workspaceId, caller: principal.tokenId };
}

/** SQL for idempotency keys. */
function idempotencyKeys(db: Kysely<Database>) {
  const ownedBy = (owner: KeyOwner, key: string) => (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
    eb.and([eb('workspace_id', '=', owner.workspaceId), eb('caller', '=', owner.caller), eb('key', '=', key)]);
  return {
    /** Inserts a pending claim; false when the key exists already. */
    async claim(owner: KeyOwner, key: string, fingerprint: string, createdAt: string): Promise<boolean> {
      const result = await db
        .insertInto('idempotency_keys')
        .values({ workspace_id: owner.workspaceId, caller: owner.caller, key, fingerprint, created_at: createdAt })
        .onConflict((oc) => oc.columns(['workspace_id', 'caller', 'key']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows) === 1;
    },
    find: (owner: KeyOwner, key: string) =>
      db.selectFrom('idempotency_keys').selectAll().where(ownedBy(owner, key)).executeTakeFirst(),
    /** Stores the result; a null body records that the response carried a secret. */
    async complete(owner: KeyOwner, key: string, statusCode: number, body: string | null): Promise<void> {
      await db
        .updateTable('idempotency_keys')
        .set({ status_code: statusCode, response_body: body })
        .where(ownedBy(owner, key))
        .execute();
    },
    async release(owner: KeyOwner, key: string): Promise<void> {
      await db.deleteFrom('idempotency_keys').where(ownedBy(owner, key)).execute();
    },
    /** Frees a key whose result expired, or whose claim was abandoned by a crashed request. */
    async releaseStale(owner: KeyOwner, key: string, cutoffs: { expiredBefore: string; abandonedBefore: string }) {
      await db
        .deleteFrom('idempotency_keys')
        .where(ownedBy(owner, key))
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
