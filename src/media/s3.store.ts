import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { S3StorageConfig } from '../config.js';
import type { MediaStore } from './media.store.js';

/**
 * Media files in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2) through the AWS
 * SDK v3. A PUT is atomic on S3: a reader sees the whole object or none. Any process with the same
 * bucket serves what another stored. The SDK is loaded at the first file, not at start (a tenth of a
 * second of every start otherwise, for a store most installations do not use).
 */
export function createS3Store(config: S3StorageConfig): MediaStore {
  type Sdk = typeof import('@aws-sdk/client-s3');
  let connection: Promise<{ sdk: Sdk; client: S3Client }> | null = null;
  const connect = () =>
    (connection ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        forcePathStyle: config.forcePathStyle,
        ...(config.endpoint && { endpoint: config.endpoint }),
        ...(config.credentials && { credentials: config.credentials }),
      }),
    })));
  const Bucket = config.bucket;
  const keyOf = (key: string) => `${config.prefix}${key}`;
  return {
    kind: 's3',
    async put(key, bytes, mimeType) {
      const { sdk, client } = await connect();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket,
          Key: keyOf(key),
          Body: bytes,
          ContentType: mimeType,
          ContentLength: bytes.length,
        }),
      );
    },

    async get(key) {
      const { sdk, client } = await connect();
      try {
        const { Body } = await client.send(new sdk.GetObjectCommand({ Bucket, Key: keyOf(key) }));
        return (Body as Readable | undefined) ?? null;
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },

    async delete(key) {
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },

    locate: (key) => `s3://${Bucket}/${keyOf(key)}`,
    async close() {
      if (connection) (await connection).client.destroy();
    },
  };
}
