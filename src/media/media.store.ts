import type { Readable } from 'node:stream';
import type { MediaStorageConfig } from '../config.js';
import { createFilesystemStore } from './filesystem.store.js';
import { createS3Store } from './s3.store.js';

/**
 * Where media files are kept: the filesystem under DATA_DIR/media or an S3-compatible bucket. A
 * key is `<workspace id>/<media id>`; what a store holds is listed in `media_files` (media-file.repository.ts).
 */
export interface MediaStore {
  readonly kind: MediaStorageConfig['kind'];
  /** Writes the whole file or nothing: a reader never sees part of one. */
  put(key: string, bytes: Buffer, mimeType: string): Promise<void>;
  /** The file as a stream, or null when the store does not have it. */
  get(key: string): Promise<Readable | null>;
  /** Removes the file; a file that is not there is no error. */
  delete(key: string): Promise<void>;
  /** Where the file is, for an operator: `media/<key>` under DATA_DIR, or `s3://<bucket>/<prefix><key>`. */
  locate(key: string): string;
  close(): Promise<void>;
}

/** The store a media file of a workspace is kept under. */
export const mediaKey = (workspaceId: string, mediaId: string): string => `${workspaceId}/${mediaId}`;

/** The configured store (MEDIA_STORAGE). */
export function createMediaStore(config: MediaStorageConfig, dataDir: string): MediaStore {
  return config.kind === 's3' ? createS3Store(config) : createFilesystemStore(dataDir);
}
