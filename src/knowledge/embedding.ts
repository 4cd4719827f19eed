import type { Kysely } from 'kysely';
import { ModelUnavailable } from '../ai-models/index.js';
import { scheduleJob, type Job, type JobHandler } from '../automation/scheduler.js';
import type { Deps } from '../db/deps.js';
import type { Database } from '../db/schema.js';
import { toStoredTimestamp } from '../shared/time.js';
import { contextOf, EMBED_JOB } from './indexer.js';
import { knowledgeRepository } from './knowledge.repository.js';
import { storedVector, type Embedder } from './vectors.js';

/** Chunks per call to the embeddings model. */
export const EMBED_BATCH = 64;

type Unembedded = Awaited<ReturnType<ReturnType<typeof knowledgeRepository>['unembedded']>>;
type Embedded = NonNullable<Awaited<ReturnType<Embedder['embed']>>>;
type Prepared = { chunks: Unembedded; answer: Embedded | null } | { error: unknown };

/** What the model embeds of a chunk: the words it is found by (its context and heading) and its text. */
export function embeddingTextOf(chunk: { source_kind: string; source_title: string; heading: string; text: string }) {
  return [contextOf({ kind: chunk.source_kind, title: chunk.source_title }), chunk.heading, chunk.text]
    .filter(Boolean)
    .join('\n');
}

/**
 * The embeddings job (one per workspace at a time): asks the workspace's embeddings model for the
 * vectors of EMBED_BATCH chunks that have none of its current model (outside the transaction), stores
 * them, and queues itself again while chunks remain. Without an embeddings model it notes so: search
 * is then full-text alone.
 */
export function createEmbedJob(deps: Deps, embedder: Embedder): JobHandler {
  const later = (trx: Kysely<Database>, workspaceId: string, waitMs: number) =>
    scheduleJob(trx, deps, {
      workspaceId,
      kind: EMBED_JOB,
      subjectId: workspaceId,
      dueAt: new Date(deps.clock.now().getTime() + waitMs),
    });

  /** The workspace has no embeddings model (now): its chunks are found by their words only. */
  async function noModel(trx: Kysely<Database>, workspaceId: string): Promise<void> {
    const repository = knowledgeRepository(trx);
    if ((await repository.index(workspaceId))?.embedding_model) {
      await repository.bumpGeneration(workspaceId, toStoredTimestamp(deps.clock.now()), null);
    }
  }

  /**
   * A call the model did not answer: wait as long as it asked (429 Retry-After); stop where no call can
   * succeed now (no model turned on; the month's budget spent, until a search embeds its question and
   * queues the job again); anything else the scheduler retries.
   */
  async function failed(trx: Kysely<Database>, workspaceId: string, error: unknown): Promise<void> {
    if (!(error instanceof ModelUnavailable)) throw error;
    if (error.reason === 'rate_limited' && error.retryAfterMs) return later(trx, workspaceId, error.retryAfterMs);
    if (error.reason === 'not_configured') return noModel(trx, workspaceId);
    if (error.reason !== 'budget_exhausted') throw error;
  }

  return {
    async prepare(job: Job): Promise<Prepared> {
      const repository = knowledgeRepository(deps.db);
      const index = await repository.index(job.workspace_id);
      const chunks = await repository.unembedded(job.workspace_id, index?.embedding_model ?? null, EMBED_BATCH);
      if (chunks.length === 0) return { chunks, answer: null };
      return { chunks, answer: await embedder.embed(job.workspace_id, chunks.map(embeddingTextOf)) };
    },

    async run(trx, job, prepared) {
      const outcome = prepared as Prepared;
      const workspaceId = job.workspace_id;
      if ('error' in outcome) return failed(trx, workspaceId, outcome.error);
      if (outcome.chunks.length === 0) return;
      if (outcome.answer === null) return noModel(trx, workspaceId);
      const { model, vectors } = outcome.answer;
      if (vectors.length !== outcome.chunks.length) {
        throw new Error(`the embeddings model answered ${vectors.length} vectors for ${outcome.chunks.length} texts`);
      }
      const repository = knowledgeRepository(trx);
      for (const [i, chunk] of outcome.chunks.entries()) {
        await repository.storeVector(chunk.id, model, storedVector(vectors[i]!));
      }
      await repository.bumpGeneration(workspaceId, toStoredTimestamp(deps.clock.now()), model);
      if (outcome.chunks.length === EMBED_BATCH) await later(trx, workspaceId, 0);
    },
  };
}
