import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../shared/errors.js';
import { rowBatches, type ImportOptions, type ReadSummary, type RowBatch } from './contact.import.rows.js';

/*
 * A worker thread that reads an import file into rows while the importing thread writes the previous
 * batch. The importer sends the file a window of chunks ahead (it cannot answer while it writes), and
 * the worker reads at most AHEAD batches ahead of the writes, so memory stays flat however large the file.
 */

export interface ImportWorkerData {
  options: ImportOptions;
  batchSize: number;
  /** The whole file, when the importer has it as text; else the worker asks for it chunk by chunk. */
  text: string | undefined;
}

/** A refusal, as the importer rebuilds it (an AppError keeps its status, code and fields). */
export interface WorkerFailure {
  message: string;
  app?: Pick<AppError, 'status' | 'code' | 'fieldErrors' | 'extra'>;
}

/** From the importer: the file's next chunk, its end, or room for one more batch. */
export type ToImportWorker = { chunk: Uint8Array } | { end: true } | { more: true };
/** To the importer: a chunk read (room for another), a batch of rows, the summary at the end, or a refusal. */
export type FromImportWorker =
  { consumed: true } | { batch: RowBatch } | { done: ReadSummary } | { failed: WorkerFailure };

const AHEAD = 2;

const port = parentPort!;
const { options, batchSize, text } = workerData as ImportWorkerData;
const post = (message: FromImportWorker) => port.postMessage(message);

let room = AHEAD;
let roomMade: (() => void) | null = null;
/** The chunks received and not yet read; null is the end of the file. */
const received: (Uint8Array | null)[] = [];
let chunkArrived: (() => void) | null = null;
port.on('message', (message: ToImportWorker) => {
  if ('more' in message) {
    room++;
    roomMade?.();
    return;
  }
  received.push('chunk' in message ? message.chunk : null);
  chunkArrived?.();
});

/** The file as the importer sends it, each chunk acknowledged once the reader has taken it. */
async function* fileFromImporter(): AsyncGenerator<Uint8Array> {
  for (;;) {
    while (received.length === 0) await new Promise<void>((resolve) => (chunkArrived = resolve));
    const chunk = received.shift()!;
    if (chunk === null) return;
    yield chunk;
    post({ consumed: true });
  }
}

async function read(): Promise<void> {
  const batches = rowBatches(text ?? Readable.from(fileFromImporter()), options, batchSize);
  for (let step = await batches.next(); ; step = await batches.next()) {
    if (step.done) return post({ done: step.value });
    if (room === 0) await new Promise<void>((resolve) => (roomMade = resolve));
    room--;
    post({ batch: step.value });
  }
}

read()
  .catch((error: unknown) => {
    const failure: WorkerFailure = { message: (error as Error).message };
    if (error instanceof AppError) {
      const { status, code, fieldErrors, extra } = error;
      failure.app = { status, code, fieldErrors, extra };
    }
    post({ failed: failure });
  })
  .finally(() => port.close());
