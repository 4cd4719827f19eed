import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * A query built and compiled once, then run with new argument values. Kysely otherwise rebuilds
 * and recompiles the SQL on every call, which on the hot paths (token lookup, contact by phone)
 * costs more than the indexed lookups themselves. The builder is called once with placeholder
 * strings; each call swaps the real values in by position. Arguments must be bound values (not
 * lists or identifiers); an argument the builder does not bind is an error at first use. The SQL is
 * kept per dialect (its adapter's class), since one process may hold apps on both engines (the benches).
 */
export function precompile<Args extends string[], Row>(
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
): (db: Kysely<Database>, ...args: Args) => Promise<Row[]> {
  const byDialect = new Map<unknown, { compiled: CompiledQuery<Row>; slots: number[] }>();
  const compileFor = (db: Kysely<Database>, arity: number) => {
    const placeholders = Array.from({ length: arity }, (_, i) => `\u0000precompiled:${i}`) as Args;
    const compiled = build(db, ...placeholders).compile();
    const unbound = placeholders.findIndex((p) => !compiled.parameters.includes(p));
    if (unbound >= 0) throw new Error(`precompiled query does not bind argument ${unbound}: ${compiled.sql}`);
    return { compiled, slots: compiled.parameters.map((value) => placeholders.indexOf(value as string)) };
  };
  return async (db, ...args) => {
    const dialect = db.getExecutor().adapter.constructor;
    let query = byDialect.get(dialect);
    if (!query) byDialect.set(dialect, (query = compileFor(db, args.length)));
    const { compiled, slots } = query;
    const parameters = compiled.parameters.map((value, i) => (slots[i]! >= 0 ? args[slots[i]!] : value));
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  };
}
