import type { Kysely } from 'kysely';
import { cancelJobs, scheduleJob, type Job, type JobHandler } from '../automation/scheduler.js';
import type { Database } from '../db/schema.js';
import { mediaFileRepository, type MediaFileRow } from '../media/media-file.repository.js';
import { mediaKey, type MediaStore } from '../media/media.store.js';
import type { Deps } from '../db/deps.js';
import { toStoredTimestamp } from '../shared/time.js';
import { messageRepository } from './message.repository.js';

const DAY_MS = 86_400_000;
/** Files deleted per run; a workspace with more expired files runs again right away. */
const BATCH = 500;

/**
 * A workspace's media retention (keep files N days): one `media_expiry` job per workspace that keeps
 * it, due daily, deletes the files stored before the cut-off from the store and then their records;
 * a received file's message stays, its media state becomes `expired`.
 */
export function createMediaRetention(deps: Deps, store: MediaStore) {
  const { db, clock } = deps;

  /** Deletes the expired files from the store (outside the transaction); their records go in `run`. */
  async function prepare(job: Job): Promise<{ days: number | null; expired: MediaFileRow[] }> {
    const workspace = await db
      .selectFrom('workspaces')
      .select('media_retention_days')
      .where('id', '=', job.workspace_id)
      .executeTakeFirst();
    const days = workspace?.media_retention_days ?? null;
    if (days === null) return { days, expired: [] };
    const cutoff = toStoredTimestamp(new Date(clock.now().getTime() - days * DAY_MS));
    const expired = await mediaFileRepository(db).storedBefore(job.workspace_id, cutoff, BATCH);
    for (const file of expired) await store.delete(mediaKey(file.workspace_id, file.media_id));
    return { days, expired };
  }

  async function run(trx: Kysely<Database>, job: Job, prepared: unknown): Promise<void> {
    const { days, expired } = prepared as Awaited<ReturnType<typeof prepare>>;
    if (!Array.isArray(expired)) throw (prepared as { error: unknown }).error;
    await mediaFileRepository(trx).remove(
      job.workspace_id,
      expired.map((file) => file.media_id),
    );
    const messages = messageRepository(trx);
    for (const file of expired) if (file.message_id) await messages.setMediaState(file.message_id, 'expired', null);
    if (days === null) return;
    const next = expired.length === BATCH ? 0 : DAY_MS;
    await scheduleExpiry(trx, deps, job.workspace_id, new Date(clock.now().getTime() + next));
  }

  const handler: JobHandler = { prepare, run };
  return { handler };
}

/**
 * After a workspace's retention changed, in its transaction: the workspace's expiry job runs now
 * (with a retention) or never (kept forever).
 */
export async function retentionChanged(
  trx: Kysely<Database>,
  deps: Pick<Deps, 'newId' | 'clock'>,
  workspaceId: string,
  days: number | null,
): Promise<void> {
  await cancelJobs(trx, workspaceId, 'media_expiry');
  if (days !== null) await scheduleExpiry(trx, deps, workspaceId, deps.clock.now());
}

function scheduleExpiry(trx: Kysely<Database>, deps: Pick<Deps, 'newId' | 'clock'>, workspaceId: string, dueAt: Date) {
  return scheduleJob(trx, deps, { workspaceId, kind: 'media_expiry', subjectId: workspaceId, dueAt });
}
