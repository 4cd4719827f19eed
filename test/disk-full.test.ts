/**
 * A full disk, produced for real: the log written to /dev/full (every write fails with ENOSPC), and
 * DATA_DIR on a small tmpfs filled to the last byte (SQLite's own SQLITE_FULL). What an operator relies
 * on: the process stays up, a refused write answers 507 storage_full and leaves nothing half-written,
 * reads go on, and writes work again once there is room.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import { Agent } from 'undici';
import { REPO_ROOT } from './cli.js';
import { freePort } from './host-tools.js';
import { createWorkspace, type TestWorkspace } from './factories.js';
import { ENGINE, httpClient, startServer, type HttpClient } from './server.js';

const DEADLINE_MS = 60_000;

/** Asks until `probe` answers truthy; fails at the deadline (a bound on waiting, not a timing under test). */
async function until<T>(what: string, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const answer = await probe().catch(() => null);
    if (answer) return answer;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** A contact write of about 200 KB (metadata), so a filled disk shows within a few writes. */
const bulkyContact = (i: number) => ({
  phone: `+1415${5_000_000 + i}`,
  name: `Customer ${i}`,
  metadata: Object.fromEntries(Array.from({ length: 50 }, (_, k) => [`note_${k}`, 'x'.repeat(4000)])),
});

/** Mounts a tmpfs of `megabytes` (root only); null where mounting is not allowed. */
function smallDisk(megabytes: number): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    fs.rmdirSync(dir);
    return null;
  }
}

/** Writes `filler` until the disk refuses (ENOSPC): nothing is left for anyone. */
function fill(filler: string): void {
  const fd = fs.openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    fs.closeSync(fd);
  }
}

describe(`a full disk (${ENGINE})`, () => {
  test('the log on a full disk (/dev/full): the process keeps serving, and stops cleanly on SIGTERM', async () => {
    const server = await startServer();
    const ws = await createWorkspace(server, { rateLimitPerMinute: 100_000 });
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: REPO_ROOT,
      env: { ...server.env, PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', fs.openSync('/dev/full', 'w'), 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    after(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const agent = new Agent({ connect: { ca: server.app.tls!.cert } });
    after(() => agent.close());
    const http: HttpClient = httpClient(`https://127.0.0.1:${port}`, agent);

    await until('the process to serve', async () => (await http.send('GET', '/healthz')).status === 200);
    // Every request writes a log line; each one fails.
    for (let i = 0; i < 200; i++) {
      const me = await http.send('GET', '/api/v1/me', { token: ws.token });
      assert.equal(me.status, 200, me.text);
    }
    const created = await http.send('POST', '/api/v1/actions/create-contact', {
      token: ws.token,
      body: { phone: '+14155550177' },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal((await http.send('GET', '/healthz')).status, 200);
    assert.equal(child.exitCode, null, `the process is still running${stderr}`);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, `SIGTERM ends it cleanly${stderr}`);
  });

  const disk = ENGINE === 'sqlite' ? smallDisk(24) : null;
  const skip =
    ENGINE !== 'sqlite'
      ? "SQLite's file is under DATA_DIR; PostgreSQL's 53100 disk_full maps to the same answer"
      : disk === null && 'mounting a tmpfs needs root (CI runs as root)';
  test(
    'SQLite on a full disk: a write answers 507 storage_full, nothing half-written, reads go on',
    { skip },
    async () => {
      after(() => execFileSync('umount', ['-l', disk!]));
      const server = await startServer({ DATA_DIR: disk! });
      const ws: TestWorkspace = await createWorkspace(server);
      const before = await ws.action<{ id: string }>('create-contact', bulkyContact(0));
      assert.equal(before.status, 201);
      const filler = path.join(disk!, 'filler');
      fill(filler);

      let refused: { status: number; body: { code?: string; detail?: string }; phone: string } | null = null;
      for (let i = 1; i <= 200 && !refused; i++) {
        const contact = bulkyContact(i);
        const answer = await ws.action<{ code?: string; detail?: string }>('create-contact', contact);
        if (answer.status !== 201) refused = { ...answer, phone: contact.phone };
      }
      assert.ok(refused, 'a write was refused once the disk was full');
      assert.equal(refused.status, 507, `${refused.body.code}: ${refused.body.detail}`);
      assert.equal(refused.body.code, 'storage_full');
      assert.match(refused.body.detail ?? '', /disk is full/);
      const missing = await ws.action('get-contact', { phone: refused.phone });
      assert.equal(missing.status, 404, 'the refused contact was not half-written');
      const read = await ws.action<{ id: string }>('get-contact', { contact_id: before.body.id });
      assert.equal(read.status, 200);
      assert.equal((await ws.get('/v1/me')).status, 200);

      fs.rmSync(filler);
      const afterwards = await ws.action('create-contact', { phone: `+1415${6_000_000}`, name: randomUUID() });
      assert.equal(afterwards.status, 201, afterwards.text);
    },
  );
});
