import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * The knowledge a workspace's AI teammate answers from: its sources (Q&A pairs, documents, and the
 * workspace's templates and quick replies when switched on), their chunks, each chunk's full-text index
 * entry (SQLite: an FTS5 table; PostgreSQL: a tsvector column with a GIN index) and, when an embeddings
 * model is configured, its vector. Both engines index the same words (`search_text`, folded and split
 * into words by Parley), behind the workspace's own token (`w` + its id without dashes), so a search
 * reads only its workspace's postings.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('knowledge_sources')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // qa, document, templates or quick_replies.
    .addColumn('kind', 'text', (c) => c.notNull())
    // A Q&A pair's question, a document's title; empty for templates and quick replies.
    .addColumn('title', 'text', (c) => c.notNull())
    // A Q&A pair's answer, a document's text; empty for templates and quick replies (read where they live).
    .addColumn('content', 'text', (c) => c.notNull())
    // markdown or text: how the content is cut into chunks.
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text')
    // What the chunks were made from: a hash of the content, or templates' and quick replies' state; null: never indexed.
    .addColumn('digest', 'text')
    .addColumn('chunk_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('indexed_at', t.timestamp)
    .execute();
  await sql`CREATE INDEX knowledge_sources_workspace ON knowledge_sources (workspace_id, created_at, id)`.execute(db);
  // Templates and quick replies are one source each per workspace.
  await sql`CREATE UNIQUE INDEX knowledge_sources_synced ON knowledge_sources (workspace_id, kind)
    WHERE kind IN ('templates', 'quick_replies')`.execute(db);

  await db.schema
    .createTable('knowledge_chunks')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('source_id', t.id, (c) => c.notNull().references('knowledge_sources.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    // The headings above the chunk, outermost first, joined with " › "; empty when none.
    .addColumn('heading', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    // The heading's and text's words as the index takes them: lower case, accents folded, split by Parley.
    .addColumn('search_text', 'text', (c) => c.notNull())
    // SHA-256 of heading and text: re-indexing a source keeps the id of a chunk whose text did not change.
    .addColumn('content_hash', 'text', (c) => c.notNull())
    // float32 little-endian, and the embeddings model that made it; null until embedded.
    .addColumn('embedding', dialect === 'postgres' ? 'bytea' : 'blob')
    .addColumn('embedding_model', 'text')
    // SQLite: the chunk's row in knowledge_chunks_fts (a rowid of its own: VACUUM may renumber this table's).
    .addColumn('search_rowid', 'integer')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX knowledge_chunks_source ON knowledge_chunks (source_id, position)`.execute(db);
  await sql`CREATE INDEX knowledge_chunks_embedding ON knowledge_chunks (workspace_id, embedding_model)`.execute(db);

  if (dialect === 'postgres') {
    await sql`ALTER TABLE knowledge_chunks ADD COLUMN search_vector tsvector GENERATED ALWAYS AS
      (to_tsvector('simple'::regconfig, 'w' || replace(workspace_id::text, '-', '') || ' ' || search_text)) STORED`.execute(
      db,
    );
    await sql`CREATE INDEX knowledge_chunks_search ON knowledge_chunks USING gin (search_vector)`.execute(db);
  } else {
    await sql`CREATE UNIQUE INDEX knowledge_chunks_search_rowid ON knowledge_chunks (search_rowid)`.execute(db);
    // Contentless: the words live in knowledge_chunks; the index keeps only postings (and deletes by rowid).
    await sql`CREATE VIRTUAL TABLE knowledge_chunks_fts USING fts5(scope, words, content = '',
      contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0')`.execute(db);
    // Kept in step with the chunks, also when a source or a workspace is deleted (cascades fire triggers).
    await sql`CREATE TRIGGER knowledge_chunks_indexed AFTER INSERT ON knowledge_chunks BEGIN
      INSERT INTO knowledge_chunks_fts (rowid, scope, words)
      VALUES (new.search_rowid, 'w' || replace(new.workspace_id, '-', ''), new.search_text); END`.execute(db);
    await sql`CREATE TRIGGER knowledge_chunks_unindexed AFTER DELETE ON knowledge_chunks BEGIN
      DELETE FROM knowledge_chunks_fts WHERE rowid = old.search_rowid; END`.execute(db);
  }

  await db.schema
    .createTable('knowledge_indexes')
    .addColumn('workspace_id', t.id, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    // Counts every change of the workspace's chunks or vectors: a process's vectors in memory are current while it matches.
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    // The embeddings model the workspace's model settings last answered with; null: none configured.
    .addColumn('embedding_model', 'text')
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
}
