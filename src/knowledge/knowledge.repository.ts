import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database, KnowledgeChunkTable, KnowledgeSourceTable } from '../db/schema.js';

export type SourceRow = Selectable<KnowledgeSourceTable>;
export type ChunkRow = Selectable<KnowledgeChunkTable>;
export type NewChunk = Insertable<KnowledgeChunkTable>;
/** What a re-index compares: the chunks a source has, without their text. */
export type IndexedChunk = Pick<ChunkRow, 'id' | 'content_hash' | 'position'>;

/** SQL for knowledge sources, their chunks and each workspace's index generation; all scoped to one workspace. */
export function knowledgeRepository(db: Kysely<Database>) {
  const sources = (workspaceId: string) =>
    db.selectFrom('knowledge_sources').selectAll().where('workspace_id', '=', workspaceId);
  return {
    /** Oldest first. */
    listSources: (workspaceId: string, kind?: SourceRow['kind']) =>
      (kind ? sources(workspaceId).where('kind', '=', kind) : sources(workspaceId))
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    findSource: (workspaceId: string, id: string) => sources(workspaceId).where('id', '=', id).executeTakeFirst(),
    /** The source row locked until the transaction ends (PostgreSQL; SQLite's transactions hold the write lock). */
    lockSource(workspaceId: string, id: string, dialect: Dialect) {
      const query = sources(workspaceId).where('id', '=', id);
      return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
    },
    syncedSources: (workspaceId: string) =>
      sources(workspaceId).where('kind', 'in', ['templates', 'quick_replies']).execute(),
    async countSources(workspaceId: string): Promise<number> {
      const row = await db
        .selectFrom('knowledge_sources')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async insertSource(row: SourceRow): Promise<void> {
      await db.insertInto('knowledge_sources').values(row).execute();
    },
    async updateSource(
      workspaceId: string,
      id: string,
      fields: Partial<Omit<SourceRow, 'id' | 'workspace_id' | 'kind' | 'created_at'>>,
    ): Promise<void> {
      await db
        .updateTable('knowledge_sources')
        .set(fields)
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .execute();
    },
    /** Its chunks go with it (a cascade; SQLite's trigger takes them out of the full-text index). */
    async deleteSource(workspaceId: string, id: string): Promise<void> {
      await db.deleteFrom('knowledge_sources').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    indexedChunks: (sourceId: string): Promise<IndexedChunk[]> =>
      db
        .selectFrom('knowledge_chunks')
        .select(['id', 'content_hash', 'position'])
        .where('source_id', '=', sourceId)
        .execute(),
    chunksOf: (workspaceId: string, sourceId: string) =>
      db
        .selectFrom('knowledge_chunks')
        .select(['id', 'position', 'heading', 'text', 'embedding_model'])
        .where('workspace_id', '=', workspaceId)
        .where('source_id', '=', sourceId)
        .orderBy('position')
        .execute(),
    /** The chunks retrieval found, with their source's kind and title. */
    found: (workspaceId: string, ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('knowledge_chunks as c')
            .innerJoin('knowledge_sources as s', 's.id', 'c.source_id')
            .select(['c.id', 'c.source_id', 'c.heading', 'c.text', 's.kind as source_kind', 's.title as source_title'])
            .where('c.workspace_id', '=', workspaceId)
            .where('c.id', 'in', ids)
            .execute(),
    async insertChunks(rows: NewChunk[]): Promise<void> {
      // 13 values a row: well under both engines' parameter limits.
      for (let i = 0; i < rows.length; i += 200) {
        await db
          .insertInto('knowledge_chunks')
          .values(rows.slice(i, i + 200))
          .execute();
      }
    },
    async deleteChunks(ids: string[]): Promise<void> {
      for (let i = 0; i < ids.length; i += 500) {
        await db
          .deleteFrom('knowledge_chunks')
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
      }
    },
    async moveChunk(id: string, position: number): Promise<void> {
      await db.updateTable('knowledge_chunks').set({ position }).where('id', '=', id).execute();
    },
    /** SQLite: the next free row of the FTS5 index (transactions there hold the write lock, so none takes it meanwhile). */
    async nextSearchRowid(): Promise<number> {
      const row = await db
        .selectFrom('knowledge_chunks')
        .select((eb) => eb.fn.max('search_rowid').as('last'))
        .executeTakeFirst();
      return Number(row?.last ?? 0) + 1;
    },

    /** Chunks per source, and how many of them have a vector of `model`. */
    async chunkCounts(workspaceId: string, model: string | null): Promise<Map<string, number>> {
      if (model === null) return new Map();
      const rows = await db
        .selectFrom('knowledge_chunks')
        .select(['source_id', (eb) => eb.fn.countAll().as('n')])
        .where('workspace_id', '=', workspaceId)
        .where('embedding_model', '=', model)
        .groupBy('source_id')
        .execute();
      return new Map(rows.map((row) => [row.source_id, Number(row.n)]));
    },
    async countChunks(workspaceId: string, model?: string): Promise<number> {
      let query = db
        .selectFrom('knowledge_chunks')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('workspace_id', '=', workspaceId);
      if (model !== undefined) query = query.where('embedding_model', '=', model);
      return Number((await query.executeTakeFirstOrThrow()).n);
    },
    /** Up to `limit` chunks without a vector of `model` (any model when null), for the embeddings job. */
    unembedded: (workspaceId: string, model: string | null, limit: number) =>
      db
        .selectFrom('knowledge_chunks as c')
        .innerJoin('knowledge_sources as s', 's.id', 'c.source_id')
        .select(['c.id', 'c.heading', 'c.text', 's.kind as source_kind', 's.title as source_title'])
        .where('c.workspace_id', '=', workspaceId)
        .where((eb) =>
          model === null
            ? eb('c.embedding_model', 'is', null)
            : eb.or([eb('c.embedding_model', 'is', null), eb('c.embedding_model', '<>', model)]),
        )
        .orderBy('c.id')
        .limit(limit)
        .execute(),
    async storeVector(id: string, model: string, embedding: Buffer): Promise<void> {
      await db
        .updateTable('knowledge_chunks')
        .set({ embedding, embedding_model: model })
        .where('id', '=', id)
        .execute();
    },
    /** Every vector of `model` in the workspace. */
    vectors: (workspaceId: string, model: string) =>
      db
        .selectFrom('knowledge_chunks')
        .select(['id', 'embedding'])
        .where('workspace_id', '=', workspaceId)
        .where('embedding_model', '=', model)
        .execute(),

    index: (workspaceId: string) =>
      db.selectFrom('knowledge_indexes').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst(),
    /** Counts a change of the workspace's chunks or vectors (and notes the embeddings model, when given). */
    async bumpGeneration(workspaceId: string, at: string, model?: string | null): Promise<void> {
      await db
        .insertInto('knowledge_indexes')
        .values({ workspace_id: workspaceId, generation: 1, embedding_model: model ?? null, updated_at: at })
        .onConflict((oc) =>
          oc.column('workspace_id').doUpdateSet((eb) => ({
            generation: eb('knowledge_indexes.generation', '+', 1),
            updated_at: at,
            ...(model !== undefined && { embedding_model: model }),
          })),
        )
        .execute();
    },
  };
}

export type KnowledgeRepository = ReturnType<typeof knowledgeRepository>;
