import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * A query built and compiled once, then run with new argument values. Kysely otherwise rebuilds
 * and recompiles the SQL on every call, which on the hot paths (token lookup, contact by phone)
 * costs more than the indexed lookups themselves. The builder is called once with placeholder
 * strings; each call swaps the real values in by position. Arguments must be bound values (not
 * lists or identifiers); an argument the builder does not bind is an error at first use.
 */
export function precompile<Args extends string[], Row>(
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
): (db: Kysely<Database>, ...args: Args) => Promise<Row[]> {
  let compiled: CompiledQuery<Row> | undefined;
  let slots: number[] = [];
  return async (db, ...args) => {
    if (!compiled) {
      const placeholders = args.map((_, i) => `\u0000precompiled:${i}`) as Args;
      compiled = build(db, ...placeholders).compile();
      slots = compiled.parameters.map((value) => placeholders.indexOf(value as string));
      const unbound = placeholders.findIndex((p) => !compiled!.parameters.includes(p));
      if (unbound >= 0) throw new Error(`precompiled query does not bind argument ${unbound}: ${compiled.sql}`);
    }
    const parameters = compiled.parameters.map((value, i) => (slots[i]! >= 0 ? args[slots[i]!] : value));
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  };
}
