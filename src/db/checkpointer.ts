import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { sqliteDriverPath } from './sqlite-driver.js';

/** How often the background connection copies the write-ahead log back into the database file. */
const CHECKPOINT_INTERVAL_MS = 200;

/** The write-ahead log's size past which the checkpointer waits for readers to start it over. */
export const WAL_LIMIT_BYTES = 64 * 1024 * 1024;

// Plain JavaScript: a worker evaluated from a string runs without the TypeScript loader.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const fs = require('node:fs');
const database = new SQLite(workerData.file);
// Long enough for the readers of the moment to finish (a scan of a large table takes hundreds of
// milliseconds); new ones read the database file, not the log. Writers wait meanwhile, well within theirs.
database.pragma('busy_timeout = 1000');
const walSize = () => {
  try {
    return fs.statSync(workerData.file + '-wal').size;
  } catch {
    return 0;
  }
};
// A checkpoint that finds the disk full (SQLITE_FULL) is tried again at the next tick, once there is room.
const checkpoint = () => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)');
    if (walSize() > workerData.limitBytes) database.pragma('wal_checkpoint(TRUNCATE)');
  } catch {}
  // The next tick counts from the end of this one, not its start: a truncation holds the write lock while
  // it waits for readers, and back-to-back attempts would leave writers no gap to take it in.
  timer = setTimeout(checkpoint, workerData.intervalMs);
};
let timer = setTimeout(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearTimeout(timer);
  database.close();
  parentPort.close();
});
`;

/**
 * Moves SQLite's WAL checkpoints off the event loop. By default the connection that commits
 * past 1,000 WAL pages copies them into the database file (and syncs it) inside that commit,
 * stalling every request behind it; here a worker thread with its own connection does it 200 ms
 * after its last one, without blocking writers. Should the worker fail, the main connection checkpoints again.
 *
 * A passive checkpoint never starts the log over while some reader is in a snapshot, and on a busy
 * server (the read pool's connections) one always is: at a million messages the log had grown to
 * 2.5 GB, and every read searched it. Past WAL_LIMIT_BYTES the worker truncates it, waiting up to 1 s
 * for the readers of the moment (writers wait meanwhile; the pages are already copied, so it is brief),
 * then leaves writers 200 ms before the next attempt: attempts back to back (a timer counted from each
 * start) starved a writer past its own 5 s wait on a loaded machine (SQLITE_BUSY).
 */
export function checkpointInBackground(database: SQLite.Database, file: string): { stop(): void } {
  database.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      driver: sqliteDriverPath,
      intervalMs: CHECKPOINT_INTERVAL_MS,
      limitBytes: WAL_LIMIT_BYTES,
    },
    execArgv: [], // plain JavaScript: the parent's loader flags (`--input-type=module`) would break it
  });
  worker.unref();
  worker.on('error', (error) => {
    if (database.open) database.pragma('wal_autocheckpoint = 1000');
    process.emitWarning(`SQLite background checkpoints stopped: ${String(error)}`);
  });
  return { stop: () => worker.postMessage('stop') };
}
