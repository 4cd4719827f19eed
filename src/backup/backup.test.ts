/**
 * `parley backup` and `parley restore` with real processes: a server under write load, the CLI
 * taking a backup meanwhile, the CLI restoring it into a new DATA_DIR (or database), and a
 * second server process started on the restored copy.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { runCli, stderrLines } from '../../test/cli.js';
import { createWorkspace, recordInboundMessage, type TestWorkspace } from '../../test/factories.js';
import { startParleyProcess } from '../../test/parley-process.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { Contact } from '../contacts/contact.schema.js';
import type { Message } from '../messages/message.schema.js';

const server = await startServer();
const certificate = server.app.tls!.cert;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-backup-test-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Senders writing at once: the load the backup is taken under. */
const WRITERS = 4;

/** Sends text messages through the API until stopped; `acknowledged` lists each answered 200, in order. */
function writeLoad(ws: TestWorkspace, phone: string) {
  const acknowledged: string[] = [];
  let writing = true;
  const writer = async () => {
    while (writing) {
      const sent = await ws.action<Message>('send-text-message', { phone, message: `#${acknowledged.length}` });
      assert.equal(sent.status, 200, sent.text);
      acknowledged.push(sent.body.id);
    }
  };
  const writers = Promise.all(Array.from({ length: WRITERS }, writer));
  return {
    acknowledged,
    async stop() {
      writing = false;
      await writers;
    },
  };
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

let databases = 0;

/** A new, empty database on the test PostgreSQL server, dropped after the file. */
async function newPostgresDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: process.env.PARLEY_TEST_DATABASE_URL });
  await admin.connect();
  const name = `parley_restore_${process.pid}_${++databases}`;
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  after(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });
  const url = new URL(process.env.PARLEY_TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * As docs/deployment.md "Backups" says: restores FILE into a new DATA_DIR (or empty database) holding
 * the same encryption key, and starts a server on it with the original's certificate.
 */
async function restoreAndStart(file: string, name: string) {
  const dataDir = fs.mkdtempSync(path.join(scratch, 'restored-'));
  const keyFile = path.join(server.config.dataDir, 'secret.key');
  if (fs.existsSync(keyFile)) fs.copyFileSync(keyFile, path.join(dataDir, 'secret.key'));
  const env = {
    ...server.env,
    DATA_DIR: dataDir,
    ...(ENGINE === 'postgres' && { DATABASE_URL: await newPostgresDatabase() }),
  };
  const restored = await runCli({ ...server, env }, 'restore', file);
  assert.equal(restored.code, 0, restored.stderr);
  const tls = path.join(server.config.dataDir, 'tls');
  const copy = await startParleyProcess(
    name,
    { ...env, TLS_CERT_FILE: path.join(tls, 'cert.pem'), TLS_KEY_FILE: path.join(tls, 'key.pem') },
    certificate,
  );
  return { copy, dataDir };
}

describe('parley backup / restore', () => {
  test('a backup taken while messages are being sent restores every message acknowledged before it began', async () => {
    const ws = await createWorkspace(server, { rateLimitPerMinute: 100_000 });
    const phone = '+14155550177';
    const contact = await ws.action<Contact>('create-contact', { phone });
    await recordInboundMessage(server, ws.workspaceId, contact.body.id);
    const load = writeLoad(ws, phone);
    await waitFor(() => load.acknowledged.length >= 20);

    const file = path.join(scratch, 'under-load.backup');
    const before = [...load.acknowledged];
    const backup = await runCli(server, 'backup', file);
    const during = load.acknowledged.length - before.length;
    await load.stop();
    assert.equal(backup.code, 0, backup.stderr);
    assert.ok(during > 0, 'the server kept acknowledging sends while the backup ran');
    assert.equal((JSON.parse(backup.stdout) as { engine: string }).engine, ENGINE);

    const { copy } = await restoreAndStart(file, 'restored');
    for (const id of before) {
      const found = await copy.http.send<Message>('POST', '/api/v1/actions/get-message', {
        token: ws.token,
        body: { message_id: id },
      });
      assert.equal(found.status, 200, `message ${id}, acknowledged before the backup: ${found.text}`);
      assert.equal(found.body.contact_phone, phone);
    }
  });

  test('the filesystem store’s media files are copied to FILE.media/ and restored with the database', async () => {
    const ws = await createWorkspace(server);
    const phone = '+14155550178';
    const contact = await ws.action<Contact>('create-contact', { phone });
    await recordInboundMessage(server, ws.workspaceId, contact.body.id);
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(5000), Buffer.from('\n%%EOF\n')]); // a PDF by its signature
    const uploaded = await ws.action<{ media_id: string }>('upload-media', {
      data: bytes.toString('base64'),
      mime_type: 'application/pdf',
    });
    assert.equal(uploaded.status, 200, uploaded.text);
    const sent = await ws.action<Message>('send-media-message', {
      phone,
      type: 'document',
      media_id: uploaded.body.media_id,
    });
    assert.equal(sent.status, 200, sent.text);

    const file = path.join(scratch, 'with-media.backup');
    const backup = await runCli(server, 'backup', file);
    assert.equal(backup.code, 0, backup.stderr);
    const media = (JSON.parse(backup.stdout) as { media: { folder: string; files: number } }).media;
    assert.equal(media.folder, `${file}.media`);
    assert.ok(media.files >= 1);

    const { copy, dataDir } = await restoreAndStart(file, 'restored with media');
    const served = await copy.http.send<{ sha256: string; path: string }>('POST', '/api/v1/actions/download-media', {
      token: ws.token,
      body: { message_id: sent.body.id },
    });
    assert.equal(served.status, 200, served.text);
    assert.equal(served.body.sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.deepEqual(fs.readFileSync(path.join(dataDir, served.body.path)), bytes);
  });

  test('backup refuses to overwrite a file; restore refuses a DATA_DIR or database already in use', async () => {
    const existing = path.join(scratch, 'existing.backup');
    fs.writeFileSync(existing, 'keep me');
    const overwrite = await runCli(server, 'backup', existing);
    assert.equal(overwrite.code, 1);
    assert.match(stderrLines(overwrite)[0]!, /already exists/);
    assert.equal(fs.readFileSync(existing, 'utf8'), 'keep me');

    const file = path.join(scratch, 'second.backup');
    assert.equal((await runCli(server, 'backup', file)).code, 0);
    const inUse = await runCli(server, 'restore', file);
    assert.equal(inUse.code, 1);
    assert.match(stderrLines(inUse)[0]!, /already holds a (Parley )?database/);
  });

  test('restore refuses a file that is not a Parley backup, naming it', async () => {
    const notABackup = path.join(scratch, 'notes.txt');
    fs.writeFileSync(notABackup, 'not a database');
    const env = {
      ...server.env,
      DATA_DIR: fs.mkdtempSync(path.join(scratch, 'empty-')),
      ...(ENGINE === 'postgres' && { DATABASE_URL: await newPostgresDatabase() }),
    };
    const refused = await runCli({ ...server, env }, 'restore', notABackup);
    assert.equal(refused.code, 1);
    assert.match(stderrLines(refused)[0]!, /notes\.txt/);
  });
});
