/**
 * Holds src/ to its table owners (src/db/table-owners.ts): code outside a table's owning folder may read
 * it only as a named read model, and write it only as a named shared write; a named entry the code no
 * longer needs is stale. Reads the query builder's table names (`selectFrom('messages as m')`, joins,
 * inserts, updates, deletes) from the source; SQL written by hand is not seen. Run by `npm run check`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { READ_MODELS, SHARED_WRITES, TABLE_OWNERS } from '../src/db/table-owners.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const WRITES = new Set(['insertInto', 'updateTable', 'deleteFrom']);
const QUERY =
  /\.(selectFrom|innerJoin|leftJoin|rightJoin|fullJoin|insertInto|updateTable|deleteFrom)\(\s*'([a-z_]+)[ ']/g;

type Table = keyof typeof TABLE_OWNERS;
const isTable = (name: string): name is Table => Object.hasOwn(TABLE_OWNERS, name);

/** The application's source files, as paths under src/ (tests, fixtures and frozen migrations aside). */
function sourceFiles(dir = ''): string[] {
  return fs.readdirSync(path.join(SRC, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return file === 'db/migrations' ? [] : sourceFiles(file);
    return /\.ts$/.test(entry.name) && !/(\.test|fixtures)\.ts$/.test(entry.name) ? [file] : [];
  });
}

/** The tables of other folders a file reads and writes. */
function foreignTables(file: string): { reads: Set<Table>; writes: Set<Table> } {
  const folder = file.split('/')[0];
  const found = { reads: new Set<Table>(), writes: new Set<Table>() };
  for (const [, method, name] of fs.readFileSync(path.join(SRC, file), 'utf8').matchAll(QUERY)) {
    if (!isTable(name!) || TABLE_OWNERS[name] === folder) continue;
    (WRITES.has(method!) ? found.writes : found.reads).add(name);
  }
  return found;
}

/** What a file does beyond what its entries name, and what its entries name that it no longer does. */
function problemsOf(file: string): string[] {
  const { reads, writes } = foreignTables(file);
  const namedReads = new Set(READ_MODELS[file]?.reads);
  const namedWrites = new Set(SHARED_WRITES[file]?.writes);
  return [
    ...[...writes].filter((t) => !namedWrites.has(t)).map((t) => `writes ${t}, owned by ${TABLE_OWNERS[t]}/`),
    ...[...reads]
      .filter((t) => !namedReads.has(t))
      .map((t) => `reads ${t}, owned by ${TABLE_OWNERS[t]}/, as no named read model`),
    ...[...namedReads].filter((t) => !reads.has(t)).map((t) => `is named a reader of ${t} but no longer reads it`),
    ...[...namedWrites].filter((t) => !writes.has(t)).map((t) => `is named a writer of ${t} but no longer writes it`),
  ];
}

const files = sourceFiles();
const named = [...Object.keys(READ_MODELS), ...Object.keys(SHARED_WRITES)];
const problems = [
  ...files.flatMap((file) => problemsOf(file).map((problem) => `src/${file} ${problem}`)),
  ...named
    .filter((file) => !files.includes(file))
    .map((file) => `src/db/table-owners.ts names src/${file}, which does not exist`),
];
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(
    '\nA table is changed through its owner (src/db/table-owners.ts); a read across folders is a named read model.',
  );
  process.exit(1);
}
