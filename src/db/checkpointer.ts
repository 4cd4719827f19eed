import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { sqliteDriverPath } from './sqlite-driver.js';

/** How often the background connection copies the write-ahead log back into the database file. */
const CHECKPOINT_INTERVAL_MS = 200;

// Plain JavaScript: a worker evaluated from a string runs without the TypeScript loader.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const database = new SQLite(workerData.file);
database.pragma('busy_timeout = 5000');
// A checkpoint that finds the disk full (SQLITE_FULL) is tried again at the next tick, once there is room.
const timer = setInterval(() => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)');
  } catch {}
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  database.close();
  parentPort.close();
});
`;

/**
 * Moves SQLite's WAL checkpoints off the event loop. By default the connection that commits
 * past 1,000 WAL pages copies them into the database file (and syncs it) inside that commit,
 * stalling every request behind it; here a worker thread with its own connection does it every
 * 200 ms without blocking writers. Should the worker fail, the main connection checkpoints again.
 */
export function checkpointInBackground(database: SQLite.Database, file: string): { stop(): void } {
  database.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      driver: sqliteDriverPath,
      intervalMs: CHECKPOINT_INTERVAL_MS,
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
