import { ModelUnavailable } from '../ai-models/index.js';
import { scheduleJobOnce } from '../automation/scheduler.js';
import type { Deps } from '../db/deps.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import { fullTextSearch } from './full-text.js';
import { EMBED_JOB } from './indexer.js';
import { knowledgeRepository } from './knowledge.repository.js';
import type { KnowledgeMatch, KnowledgeSearchResult } from './knowledge.schema.js';
import { queryWordsOf } from './search-text.js';
import type { Embedder, VectorIndex } from './vectors.js';

/** Candidates each ranking contributes to the fusion. */
const CANDIDATES = 50;
/** Reciprocal rank fusion's constant (Cormack et al. 2009): a rank's weight is 1 / (K + rank). */
const RRF_K = 60;

interface Ranked {
  fullText: Map<string, number>;
  vector: Map<string, { rank: number; similarity: number }>;
}

/**
 * Retrieval: the chunks that best answer a question, with the ranks that found them. Full-text always;
 * with an embeddings model also the nearest vectors, the two ranks fused (reciprocal rank fusion). A
 * model that fails or is slow only costs the vector half: the answer is then full-text alone.
 */
export function createRetrieval(
  deps: Deps,
  embedder: Embedder,
  vectors: VectorIndex,
  keepCurrent: (workspaceId: string) => Promise<void>,
  wakeFor: (work: QueuedWork) => void,
) {
  /**
   * The question's nearest chunks by meaning, or null when there is no embeddings model or it did not
   * answer (then search is full-text alone; a model that only failed this once keeps its vectors).
   */
  async function byMeaning(workspaceId: string, question: string): Promise<Ranked['vector'] | null> {
    const answer = await questionVector(workspaceId, question);
    if (answer === undefined) return null;
    const repository = knowledgeRepository(deps.db);
    let index = await repository.index(workspaceId);
    const model = answer?.model ?? null;
    if ((index?.embedding_model ?? null) !== model) {
      await noteModel(workspaceId, model);
      index = await repository.index(workspaceId);
    }
    const vector = answer?.vectors[0];
    if (!answer || !vector) return null;
    const found = await vectors.nearest(workspaceId, answer.model, index?.generation ?? 0, vector, CANDIDATES);
    if (found.embedded < (await repository.countChunks(workspaceId))) await queueEmbedding(workspaceId);
    return new Map(found.matches.map((match, i) => [match.id, { rank: i + 1, similarity: match.similarity }]));
  }

  /** The model's answer for the question: null when there is no embeddings model; undefined when it failed. */
  async function questionVector(workspaceId: string, question: string) {
    try {
      return await embedder.embed(workspaceId, [question]);
    } catch (error) {
      return error instanceof ModelUnavailable && error.reason === 'not_configured' ? null : undefined;
    }
  }

  /** The embeddings model changed (or went): chunks without its vectors are embedded anew. */
  async function noteModel(workspaceId: string, model: string | null): Promise<void> {
    await deps.db.transaction().execute(async (trx) => {
      await knowledgeRepository(trx).bumpGeneration(workspaceId, toStoredTimestamp(deps.clock.now()), model);
    });
    if (model !== null) await queueEmbedding(workspaceId);
  }

  async function queueEmbedding(workspaceId: string): Promise<void> {
    const work = await deps.db.transaction().execute(async (trx) => {
      await scheduleJobOnce(trx, deps, {
        workspaceId,
        kind: EMBED_JOB,
        subjectId: workspaceId,
        dueAt: deps.clock.now(),
      });
      return queuedIn(trx);
    });
    wakeFor(work);
  }

  return {
    /** Up to `limit` chunks for the question, best first; `retrieval` says whether vectors took part. */
    async retrieve(
      workspaceId: string,
      question: string,
      { limit }: { limit: number },
    ): Promise<KnowledgeSearchResult> {
      await keepCurrent(workspaceId);
      const [fullText, vector] = await Promise.all([
        fullTextSearch(deps.reads, deps.dialect, workspaceId, queryWordsOf(question), CANDIDATES),
        byMeaning(workspaceId, question),
      ]);
      const ranked: Ranked = {
        fullText: new Map(fullText.map((id, i) => [id, i + 1])),
        vector: vector ?? new Map<string, { rank: number; similarity: number }>(),
      };
      const best = fused(ranked).slice(0, limit);
      const rows = new Map(
        (
          await knowledgeRepository(deps.reads).found(
            workspaceId,
            best.map((b) => b.id),
          )
        ).map((row) => [row.id, row]),
      );
      const chunks = best.flatMap(({ id, score }): KnowledgeMatch[] => {
        const row = rows.get(id);
        if (!row) return []; // re-indexed away between the ranking and this read
        const near = ranked.vector.get(id);
        return [
          {
            id,
            source_id: row.source_id,
            source_kind: row.source_kind,
            source_title: row.source_title,
            heading: row.heading,
            text: row.text,
            score,
            full_text_rank: ranked.fullText.get(id) ?? null,
            vector_rank: near?.rank ?? null,
            similarity: near?.similarity ?? null,
          },
        ];
      });
      return { retrieval: vector ? 'hybrid' : 'full_text', chunks };
    },
  };
}

/** Every candidate with its fused score, best first (ties: the full-text order, then id). */
function fused(ranked: Ranked): { id: string; score: number }[] {
  const ids = new Set([...ranked.fullText.keys(), ...ranked.vector.keys()]);
  const weight = (rank: number | undefined) => (rank === undefined ? 0 : 1 / (RRF_K + rank));
  return [...ids]
    .map((id) => ({
      id,
      score: weight(ranked.fullText.get(id)) + weight(ranked.vector.get(id)?.rank),
      order: ranked.fullText.get(id) ?? Infinity,
    }))
    .sort((a, b) => b.score - a.score || a.order - b.order || (a.id < b.id ? -1 : 1))
    .map(({ id, score }) => ({ id, score }));
}

export type Retrieval = ReturnType<typeof createRetrieval>;
