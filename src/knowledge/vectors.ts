import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { knowledgeRepository } from './knowledge.repository.js';

/**
 * What knowledge needs of the workspace's AI model settings (src/ai-models' `embed`, injected from
 * services.ts): one vector per text, and the model that made them; null when the workspace's model has
 * no embeddings model. It throws ModelUnavailable when there is no answer (no model turned on, timeout,
 * rate limit, budget).
 */
export interface Embedder {
  embed(workspaceId: string, texts: string[]): Promise<{ model: string; vectors: number[][] } | null>;
}

/** A vector as stored: unit length (so a dot product is the cosine similarity), float32 little-endian. */
export function storedVector(vector: number[]): Buffer {
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0)) || 1;
  const floats = Float32Array.from(vector, (x) => x / norm);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
}

/** A stored vector read back (a Buffer, or a Uint8Array from SQLite's read workers). */
export function readVector(bytes: Uint8Array): Float32Array {
  const copy = bytes.slice();
  return new Float32Array(copy.buffer, copy.byteOffset, copy.byteLength / 4);
}

/** One workspace's vectors of one model, side by side for a scan. */
interface Loaded {
  generation: number;
  model: string;
  ids: string[];
  dimensions: number;
  matrix: Float32Array;
}

/**
 * Nearest chunks by cosine similarity, over each workspace's vectors kept in memory: loaded from the
 * database once per generation of its index (knowledge_indexes), so any process's change is seen at the
 * next search, and scanned whole (10,000 chunks of 1,536 dimensions: ~15 M multiply-adds). Workspaces
 * least recently searched give their memory up beyond `maxBytes`.
 */
export function createVectorIndex(reads: Kysely<Database>, maxBytes: number) {
  const loaded = new Map<string, Loaded>();

  async function load(workspaceId: string, model: string, generation: number): Promise<Loaded> {
    const cached = loaded.get(workspaceId);
    if (cached && cached.generation === generation && cached.model === model) {
      loaded.delete(workspaceId);
      loaded.set(workspaceId, cached); // most recently used last
      return cached;
    }
    const rows = await knowledgeRepository(reads).vectors(workspaceId, model);
    const vectors = rows.flatMap((row) => (row.embedding ? [{ id: row.id, vector: readVector(row.embedding) }] : []));
    const dimensions = vectors[0]?.vector.length ?? 0;
    const same = vectors.filter((v) => v.vector.length === dimensions);
    const matrix = new Float32Array(same.length * dimensions);
    same.forEach((v, i) => matrix.set(v.vector, i * dimensions));
    const entry = { generation, model, ids: same.map((v) => v.id), dimensions, matrix };
    loaded.delete(workspaceId);
    loaded.set(workspaceId, entry);
    evict();
    return entry;
  }

  function evict(): void {
    let bytes = [...loaded.values()].reduce((sum, entry) => sum + entry.matrix.byteLength, 0);
    for (const [workspaceId, entry] of loaded) {
      if (bytes <= maxBytes || loaded.size === 1) break;
      loaded.delete(workspaceId);
      bytes -= entry.matrix.byteLength;
    }
  }

  return {
    /**
     * The `limit` chunks nearest to `query` (a raw vector of `model`), best first, and how many
     * chunks of the workspace have a vector of that model.
     */
    async nearest(
      workspaceId: string,
      model: string,
      generation: number,
      query: number[],
      limit: number,
    ): Promise<{ matches: { id: string; similarity: number }[]; embedded: number }> {
      const entry = await load(workspaceId, model, generation);
      if (entry.dimensions !== query.length) return { matches: [], embedded: entry.ids.length };
      const target = readVector(storedVector(query));
      const scores = new Float32Array(entry.ids.length);
      for (let row = 0; row < entry.ids.length; row++) {
        let dot = 0;
        const offset = row * entry.dimensions;
        for (let d = 0; d < entry.dimensions; d++) dot += entry.matrix[offset + d]! * target[d]!;
        scores[row] = dot;
      }
      const order = [...scores.keys()].sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, limit);
      return {
        matches: order.map((row) => ({ id: entry.ids[row]!, similarity: scores[row]! })),
        embedded: entry.ids.length,
      };
    },
  };
}

export type VectorIndex = ReturnType<typeof createVectorIndex>;
