import type { Kysely } from 'kysely';
import { scheduleJob, scheduleJobs, type Job, type JobHandler } from '../automation/scheduler.js';
import type { ChannelService } from '../channels/index.js';
import type { Database } from '../db/schema.js';
import { mediaFileRepository, type MediaFileRow } from '../media/media-file.repository.js';
import { mediaKey, type MediaStore } from '../media/media.store.js';
import type { Deps } from '../db/deps.js';
import { toStoredTimestamp } from '../shared/time.js';
import { mediaOf } from './media-ref.js';
import { messageRepository } from './message.repository.js';

/**
 * Waits before each retry of a received file's download: Meta keeps media for 30 days, so a failing
 * download is retried over about a day (a revoked token can be fixed meanwhile), then marked failed.
 */
export const DOWNLOAD_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000];

/** What a download attempt came to: stored (or already stored), or failed with the reason. */
type Attempt = { outcome: 'stored'; file: MediaFileRow | null } | { outcome: 'error'; reason: string };

/** A message as downloading its media needs it. */
interface MessageMedia {
  id: string;
  workspace_id: string;
  channel_id: string | null;
  type: string;
  content: string;
}

/**
 * Received media into the media store: fetched from the channel (a fresh download URL each time, as
 * Meta's lives minutes), checked against Meta's SHA-256, stored, then recorded in `media_files` with
 * the message's state. The background job (`media_download`) and download-media on a file not yet
 * stored both go through here.
 */
export function createMediaDownloader(deps: Deps, channels: ChannelService, store: MediaStore) {
  const { db, clock } = deps;

  /** Fetches and stores the message's file; the returned row is not recorded yet. Throws what the channel threw. */
  async function fetchInto(message: MessageMedia): Promise<MediaFileRow> {
    const media = mediaOf(message.type, message.content);
    const provider = await channels.providerOf(message.workspace_id, message.channel_id);
    const fetched = await provider.fetchMedia(media.id);
    const mimeType = media.mimeType ?? fetched.mimeType;
    await store.put(mediaKey(message.workspace_id, media.id), fetched.bytes, mimeType);
    return {
      workspace_id: message.workspace_id,
      media_id: media.id,
      message_id: message.id,
      mime_type: mimeType,
      size: fetched.bytes.length,
      sha256: fetched.sha256,
      stored_at: toStoredTimestamp(clock.now()),
    };
  }

  /** Records a stored file and marks its message stored (a file recorded already is kept). */
  async function record(trx: Kysely<Database>, file: MediaFileRow): Promise<void> {
    await mediaFileRepository(trx).insert(file);
    if (file.message_id) await messageRepository(trx).setMediaState(file.message_id, 'stored', null);
  }

  /** The download job's attempt: nothing to do when the file is stored already or the message is gone. */
  async function attempt(job: Job): Promise<Attempt> {
    const message = await db
      .selectFrom('messages')
      .select(['id', 'workspace_id', 'channel_id', 'type', 'content', 'media_state'])
      .where('id', '=', job.subject_id)
      .executeTakeFirst();
    if (!message || message.media_state === 'stored' || message.media_state === 'expired') {
      return { outcome: 'stored', file: null };
    }
    try {
      return { outcome: 'stored', file: await fetchInto(message) };
    } catch (error) {
      return { outcome: 'error', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Records the attempt in the job's transaction: stored, due again after a delay, or failed for good. */
  async function settle(trx: Kysely<Database>, job: Job, result: Attempt): Promise<void> {
    if (result.outcome === 'stored') {
      if (result.file) await record(trx, result.file);
      if (result.file) deps.signals?.mediaDownloaded('stored');
      return;
    }
    const retry = Number(job.payload.retry ?? 0);
    const delay = DOWNLOAD_RETRY_DELAYS_MS[retry];
    if (delay === undefined) {
      deps.signals?.mediaDownloaded('failed');
      await messageRepository(trx).setMediaState(job.subject_id, 'failed', result.reason);
      return;
    }
    deps.signals?.mediaDownloaded('retry');
    await messageRepository(trx).setMediaState(job.subject_id, 'pending', result.reason);
    await queueRetry(trx, deps, job, retry + 1, delay);
  }

  const handler: JobHandler = {
    prepare: attempt,
    // An attempt that could not even read its message (the database away) is the scheduler's to retry.
    run: (trx, job, prepared) => {
      if (!(prepared as Partial<Attempt>).outcome) throw (prepared as { error: unknown }).error;
      return settle(trx, job, prepared as Attempt);
    },
  };

  return { fetchInto, record, handler };
}

/** Queues the downloads of received messages' files now, in the transaction that stores the messages. */
export function queueDownloads(
  trx: Kysely<Database>,
  deps: Pick<Deps, 'newId' | 'clock'>,
  workspaceId: string,
  messageIds: string[],
): Promise<void> {
  const dueAt = deps.clock.now();
  const jobs = messageIds.map((subjectId) => ({ workspaceId, kind: 'media_download' as const, subjectId, dueAt }));
  return scheduleJobs(trx, deps, jobs);
}

/** Queues a download's next try (`retry` counts the tries before it) after `delayMs`. */
function queueRetry(trx: Kysely<Database>, deps: Deps, job: Job, retry: number, delayMs: number): Promise<void> {
  const dueAt = new Date(deps.clock.now().getTime() + delayMs);
  const { workspace_id: workspaceId, kind, subject_id: subjectId } = job;
  return scheduleJob(trx, deps, { workspaceId, kind, subjectId, payload: { retry }, dueAt });
}

export type MediaDownloader = ReturnType<typeof createMediaDownloader>;
