import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../config.js';

test('MEDIA_STORAGE › filesystem by default; s3 takes its settings from S3_*', () => {
  assert.deepEqual(loadConfig({}).mediaStorage, { kind: 'filesystem' });
  const config = loadConfig({
    MEDIA_STORAGE: 's3',
    S3_ENDPOINT: 'http://127.0.0.1:9000/',
    S3_REGION: 'auto',
    S3_BUCKET: 'media',
    S3_PREFIX: '/parley/',
    S3_ACCESS_KEY_ID: 'key',
    S3_SECRET_ACCESS_KEY: 'secret',
    S3_FORCE_PATH_STYLE: 'true',
  });
  assert.deepEqual(config.mediaStorage, {
    kind: 's3',
    endpoint: 'http://127.0.0.1:9000',
    region: 'auto',
    bucket: 'media',
    prefix: 'parley/',
    credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    forcePathStyle: true,
  });
  const chain = loadConfig({ MEDIA_STORAGE: 's3', S3_REGION: 'eu-west-1', S3_BUCKET: 'media' }).mediaStorage;
  assert.equal(chain.kind === 's3' && chain.credentials, null, "no keys: the SDK's default chain");
});

test('MEDIA_STORAGE › every problem is reported at once, and no secret is repeated', () => {
  const env = {
    MEDIA_STORAGE: 's3',
    S3_ENDPOINT: 'minio:9000',
    S3_SECRET_ACCESS_KEY: 'do-not-print-me',
    S3_FORCE_PATH_STYLE: 'yes',
  };
  assert.throws(
    () => loadConfig(env),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(error.problems.length, 5, error.message);
      for (const name of ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_FORCE_PATH_STYLE']) {
        assert.match(error.message, new RegExp(name));
      }
      assert.doesNotMatch(error.message, /do-not-print-me/);
      return true;
    },
  );
  assert.throws(() => loadConfig({ MEDIA_STORAGE: 'disk' }), /MEDIA_STORAGE must be filesystem or s3/);
});
