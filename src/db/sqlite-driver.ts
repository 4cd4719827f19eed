import { createRequire } from 'node:module';
import type SQLite from 'better-sqlite3';

/**
 * The better-sqlite3 build for the running Node line. 13.x is an N-API build with prebuilt binaries;
 * 12.x on Node ≥ 22 aborts the process when statements are garbage-collected, but 13.x segfaults on
 * Node 20, so Node 20 keeps 12.x under the npm alias `better-sqlite3-node20` (docs/decisions/0003-better-sqlite3-per-node-line.md).
 */
export const sqliteDriverModule =
  Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';

const require = createRequire(import.meta.url);

/** The resolved path of the driver, for worker threads that open their own connection. */
export const sqliteDriverPath: string = require.resolve(sqliteDriverModule);

/** The driver's Database constructor. */
export const SQLiteDatabase: typeof SQLite = require(sqliteDriverModule) as typeof SQLite;
