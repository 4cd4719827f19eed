/**
 * Two Parley processes (`src/main.ts`, each with a DATA_DIR of its own) on one PostgreSQL database and
 * one S3-compatible bucket: a file one process downloaded in the background is served by the other,
 * after Meta has forgotten it. Nothing about the file lives in a process's memory or disk.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { logInOverHttp } from './dashboard-session.js';
import { asClient } from './factories.js';
import { dashboardBytes, downloadMedia, imageArrives, mediaStorageOf, newMediaId } from './media-bed.js';
import { startObjectStore } from './object-store.js';
import { startParleyProcess } from './parley-process.js';
import { ENGINE } from './server.js';
import { startWhatsappServer } from './whatsapp.js';

/** Polls get-message until the background job settled the file; a hang fails after `timeout`. */
async function settled(check: () => Promise<string | undefined>): Promise<string | undefined> {
  for (;;) {
    const state = await check();
    if (state !== 'pending') return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe(
  `media across two processes on one database and one bucket (${ENGINE})`,
  { skip: ENGINE !== 'postgres' },
  () => {
    test(
      'one process downloads a received image, the other serves it after Meta forgot it',
      { timeout: 180_000 },
      async () => {
        const objectStore = await startObjectStore();
        const bed = await startWhatsappServer({ env: objectStore.env });
        const { graph, server } = bed;
        const certificate = server.app.tls!.cert;
        const credentials = { email: `owner-${newMediaId()}@example.com`, password: 'correct horse battery' };
        const { workspace, user } = await server.app.services.workspaces.setup({ name: 'Shop', ...credentials });
        const issued = await server.app.services.tokens.create({
          workspaceId: workspace.id,
          userId: user.id,
          name: 'api',
        });
        const { phoneNumberId } = await bed.connect(workspace.id);
        const ids = { workspaceId: workspace.id, userId: user.id, token: issued.token, tokenId: issued.id };
        // The channel's token is sealed with DATA_DIR/secret.key: the processes get the same key.
        // Own DATA_DIRs with the same certificate: what one process wrote to disk the other cannot see.
        const dataDir = () => {
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-media-process-'));
          fs.cpSync(path.join(server.config.dataDir, 'tls'), path.join(dir, 'tls'), { recursive: true });
          fs.cpSync(path.join(server.config.dataDir, 'secret.key'), path.join(dir, 'secret.key'));
          return dir;
        };
        const dataDirs = [dataDir(), dataDir()];
        const [a, b] = await Promise.all(
          dataDirs.map((dir, i) =>
            startParleyProcess(`process ${'AB'[i]}`, { ...server.env, DATA_DIR: dir }, certificate),
          ),
        );
        const [apiA, apiB] = [asClient(a!.http, ids), asClient(b!.http, ids)];

        const mediaId = newMediaId();
        const bytes = randomBytes(150 * 1024);
        graph.setMedia(mediaId, { bytes, mime_type: 'image/jpeg' });
        // The webhook is taken by the test's server (its scheduler stopped): A's or B's scheduler downloads the file.
        const messageId = await imageArrives({ ...bed, server }, { phoneNumberId, api: apiA }, mediaId, bytes);
        assert.equal(await settled(async () => (await mediaStorageOf(apiA, messageId))?.state), 'stored');

        graph.forgetMedia(mediaId);
        const before = graph.requests.length;
        // Whichever process downloaded it, the other one serves it from the bucket.
        for (const [process, api] of [
          [a!, apiA],
          [b!, apiB],
        ] as const) {
          const served = await downloadMedia(api, messageId);
          assert.equal(served.status, 200, `${process.name}: ${served.text}`);
          assert.equal(served.body.sha256, createHash('sha256').update(bytes).digest('hex'));
          const owner = await logInOverHttp(process, credentials);
          assert.deepEqual(await dashboardBytes(owner, messageId), bytes, process.name);
        }
        assert.equal(graph.requests.length, before, 'neither process asked Meta again');
        for (const dir of dataDirs) assert.equal(fs.existsSync(path.join(dir, 'media')), false, 'no file on a disk');
      },
    );
  },
);
