import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { scopeTokenOf } from './search-text.js';

/**
 * Full-text retrieval in the engine's own index, best first: any of the question's words (search-text.ts)
 * may match, and rarer words weigh more. SQLite ranks with FTS5's bm25; PostgreSQL's ts_rank knows
 * nothing of how rare a word is, so each word's rank is weighted by its inverse document frequency in
 * the workspace (BM25's), counted with the same index. Both look only at the workspace's own postings
 * (its scope token, migration 0063), and check the workspace on the row besides.
 */
export async function fullTextSearch(
  reads: Kysely<Database>,
  dialect: Dialect,
  workspaceId: string,
  words: string[],
  limit: number,
): Promise<string[]> {
  if (words.length === 0) return [];
  const rows =
    dialect === 'postgres'
      ? await postgres(reads, workspaceId, words, limit)
      : await sqlite(reads, workspaceId, words, limit);
  return rows.map((row) => row.id);
}

/** FTS5's query: the scope token, and any of the words as quoted strings (so none is read as an operator). */
export function matchExpression(workspaceId: string, words: string[]): string {
  const any = words.map((word) => `"${word.replaceAll('"', '""')}"`).join(' OR ');
  return `scope : ${scopeTokenOf(workspaceId)} AND (${any})`;
}

async function sqlite(reads: Kysely<Database>, workspaceId: string, words: string[], limit: number) {
  const { rows } = await sql<{ id: string }>`
    SELECT c.id FROM knowledge_chunks_fts f JOIN knowledge_chunks c ON c.search_rowid = f.rowid
    WHERE knowledge_chunks_fts MATCH ${matchExpression(workspaceId, words)} AND c.workspace_id = ${workspaceId}
    ORDER BY bm25(knowledge_chunks_fts, 0.0, 1.0), c.id
    LIMIT ${limit}`.execute(reads);
  return rows;
}

async function postgres(reads: Kysely<Database>, workspaceId: string, words: string[], limit: number) {
  const { rows } = await sql<{ id: string }>`
    WITH scope AS (SELECT to_tsquery('simple', ${scopeTokenOf(workspaceId)}) AS query),
    terms AS (
      SELECT scope.query && plainto_tsquery('simple', word) AS query, plainto_tsquery('simple', word) AS word
      FROM unnest(${words}::text[]) AS word, scope
    ),
    frequencies AS (
      SELECT terms.query, terms.word,
        (SELECT count(*) FROM knowledge_chunks c WHERE c.search_vector @@ terms.query) AS df
      FROM terms
    ),
    total AS (SELECT count(*) AS n FROM knowledge_chunks WHERE workspace_id = ${workspaceId})
    SELECT c.id
    FROM frequencies f CROSS JOIN total JOIN knowledge_chunks c ON c.search_vector @@ f.query
    WHERE f.df > 0 AND c.workspace_id = ${workspaceId}
    GROUP BY c.id
    ORDER BY sum(ln(1 + (total.n - f.df + 0.5) / (f.df + 0.5)) * ts_rank(c.search_vector, f.word, 1)) DESC, c.id
    LIMIT ${limit}`.execute(reads);
  return rows;
}
