import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { S3StorageConfig } from '../config.js';
import type { MediaStore } from './media.store.js';

/**
 * Media files in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2) through the AWS
 * SDK v3. A PUT is atomic on S3: a reader sees the whole object or none. Any process with the same
 * bucket serves what another stored.
 */
export function createS3Store(config: S3StorageConfig): MediaStore {
  const client = new S3Client({
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    ...(config.endpoint && { endpoint: config.endpoint }),
    ...(config.credentials && { credentials: config.credentials }),
  });
  const Bucket = config.bucket;
  const keyOf = (key: string) => `${config.prefix}${key}`;
  return {
    kind: 's3',
    async put(key, bytes, mimeType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: keyOf(key),
          Body: bytes,
          ContentType: mimeType,
          ContentLength: bytes.length,
        }),
      );
    },

    async get(key) {
      try {
        const { Body } = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(key) }));
        return (Body as Readable | undefined) ?? null;
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },

    locate: (key) => `s3://${Bucket}/${keyOf(key)}`,
    close: () => Promise.resolve(client.destroy()),
  };
}
