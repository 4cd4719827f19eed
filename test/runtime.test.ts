/**
 * Parley on the Node line that runs this suite (CI runs it on Node 20 and on Node 24): the CLI
 * never aborts at exit, large bodies get their answer, and the embedded database stays private.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { SQLiteDatabase } from '../src/db/sqlite-driver.js';
import { createWorkspace } from './factories.js';
import { runCli } from './cli.js';
import { startParleyProcess } from './parley-process.js';
import { ENGINE, startServer } from './server.js';

const server = await startServer();
const NODE = `Node ${process.versions.node}`;
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

describe(`runtime on ${NODE} (${ENGINE})`, () => {
  // better-sqlite3 12 on Node ≥ 22 aborted about one CLI run in six when its statements were
  // garbage-collected at exit (SIGABRT, exit 134). Node 20 never did: CI's later line runs it (50 process
  // starts, minutes of a 2-core machine).
  const abortedOnThisLine = ENGINE === 'sqlite' && NODE_MAJOR >= 22;
  test('parley CLI › 50 runs in a row all exit 0', { skip: !abortedOnThisLine }, async () => {
    const ws = await createWorkspace(server);
    await ws.action('create-contact', { phone: '+14155550100', name: 'Ada' });
    for (let run = 1; run <= 50; run++) {
      const result = await runCli(server, 'export', '--workspace', ws.workspaceId);
      assert.equal(result.code, 0, `run ${run} exited ${result.code}: ${result.stderr}`);
      assert.match(result.stdout, /"\+14155550100"/, `run ${run} printed the export`);
    }
  });

  // A body over the limit was refused and the connection closed while the client was still sending:
  // Node's own client saw EPIPE instead of the answer, against a server in its own process.
  test('a 5 MB request body is answered 413 payload_too_large, every time', async () => {
    const ws = await createWorkspace(server);
    const parley = await startParleyProcess('server', server.env, server.app.tls!.cert);
    const body = Buffer.from(JSON.stringify({ phone: '+14155550100', blob: 'x'.repeat(5 * 1024 * 1024) }));
    for (let attempt = 1; attempt <= 5; attempt++) {
      const answer = await postWithNodeClient(`${parley.baseUrl}/api/v1/actions/create-contact`, ws.token, body);
      assert.match(answer, /^413 \{.*"code":"payload_too_large"/, `attempt ${attempt}`);
    }
  });

  // A deferred transaction that read before another connection committed could not take the write
  // lock afterwards and failed at once with "database is locked" instead of waiting for it.
  test(
    'the CLI writes while another connection writes: webhook create succeeds every time',
    { skip: ENGINE !== 'sqlite' },
    async () => {
      const ws = await createWorkspace(server);
      const writer = busyWriter(path.join(server.config.dataDir, 'parley.db'), ws.workspaceId);
      try {
        for (let run = 1; run <= 5; run++) {
          const created = await runCli(
            server,
            ...['webhook', 'create', '--workspace', ws.workspaceId, '--url', `https://hooks.example.com/${run}`],
            ...['--events', 'new-campaign-sent'],
          );
          assert.equal(created.code, 0, `run ${run}: ${created.stderr}`);
        }
      } finally {
        await writer.stop();
      }
    },
  );

  test(
    'the SQLite database and its -wal and -shm files are readable by their owner only',
    { skip: ENGINE !== 'sqlite' },
    async () => {
      const ws = await createWorkspace(server);
      await ws.action('create-contact', { phone: '+14155550101' });
      const file = path.join(server.config.dataDir, 'parley.db');
      for (const name of [file, `${file}-wal`, `${file}-shm`]) {
        assert.equal(fs.statSync(name).mode & 0o777, 0o600, `${path.basename(name)} is 0600`);
      }
    },
  );
});

/** POSTs with node:https (which writes the whole body before reading) and returns "status body" or the socket error. */
function postWithNodeClient(url: string, token: string, body: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': body.length,
    };
    const call = https.request(url, { method: 'POST', ca: server.app.tls!.cert, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve(`${response.statusCode} ${text}`));
    });
    call.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
    call.end(body);
  });
}

/**
 * Another writer of the SQLite file, as a busy server is: write transactions that hold the lock for
 * 10 ms, back to back, on a connection of their own.
 */
function busyWriter(file: string, workspaceId: string): { stop(): Promise<void> } {
  const database = new SQLiteDatabase(file);
  database.pragma('busy_timeout = 5000');
  const touch = database.prepare('UPDATE workspaces SET name = name WHERE id = ?');
  let writing = true;
  const loop = (async () => {
    while (writing) {
      database.exec('BEGIN IMMEDIATE');
      touch.run(workspaceId);
      await setTimeout(10);
      database.exec('COMMIT');
      await setTimeout(1);
    }
  })();
  return {
    async stop() {
      writing = false;
      await loop;
      database.close();
    },
  };
}
