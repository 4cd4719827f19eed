import { scheduleJob, type Job, type JobHandler } from '../automation/scheduler.js';
import type { Deps } from '../db/deps.js';
import { toStoredTimestamp } from '../shared/time.js';
import { contextOf, EMBED_JOB } from './indexer.js';
import { knowledgeRepository } from './knowledge.repository.js';
import { storedVector, type Embedder } from './vectors.js';

/** Chunks per call to the embeddings model. */
export const EMBED_BATCH = 64;

type Unembedded = Awaited<ReturnType<ReturnType<typeof knowledgeRepository>['unembedded']>>;
type Prepared =
  | { chunks: Unembedded; answer: Awaited<ReturnType<Embedder['embed']>> }
  | { chunks: []; answer: null }
  | { error: unknown };

/** What the model embeds of a chunk: the words it is found by (its context and heading) and its text. */
export function embeddingTextOf(chunk: { source_kind: string; source_title: string; heading: string; text: string }) {
  return [contextOf({ kind: chunk.source_kind, title: chunk.source_title }), chunk.heading, chunk.text]
    .filter(Boolean)
    .join('\n');
}

/** How long the model asked to be left alone (ai-models' ModelUnavailable, rate_limited), if it did. */
function retryAfterOf(error: unknown): number | null {
  const ms = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof ms === 'number' && ms > 0 ? ms : null;
}

/**
 * The embeddings job (one per workspace at a time): asks the workspace's embeddings model for the
 * vectors of EMBED_BATCH chunks that have none of its current model (outside the transaction), stores
 * them, and queues itself again while chunks remain. A model that asks to wait (429 Retry-After) gets
 * the job again after that long; other failures are retried by the scheduler. Without an embeddings
 * model it only notes so: search is then full-text alone.
 */
export function createEmbedJob(deps: Deps, embedder: Embedder): JobHandler {
  return {
    async prepare(job: Job): Promise<Prepared> {
      const repository = knowledgeRepository(deps.db);
      const index = await repository.index(job.workspace_id);
      const chunks = await repository.unembedded(job.workspace_id, index?.embedding_model ?? null, EMBED_BATCH);
      if (chunks.length === 0) return { chunks: [], answer: null };
      return { chunks, answer: await embedder.embed(job.workspace_id, chunks.map(embeddingTextOf)) };
    },

    async run(trx, job, prepared) {
      const outcome = prepared as Prepared;
      const workspaceId = job.workspace_id;
      if ('error' in outcome) {
        const wait = retryAfterOf(outcome.error);
        if (wait === null) throw outcome.error;
        const dueAt = new Date(deps.clock.now().getTime() + wait);
        await scheduleJob(trx, deps, { workspaceId, kind: EMBED_JOB, subjectId: workspaceId, dueAt });
        return;
      }
      const repository = knowledgeRepository(trx);
      const at = toStoredTimestamp(deps.clock.now());
      if (outcome.answer === null) {
        const index = await repository.index(workspaceId);
        if (outcome.chunks.length > 0 && index?.embedding_model) await repository.bumpGeneration(workspaceId, at, null);
        return;
      }
      const { model, vectors } = outcome.answer;
      if (vectors.length !== outcome.chunks.length) {
        throw new Error(`the embeddings model answered ${vectors.length} vectors for ${outcome.chunks.length} texts`);
      }
      for (const [i, chunk] of outcome.chunks.entries()) {
        await repository.storeVector(chunk.id, model, storedVector(vectors[i]!));
      }
      await repository.bumpGeneration(workspaceId, at, model);
      if (outcome.chunks.length === EMBED_BATCH) {
        await scheduleJob(trx, deps, { workspaceId, kind: EMBED_JOB, subjectId: workspaceId, dueAt: deps.clock.now() });
      }
    },
  };
}
