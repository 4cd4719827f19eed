import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { precompile } from './precompile.js';
import type { Database } from './schema.js';

const selectGeneration = precompile((db) =>
  db.selectFrom('deployment_generation').select('generation').where('id', '=', 1),
);

/**
 * The deployment's cache generation: triggers bump it whenever a token is revoked or deleted, a
 * workspace's limits change or any channel changes (migration 0026), a user's role changes or the
 * user is removed (0031), or a workspace's Marketing Messages API setting changes (0053), whichever
 * process or tool wrote.
 */
export async function deploymentGeneration(db: Kysely<Database>): Promise<number> {
  const [row] = await selectGeneration(db);
  return Number(row?.generation ?? 0);
}

/**
 * A per-process cache whose entries hold only while the generation they were loaded under is
 * current. Each `get` reads the generation (one indexed single-row read, cheaper than the lookups
 * it saves), so a change committed by any process is seen by the next `get` everywhere.
 */
export class GenerationCache<V> {
  private readonly entries: LRUCache<string, { value: V; generation: number }>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly load: (key: string) => Promise<V>,
    max = 10_000,
  ) {
    this.entries = new LRUCache({ max });
  }

  /** The value of `key`, loaded again when the deployment changed since it was cached. */
  async get(key: string): Promise<V> {
    // Read before loading: a change committed in between leaves an entry of an older generation.
    const generation = await deploymentGeneration(this.db);
    const entry = this.entries.get(key);
    if (entry?.generation === generation) return entry.value;
    const value = await this.load(key);
    this.entries.set(key, { value, generation });
    return value;
  }
}
