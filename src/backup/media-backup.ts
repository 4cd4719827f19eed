import fs from 'node:fs';
import path from 'node:path';
import type { MediaStorageConfig } from '../config.js';
import { MEDIA_FOLDER } from '../media/filesystem.store.js';
import { errors } from '../shared/errors.js';

/** What a backup or restore copied of the media store. */
export interface MediaCopied {
  /** The folder beside the backup file: `FILE.media/` (absent with an object store). */
  folder: string | null;
  files: number;
  bytes: number;
  /** Why nothing was copied (an object store is backed up as a bucket). */
  note?: string;
}

/** The media files of the backup FILE live in this folder beside it, in the store's own layout. */
export const mediaFolderOf = (file: string): string => `${path.resolve(file)}.media`;

const OBJECT_STORE_NOTE = 'media are in the S3 bucket: back it up as a bucket (docs/deployment.md, "Object storage")';

/**
 * Copies the filesystem store (DATA_DIR/media) into `FILE.media/`, after the database copy: every
 * file the copied database records was stored before its record committed, so it is there.
 */
export async function backupMedia(storage: MediaStorageConfig, dataDir: string, file: string): Promise<MediaCopied> {
  if (storage.kind === 's3') return { folder: null, files: 0, bytes: 0, note: OBJECT_STORE_NOTE };
  const folder = mediaFolderOf(file);
  const source = path.join(dataDir, MEDIA_FOLDER);
  if (!fs.existsSync(source)) return { folder: null, files: 0, bytes: 0 };
  // A file still being written (`*.part`) is not recorded anywhere yet: it is left out.
  await fs.promises.cp(source, folder, { recursive: true, filter: (from) => !from.endsWith('.part') });
  return { folder, ...(await sizeOf(folder)) };
}

/** Refuses, before anything is copied, a backup FILE whose media folder exists already. */
export function refuseExistingMediaFolder(file: string): void {
  const folder = mediaFolderOf(file);
  if (fs.existsSync(folder)) throw errors.validation(folder, 'already exists; name a new backup file');
}

/** Puts `FILE.media/` back as DATA_DIR/media (a restore goes into a new DATA_DIR: nothing is overwritten). */
export async function restoreMedia(storage: MediaStorageConfig, file: string, dataDir: string): Promise<MediaCopied> {
  const folder = mediaFolderOf(file);
  if (!fs.existsSync(folder)) return { folder: null, files: 0, bytes: 0 };
  if (storage.kind === 's3') return { folder: null, files: 0, bytes: 0, note: OBJECT_STORE_NOTE };
  await fs.promises.cp(folder, path.join(dataDir, MEDIA_FOLDER), { recursive: true, errorOnExist: true, force: false });
  return { folder, ...(await sizeOf(folder)) };
}

async function sizeOf(folder: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const entry of await fs.promises.readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += (await fs.promises.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return { files, bytes };
}
