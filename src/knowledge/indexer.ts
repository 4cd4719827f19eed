import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { scheduleJobOnce } from '../automation/scheduler.js';
import type { Deps } from '../db/deps.js';
import type { Database } from '../db/schema.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { ChunkDraft } from './chunking.js';
import { knowledgeRepository, type IndexedChunk, type NewChunk } from './knowledge.repository.js';
import { searchTextOf } from './search-text.js';

/** The embeddings job's kind; its subject is the workspace. */
export const EMBED_JOB = 'knowledge_embed';

/** What a source's chunks are made from: the drafts, the words they are found by beside their own, and the digest. */
export interface IndexInput {
  drafts: ChunkDraft[];
  /** Words a chunk is also found by (a document's title): part of its identity, not of its text. */
  context: string;
  /** What the source's digest becomes; null when it must be looked at again at the next search. */
  digest: string | null;
}

/** The words a source's chunks are also found (and embedded) by: a document's title; a Q&A pair's question is their heading already. */
export const contextOf = (source: { kind: string; title: string }) => (source.kind === 'document' ? source.title : '');

const hashOf = (context: string, draft: ChunkDraft) =>
  createHash('sha256').update(`${context}\u0000${draft.heading}\u0000${draft.text}`).digest('hex');

/**
 * Replaces a source's chunks with `input`'s in the caller's transaction, so a search sees the old
 * chunks or the new, never a mix. A chunk whose text (and heading and context) did not change keeps its
 * id, its vector and its place in the index, so a citation of it stays good; the rest are deleted and
 * inserted. Counts the change in the workspace's generation and queues the embeddings job for new chunks.
 */
export async function indexSource(
  trx: Kysely<Database>,
  deps: Pick<Deps, 'dialect' | 'clock' | 'newId'>,
  source: { id: string; workspace_id: string },
  input: IndexInput,
): Promise<void> {
  const repository = knowledgeRepository(trx);
  const at = toStoredTimestamp(deps.clock.now());
  const existing = await repository.indexedChunks(source.id);
  const kept = new Set<string>();
  const fresh: NewChunk[] = [];
  const byHash = groupByHash(existing);
  let searchRowid = deps.dialect === 'sqlite' ? await repository.nextSearchRowid() : null;
  for (const [position, draft] of input.drafts.entries()) {
    const contentHash = hashOf(input.context, draft);
    const same = byHash.get(contentHash)?.shift();
    if (same) {
      kept.add(same.id);
      if (same.position !== position) await repository.moveChunk(same.id, position);
      continue;
    }
    fresh.push({
      id: deps.newId(),
      workspace_id: source.workspace_id,
      source_id: source.id,
      position,
      heading: draft.heading,
      text: draft.text,
      search_text: searchTextOf(`${input.context}\n${draft.heading}`, draft.text),
      content_hash: contentHash,
      embedding: null,
      embedding_model: null,
      search_rowid: searchRowid === null ? null : searchRowid++,
      created_at: at,
    });
  }
  const gone = existing.filter((chunk) => !kept.has(chunk.id)).map((chunk) => chunk.id);
  await repository.deleteChunks(gone);
  await repository.insertChunks(fresh);
  await repository.updateSource(source.workspace_id, source.id, {
    digest: input.digest,
    chunk_count: input.drafts.length,
    indexed_at: at,
  });
  // Only chunks coming or going change what a search can find (vectors in memory included).
  if (gone.length > 0 || fresh.length > 0) await repository.bumpGeneration(source.workspace_id, at);
  if (fresh.length > 0) {
    await scheduleJobOnce(trx, deps, {
      workspaceId: source.workspace_id,
      kind: EMBED_JOB,
      subjectId: source.workspace_id,
      dueAt: deps.clock.now(),
    });
  }
}

function groupByHash(chunks: IndexedChunk[]): Map<string, IndexedChunk[]> {
  const groups = new Map<string, IndexedChunk[]>();
  for (const chunk of [...chunks].sort((a, b) => a.position - b.position)) {
    groups.set(chunk.content_hash, [...(groups.get(chunk.content_hash) ?? []), chunk]);
  }
  return groups;
}
