/** A real S3-protocol server on loopback (s3rver over a temporary folder) for the S3 media store's tests. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import S3rver from 's3rver';

export interface ObjectStore {
  endpoint: string;
  bucket: string;
  /** The environment that points Parley's media store at this server (MEDIA_STORAGE=s3). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts s3rver on 127.0.0.1 (a random port) with one empty bucket; closed after the calling file's tests. */
export async function startObjectStore(prefix = 'parley-media'): Promise<ObjectStore> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-s3-'));
  const bucket = 'parley-test';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.close();
    fs.rmSync(directory, { recursive: true, force: true });
  };
  after(close);
  return {
    endpoint,
    bucket,
    env: {
      MEDIA_STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_PREFIX: prefix,
      // s3rver's fixed credentials
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    close,
  };
}
