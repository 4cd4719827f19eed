import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { MediaStore } from './media.store.js';

/** The folder under DATA_DIR that holds the filesystem store's files (`media/<workspace id>/<media id>`). */
export const MEDIA_FOLDER = 'media';

/** Media files under DATA_DIR/media, written beside their place and renamed into it. */
export function createFilesystemStore(dataDir: string): MediaStore {
  const fileOf = (key: string) => path.join(dataDir, MEDIA_FOLDER, ...key.split('/'));
  return {
    kind: 'filesystem',
    put: (key, bytes) => writeAtomically(fileOf(key), bytes),

    async get(key) {
      const stream = fs.createReadStream(fileOf(key));
      // Opening fails asynchronously: wait for it, so a missing file is null rather than a stream error.
      return new Promise<Readable | null>((resolve, reject) => {
        stream.once('ready', () => resolve(stream));
        stream.once('error', (error: NodeJS.ErrnoException) =>
          error.code === 'ENOENT' ? resolve(null) : reject(error),
        );
      });
    },

    delete: (key) => fs.promises.rm(fileOf(key), { force: true }),
    locate: (key) => path.posix.join(MEDIA_FOLDER, key),
    close: () => Promise.resolve(),
  };
}

/** Writes beside the target, flushes, then renames: a reader sees the whole file or none. */
export async function writeAtomically(file: string, bytes: Buffer): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomUUID()}.part`;
  try {
    const handle = await fs.promises.open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}
