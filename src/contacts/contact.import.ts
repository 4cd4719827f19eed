import type { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import type { Caller } from '../shared/context.js';
import { AppError } from '../shared/errors.js';
import { moduleWorker } from '../shared/module-worker.js';
import { BULK_BATCH, type ContactBulk } from './contact.bulk.js';
import { rowBatches, type ImportOptions, type RowError } from './contact.import.rows.js';
import type { FromImportWorker, ImportWorkerData, ToImportWorker, WorkerFailure } from './contact.import.worker.js';

export type { ColumnTarget, ImportOptions, RowError } from './contact.import.rows.js';

export interface ImportResult {
  rows: number;
  created: number;
  updated: number;
  skipped: number;
  duplicates: number;
  errors: RowError[];
}

/** Text this short is read on the calling thread: a worker's start would cost more than it saves. */
const INLINE_TEXT_CHARS = 256 * 1024;
/** Chunks of the file sent ahead of the worker's reading: the writes hold this thread for a batch at a time. */
const CHUNKS_AHEAD = 32;

/** The CSV import: the file is read into rows on a worker thread while this one writes them, batch by batch. */
export function createContactImportService(bulk: ContactBulk) {
  return {
    /**
     * Imports a CSV whose columns map to contact fields (given, or named by its header). Rows with
     * errors and repeats of a phone earlier in the file are skipped and reported; the rest are
     * created or updated (blank cells leave a field as it is; tags are added). `onProgress` hears
     * the rows read after each batch.
     */
    async importCsv(
      caller: Caller,
      source: string | Readable,
      options: ImportOptions,
      onProgress?: (rowsRead: number) => void,
    ): Promise<ImportResult> {
      const inline = typeof source === 'string' && source.length <= INLINE_TEXT_CHARS;
      const batches = inline ? rowBatches(source, options, BULK_BATCH) : rowBatchesOffThread(source, options);
      let created = 0;
      let step = await batches.next();
      for (; !step.done; step = await batches.next()) {
        const { rows, rowsRead } = step.value;
        created += options.dryRun
          ? await bulk.countNew(
              caller,
              rows.map((row) => row.phone),
            )
          : await bulk.upsert(caller, rows);
        onProgress?.(rowsRead);
      }
      const { rows, good, duplicates, problems } = step.value;
      return { rows, created, updated: good - created, skipped: rows - good, duplicates, errors: problems };
    },
  };
}

/** rowBatches, run on a worker thread: the file is handed over chunk by chunk, a window ahead of its reading. */
async function* rowBatchesOffThread(source: string | Readable, options: ImportOptions) {
  const data: ImportWorkerData = {
    options,
    batchSize: BULK_BATCH,
    text: typeof source === 'string' ? source : undefined,
  };
  const worker = moduleWorker(import.meta.url, 'contact.import.worker', data);
  const inbox = messagesOf(worker);
  let chunks = typeof source === 'string' ? null : source[Symbol.asyncIterator]();
  const send = (message: ToImportWorker) => worker.postMessage(message);
  let ahead = 0;
  let feeding = false;
  const feed = async () => {
    if (!chunks || feeding) return;
    feeding = true;
    try {
      while (ahead < CHUNKS_AHEAD) {
        const next = await chunks.next();
        if (next.done) {
          chunks = null;
          return send({ end: true });
        }
        ahead++;
        send({ chunk: next.value as Uint8Array });
      }
    } catch (error) {
      inbox.fail(error as Error); // the file could not be read further (gone mid-way)
    } finally {
      feeding = false;
    }
  };
  void feed();
  try {
    for (;;) {
      const message = await inbox.next();
      if ('consumed' in message) {
        ahead--;
        void feed();
      } else if ('batch' in message) {
        yield message.batch;
        send({ more: true });
      } else if ('done' in message) return message.done;
      else throw revive(message.failed);
    }
  } finally {
    await worker.terminate();
  }
}

/** The worker's messages in order, for `await`; its crash or early exit is the next one's failure. */
function messagesOf(worker: Worker) {
  const queued: FromImportWorker[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const arrive = () => {
    wake?.();
    wake = null;
  };
  const fail = (error: Error) => {
    failure ??= error;
    arrive();
  };
  worker.on('message', (message: FromImportWorker) => {
    queued.push(message);
    arrive();
  });
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('the import worker stopped before the end of the file')));
  return {
    fail,
    async next(): Promise<FromImportWorker> {
      while (queued.length === 0) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      return queued.shift()!;
    },
  };
}

function revive(failure: WorkerFailure): Error {
  if (!failure.app) return new Error(failure.message);
  const { status, code, fieldErrors, extra } = failure.app;
  return new AppError(status, code, failure.message, fieldErrors, extra);
}

export type ContactImportService = ReturnType<typeof createContactImportService>;
