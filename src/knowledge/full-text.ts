import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { scopeTokenOf } from './search-text.js';

/**
 * A word in more than half of a large workspace's chunks ("the", "is", "what") says almost nothing of
 * which chunk answers (BM25 weighs it at nearly nothing) but would make the engine rank every chunk: it
 * is left out of the ranking, unless every word of the question is such a word (then the rarest stays).
 */
const DENSE_WORD_MIN_CHUNKS = 500;

/**
 * Full-text retrieval in the engine's own index, best first: any of the question's words (search-text.ts)
 * may match, and rarer words weigh more. SQLite ranks with FTS5's bm25; PostgreSQL's ts_rank knows
 * nothing of how rare a word is, so each word's rank is weighted by its inverse document frequency in
 * the workspace (BM25's). Both count each word's chunks first, with the same index, to leave the dense
 * ones out; both look only at the workspace's own postings (its scope token, migration 0063) and check
 * the workspace on the row besides.
 */
export async function fullTextSearch(
  reads: Kysely<Database>,
  dialect: Dialect,
  workspaceId: string,
  words: string[],
  limit: number,
): Promise<string[]> {
  if (words.length === 0) return [];
  const search = dialect === 'postgres' ? postgres : sqlite;
  return (await search(reads, workspaceId, words, limit)).map((row) => row.id);
}

/** The words worth ranking by, given how many of the workspace's chunks each is in. */
export function rankingWords(frequencies: { word: string; chunks: number }[], total: number): string[] {
  const present = frequencies.filter((f) => f.chunks > 0);
  const dense = (chunks: number) => chunks > total / 2 && chunks > DENSE_WORD_MIN_CHUNKS;
  const telling = present.filter((f) => !dense(f.chunks));
  if (telling.length > 0 || present.length === 0) return telling.map((f) => f.word);
  return [present.reduce((rarest, f) => (f.chunks < rarest.chunks ? f : rarest)).word];
}

/** FTS5's query: the scope token, and any of the words as quoted strings (so none is read as an operator). */
export function matchExpression(workspaceId: string, words: string[]): string {
  const any = words.map((word) => `"${word.replaceAll('"', '""')}"`).join(' OR ');
  return `scope : ${scopeTokenOf(workspaceId)} AND (${any})`;
}

async function sqlite(reads: Kysely<Database>, workspaceId: string, words: string[], limit: number) {
  // Each word's chunks and the workspace's, in one statement (one trip to a read worker).
  const counts = words.map(
    (word, i) =>
      sql`(SELECT count(*) FROM knowledge_chunks_fts WHERE knowledge_chunks_fts MATCH ${matchExpression(workspaceId, [word])}) AS ${sql.ref(`w${i}`)}`,
  );
  const { rows } = await sql<Record<string, number>>`
    SELECT (SELECT count(*) FROM knowledge_chunks WHERE workspace_id = ${workspaceId}) AS total, ${sql.join(counts)}`.execute(
    reads,
  );
  const counted = rows[0]!;
  const ranked = rankingWords(
    words.map((word, i) => ({ word, chunks: Number(counted[`w${i}`]) })),
    Number(counted.total),
  );
  if (ranked.length === 0) return [];
  // Ranked in the index alone, then the few best joined to their rows: joining every match first costs
  // a row lookup per match before the sort (3–4× the time at 10,000 chunks). The scope token keeps the
  // postings to the workspace's; its row is checked besides.
  const found = await sql<{ id: string }>`
    SELECT c.id FROM (
      SELECT rowid, bm25(knowledge_chunks_fts, 0.0, 1.0) AS score FROM knowledge_chunks_fts
      WHERE knowledge_chunks_fts MATCH ${matchExpression(workspaceId, ranked)}
      ORDER BY score, rowid LIMIT ${limit}
    ) f JOIN knowledge_chunks c ON c.search_rowid = f.rowid
    WHERE c.workspace_id = ${workspaceId}
    ORDER BY f.score, f.rowid`.execute(reads);
  return found.rows;
}

async function postgres(reads: Kysely<Database>, workspaceId: string, words: string[], limit: number) {
  // MATERIALIZED: each word's chunks are counted once, not again for every chunk ranked.
  const { rows } = await sql<{ id: string }>`
    WITH scope AS (SELECT to_tsquery('simple', ${scopeTokenOf(workspaceId)}) AS query),
    terms AS (
      SELECT scope.query && plainto_tsquery('simple', word) AS query, plainto_tsquery('simple', word) AS word
      FROM unnest(${words}::text[]) AS word, scope
    ),
    frequencies AS MATERIALIZED (
      SELECT terms.query, terms.word,
        (SELECT count(*) FROM knowledge_chunks c WHERE c.search_vector @@ terms.query) AS df
      FROM terms
    ),
    total AS (SELECT count(*) AS n FROM knowledge_chunks WHERE workspace_id = ${workspaceId}),
    ranking AS (
      SELECT f.* FROM frequencies f, total
      WHERE f.df > 0 AND (f.df <= greatest(total.n / 2.0, ${DENSE_WORD_MIN_CHUNKS})
        OR f.df = (SELECT min(df) FROM frequencies WHERE df > 0)
          AND NOT EXISTS (SELECT 1 FROM frequencies WHERE df > 0 AND df <= greatest(total.n / 2.0, ${DENSE_WORD_MIN_CHUNKS})))
    )
    SELECT c.id
    FROM ranking f CROSS JOIN total JOIN knowledge_chunks c ON c.search_vector @@ f.query
    WHERE c.workspace_id = ${workspaceId}
    GROUP BY c.id
    ORDER BY sum(ln(1 + (total.n - f.df + 0.5) / (f.df + 0.5)) * ts_rank(c.search_vector, f.word, 1)) DESC, c.id
    LIMIT ${limit}`.execute(reads);
  return rows;
}
