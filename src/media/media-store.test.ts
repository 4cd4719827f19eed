/**
 * Every file a customer sends is kept: received media is downloaded in the background as it
 * arrives, checked against Meta's SHA-256, and served from the media store after Meta has forgotten
 * it, on the filesystem store and on an S3-compatible one (s3rver, a real S3-protocol server).
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  dashboardBytes,
  downloadMedia,
  imageArrives,
  mediaShop,
  mediaStorageOf,
  newMediaId,
} from '../../test/media-bed.js';
import { startObjectStore } from '../../test/object-store.js';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import { DOWNLOAD_RETRY_DELAYS_MS } from '../messages/media-download.js';

interface WorkspaceSettings {
  media_retention_days: number | null;
  media_storage: { store: string; bytes: number; files: number };
}

const objectStore = await startObjectStore();
const METRICS_TOKEN = 'metrics-token-0123456789';
const beds = {
  filesystem: await startWhatsappServer({ env: { METRICS_TOKEN } }),
  s3: await startWhatsappServer({ env: { ...objectStore.env, METRICS_TOKEN } }),
};
const s3 = new S3Client({
  endpoint: objectStore.endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
});

/** The object the S3 store keeps for a workspace's media id. */
async function objectBytes(workspaceId: string, mediaId: string): Promise<Buffer> {
  const key = `${objectStore.env.S3_PREFIX}/${workspaceId}/${mediaId}`;
  const object = await s3.send(new GetObjectCommand({ Bucket: objectStore.bucket, Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}

for (const [store, bed] of Object.entries(beds)) {
  const { graph, server } = bed;
  const mediaDir = (workspaceId: string) => path.join(server.config.dataDir, 'media', workspaceId);

  describe(`received media on the ${store} store (${ENGINE})`, () => {
    test('an image is stored in the background and still served, byte for byte, after Meta forgot it', async () => {
      const shop = await mediaShop(bed);
      const mediaId = newMediaId();
      const bytes = randomBytes(200 * 1024);
      graph.setMedia(mediaId, { bytes, mime_type: 'image/jpeg' });
      const messageId = await imageArrives(bed, shop, mediaId, bytes);
      assert.deepEqual(await mediaStorageOf(shop.api, messageId), { state: 'pending', error: null });

      await server.app.services.scheduler.runDue();
      assert.deepEqual(await mediaStorageOf(shop.api, messageId), { state: 'stored', error: null });
      if (store === 's3') {
        assert.deepEqual(await objectBytes(shop.owner.workspaceId, mediaId), bytes);
        assert.equal(fs.existsSync(mediaDir(shop.owner.workspaceId)), false, 'nothing is written under DATA_DIR');
      } else {
        assert.deepEqual(fs.readFileSync(path.join(mediaDir(shop.owner.workspaceId), mediaId)), bytes);
      }

      graph.forgetMedia(mediaId); // Meta deletes media after 30 days
      const before = graph.requests.length;
      const downloaded = await downloadMedia(shop.api, messageId);
      assert.equal(downloaded.status, 200, downloaded.text);
      assert.equal(downloaded.body.sha256, createHash('sha256').update(bytes).digest('hex'));
      assert.equal(downloaded.body.size, bytes.length);
      assert.equal(downloaded.body.mime_type, 'image/jpeg');
      const where = `${shop.owner.workspaceId}/${mediaId}`;
      const expectedPath =
        store === 's3' ? `s3://${objectStore.bucket}/${objectStore.env.S3_PREFIX}/${where}` : `media/${where}`;
      assert.equal(downloaded.body.path, expectedPath);
      assert.deepEqual(await dashboardBytes(shop.owner, messageId), bytes);
      assert.equal(graph.requests.length, before, 'served without asking Meta');
    });

    test('a file that does not match Meta’s SHA-256 is not stored, retried, then failed with the reason', async () => {
      const shop = await mediaShop(bed);
      const mediaId = newMediaId();
      const bytes = randomBytes(4096);
      const wrong = createHash('sha256').update('something else').digest('hex');
      graph.setMedia(mediaId, { bytes, mime_type: 'image/jpeg', sha256: wrong });
      const messageId = await imageArrives(bed, shop, mediaId, bytes);

      const asked = () => graph.requests.filter((r) => r.path === `/v23.0/${mediaId}`).length;
      await server.app.services.scheduler.runDue();
      const retrying = await mediaStorageOf(shop.api, messageId);
      assert.equal(retrying?.state, 'pending');
      assert.match(retrying?.error ?? '', /does not match the sha256 Meta reported/);
      for (const delay of DOWNLOAD_RETRY_DELAYS_MS) {
        server.clock.advance(delay);
        await server.app.services.scheduler.runDue();
      }
      assert.equal(asked(), DOWNLOAD_RETRY_DELAYS_MS.length + 1, 'each try asked Meta for a fresh URL');
      const failed = await mediaStorageOf(shop.api, messageId);
      assert.equal(failed?.state, 'failed');
      assert.match(failed?.error ?? '', /does not match the sha256 Meta reported/);
      if (store === 'filesystem') assert.equal(fs.existsSync(mediaDir(shop.owner.workspaceId)), false);
      const refused = await downloadMedia(shop.api, messageId);
      assert.equal(refused.status, 409, refused.text);
    });

    test('retention deletes files older than the workspace keeps them; the message stays, its file expired', async () => {
      const shop = await mediaShop(bed);
      const mediaId = newMediaId();
      const bytes = randomBytes(3000);
      graph.setMedia(mediaId, { bytes, mime_type: 'image/jpeg' });
      const messageId = await imageArrives(bed, shop, mediaId, bytes);
      await server.app.services.scheduler.runDue();
      const usage = await shop.owner.send<WorkspaceSettings>('GET', '/api/dashboard/workspace');
      assert.deepEqual(usage.body.media_storage, { store, bytes: bytes.length, files: 1 });
      assert.equal(usage.body.media_retention_days, null, 'kept forever by default');

      const kept = await shop.owner.send<WorkspaceSettings>('PUT', '/api/dashboard/workspace', {
        media_retention_days: 1,
      });
      assert.equal(kept.status, 200, kept.text);
      assert.equal(kept.body.media_retention_days, 1);
      await server.app.services.scheduler.runDue();
      assert.equal((await mediaStorageOf(shop.api, messageId))?.state, 'stored', 'a day old at most: kept');

      server.clock.advance(86_400_000 + 1000);
      await server.app.services.scheduler.runDue();
      assert.deepEqual(await mediaStorageOf(shop.api, messageId), { state: 'expired', error: null });
      const refused = await downloadMedia(shop.api, messageId);
      assert.equal(refused.status, 409, refused.text);
      assert.match(refused.body.detail, /retention/);
      const after = await shop.owner.send<WorkspaceSettings>('GET', '/api/dashboard/workspace');
      assert.deepEqual(after.body.media_storage, { store, bytes: 0, files: 0 });
      if (store === 'filesystem')
        assert.equal(fs.existsSync(path.join(mediaDir(shop.owner.workspaceId), mediaId)), false);
      else await assert.rejects(objectBytes(shop.owner.workspaceId, mediaId), { name: 'NoSuchKey' });

      const invalid = await shop.owner.send('PUT', '/api/dashboard/workspace', { media_retention_days: 0 });
      assert.equal(invalid.status, 400, invalid.text);
    });

    test('/metrics: stored media bytes and files, and downloads by outcome', async () => {
      const response = await server.http.send('GET', '/metrics', { token: METRICS_TOKEN });
      assert.equal(response.status, 200, response.text);
      assert.match(response.text, /^parley_media_stored_bytes \d+$/m);
      assert.match(response.text, /^parley_media_stored_files [1-9]\d*$/m);
      assert.match(response.text, /^parley_media_downloads_total\{outcome="stored"\} [1-9]\d*$/m);
      assert.match(response.text, /^parley_media_downloads_total\{outcome="failed"\} 1$/m);
    });

    test('a file the team uploads is kept in the same store', async () => {
      const shop = await mediaShop(bed);
      // A real PDF's signature (upload-media checks it), with a random body to compare byte for byte.
      const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2048), Buffer.from('\n%%EOF\n')]);
      const uploaded = await shop.api.action<{ media_id: string }>('upload-media', {
        data: bytes.toString('base64'),
        mime_type: 'application/pdf',
        filename: 'invoice.pdf',
      });
      assert.equal(uploaded.status, 200, uploaded.text);
      const { media_id: mediaId } = uploaded.body;
      const kept =
        store === 's3'
          ? await objectBytes(shop.owner.workspaceId, mediaId)
          : fs.readFileSync(path.join(mediaDir(shop.owner.workspaceId), mediaId));
      assert.deepEqual(kept, bytes);
    });
  });
}
