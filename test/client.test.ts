import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { Agent } from 'undici';
import {
  createParleyClient,
  fileStore,
  memoryStore,
  ParleyApiError,
  poll,
  type ParleyClient,
  type Sleep,
} from '@parley/client';
import { CLIENT_SCHEMA_FILE, renderClientSchema } from '../scripts/generate-client.js';
import type { ManualClock } from '../src/shared/clock.js';
import { REPO_ROOT } from './cli.js';
import { createTemplate, createWorkspace, recordInboundMessage, type TestWorkspace } from './factories.js';
import { ENGINE, startServer } from './server.js';

const server = await startServer();
const agent = new Agent({ connect: { ca: server.app.tls?.cert ?? '' } });
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-client-'));
after(async () => {
  await agent.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** The global fetch, trusting the test server's self-signed certificate. */
const trustingFetch = (request: Request) => fetch(request, { dispatcher: agent } as RequestInit);

function clientOf(ws: TestWorkspace, fetch = trustingFetch): ParleyClient {
  return createParleyClient({ baseUrl: server.baseUrl, token: ws.token, fetch });
}

const EXAMPLE = 'packages/client/examples/answer-with-template.ts';

/** A workspace whose token may make many requests (polls still keep the default 30 s interval). */
const busyWorkspace = () => createWorkspace(server, { rateLimitPerMinute: 100_000 });

/** `count` contacts writing in through the simulator, one after another; their message ids in order. */
async function inbound(client: ParleyClient, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { data, error } = await client.POST('/v1/actions/simulate-inbound-message', {
      body: { phone: `+1415555${String(1000 + (i % 7))}`, text: `message ${i}` },
    });
    assert.ok(data, JSON.stringify(error));
    ids.push(data.id);
  }
  return ids;
}

interface Nap {
  ms: number;
  /** Moves the server's clock by `ms` and lets the poller go on. */
  wake(): void;
}

/** The poller's timer on the test's terms: each sleep lasts until the test wakes it. */
function steppedTimer(clock: ManualClock) {
  const naps: Nap[] = [];
  let napped = () => undefined as void;
  const sleep: Sleep = (ms, signal) =>
    new Promise((resolve, reject) => {
      const nap: Nap = {
        ms,
        wake: () => {
          signal?.removeEventListener('abort', abort);
          clock.advance(ms);
          resolve();
        },
      };
      const abort = () => {
        if (naps.includes(nap)) naps.splice(naps.indexOf(nap), 1);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', abort, { once: true });
      naps.push(nap);
      napped();
    });
  return {
    sleep,
    /** The poller's next sleep, once it has begun (a poll has finished). */
    async nextNap(): Promise<Nap> {
      while (naps.length === 0) await new Promise<void>((resolve) => (napped = resolve));
      return naps.shift()!;
    },
  };
}

describe(`typed client (${ENGINE})`, () => {
  test('generated types › packages/client/src/schema.ts is what docs/openapi.yaml generates now', async () => {
    assert.equal(
      fs.readFileSync(CLIENT_SCHEMA_FILE, 'utf8'),
      await renderClientSchema(),
      'stale: run `npm run openapi && npm run client`',
    );
  });

  test('typed calls › create-contact, search-contacts, get-template and errors as problem details', async () => {
    const ws = await createWorkspace(server);
    const client = clientOf(ws);
    const created = await client.POST('/v1/actions/create-contact', {
      body: { phone: '+1 (415) 555-0142', name: 'Ada Lovelace' },
    });
    assert.equal(created.response.status, 201);
    assert.equal(created.data?.phone, '+14155550142');

    const found = await client.POST('/v1/actions/search-contacts', { body: { query: 'lovelace' } });
    assert.ok(Array.isArray(found.data), 'without paginate=cursor, the plain list');
    assert.deepEqual(
      found.data.map((contact) => contact.id),
      [created.data?.id],
    );

    const template = await createTemplate(server.app.services, ws.workspaceId);
    const fetched = await client.POST('/v1/actions/get-template', { body: { template_id: template.id } });
    assert.deepEqual(fetched.data?.placeholders, ['1', '2']);

    const missing = await client.POST('/v1/actions/get-contact', { body: { phone: '+14155550199' } });
    assert.equal(missing.response.status, 404);
    assert.equal(missing.error?.code, 'not_found');

    const me = await client.GET('/v1/me');
    assert.equal(me.data?.workspace.id, ws.workspaceId);
  });

  test('typed calls › a redirect is refused, so the token is never sent on to another address', async () => {
    const followed: (string | undefined)[] = [];
    const redirecting = http.createServer((request, response) => {
      if (request.url === '/elsewhere') followed.push(request.headers.authorization);
      response.writeHead(request.url === '/elsewhere' ? 200 : 307, { location: '/elsewhere' }).end('{}');
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    after(() => redirecting.close());
    const { port } = redirecting.address() as AddressInfo;
    const client = createParleyClient({ baseUrl: `http://127.0.0.1:${port}`, token: 'parley_secret' });
    await assert.rejects(client.GET('/v1/me'), TypeError);
    assert.deepEqual(followed, []);
  });
});

describe(`poll (${ENGINE})`, () => {
  test(
    'poll › delivers every new inbound message exactly once, oldest first, across a restart and backlogs of several pages',
    { timeout: 180_000 },
    async () => {
      const ws = await busyWorkspace();
      const client = clientOf(ws);
      const storeFile = path.join(scratch, 'exactly-once.json');
      const timer = steppedTimer(server.clock);
      const delivered: string[] = [];
      const failures: unknown[] = [];
      const options = { sleep: timer.sleep, onError: (error: unknown) => failures.push(error) };

      await inbound(client, 3);
      const firstStop = new AbortController();
      const firstRun = poll(client, 'new-message-received', {
        ...options,
        store: fileStore(storeFile),
        signal: firstStop.signal,
        onRecord: (message) => {
          delivered.push(message.id);
          if (delivered.length === 65) firstStop.abort(); // stopped in the middle of a batch
        },
      });
      let nap = await timer.nextNap();
      assert.equal(nap.ms, 30_000, 'waits the workspace interval between polls');
      assert.equal(delivered.length, 0, 'the history before the first run is not new');

      const batch1 = await inbound(client, 5);
      nap.wake();
      nap = await timer.nextNap();
      assert.deepEqual(delivered, batch1);

      const batch2 = await inbound(client, 150); // more than the feed's 100 since the last poll
      nap.wake();
      await firstRun;
      assert.deepEqual(delivered, [...batch1, ...batch2.slice(0, 60)]);

      const batch3 = await inbound(client, 50); // with the 90 left over, again more than a page
      const secondStop = new AbortController();
      const secondRun = poll(client, 'new-message-received', {
        ...options,
        store: fileStore(storeFile), // as a restarted process would open it
        signal: secondStop.signal,
        onRecord: (message) => void delivered.push(message.id),
      });
      // Restarted within the interval of the last poll: the server answers 429 and the poller waits as told.
      nap = await timer.nextNap();
      const [limited] = failures;
      assert.ok(limited instanceof ParleyApiError && limited.status === 429, String(limited));
      assert.equal(nap.ms, limited.problem!.retry_after! * 1000);
      nap.wake();
      nap = await timer.nextNap();
      assert.deepEqual(delivered, [...batch1, ...batch2, ...batch3]);
      assert.equal(failures.length, 1, 'no other failure');
      secondStop.abort();
      await secondRun;
    },
  );

  test('poll › the first run starts from now; on an empty feed every later record is new', async () => {
    const ws = await busyWorkspace();
    const client = clientOf(ws);
    const timer = steppedTimer(server.clock);
    const store = memoryStore();
    const delivered: string[] = [];
    const stop = new AbortController();
    const run = poll(client, 'new-message-received', {
      store,
      sleep: timer.sleep,
      signal: stop.signal,
      onRecord: (message) => void delivered.push(message.id),
    });
    const key = `${ws.workspaceId}/new-message-received`;
    const nap = await timer.nextNap();
    assert.equal(await store.get(key), '', 'the empty feed is remembered');
    const fresh = await inbound(client, 3);
    nap.wake();
    await timer.nextNap();
    assert.deepEqual(delivered, fresh);
    assert.equal(await store.get(key), fresh[2]);
    stop.abort();
    await run;

    server.clock.advance(30_000); // the workspace interval since that last poll
    const later = new AbortController();
    const withNewStore = poll(client, 'new-message-received', {
      store: memoryStore(),
      sleep: timer.sleep,
      signal: later.signal,
      onRecord: (message) => void delivered.push(message.id),
    });
    await timer.nextNap();
    assert.deepEqual(delivered, fresh, 'a new store starts from now: the feed is not delivered again');
    later.abort();
    await withNewStore;
  });

  test('poll › a filter passes through to the feed and has its own stored position; backfill', async () => {
    const ws = await busyWorkspace();
    const client = clientOf(ws);
    const contact = await client.POST('/v1/actions/create-contact', { body: { phone: '+14155550160' } });
    const images: string[] = [];
    for (let i = 0; i < 3; i++) {
      images.push(await recordInboundMessage(server, ws.workspaceId, contact.data!.id, { type: 'image', content: {} }));
      await inbound(client, 1);
    }
    const timer = steppedTimer(server.clock);
    const store = memoryStore();
    const delivered: string[] = [];
    const stop = new AbortController();
    const run = poll(client, 'new-message-received', {
      store,
      filter: { message_type: 'image' },
      backfill: 2,
      sleep: timer.sleep,
      signal: stop.signal,
      onRecord: (message) => void delivered.push(message.id),
    });
    await timer.nextNap();
    assert.deepEqual(delivered, images.slice(1), 'the latest two images, oldest first');
    assert.equal(await store.get(`${ws.workspaceId}/new-message-received?message_type=image`), images[2]);
    assert.equal(await store.get(`${ws.workspaceId}/new-message-received`), undefined);
    stop.abort();
    await run;
  });

  test('poll › network errors and 5xx are retried with a growing backoff', async () => {
    const ws = await busyWorkspace();
    let feedCalls = 0;
    const flaky = async (request: Request) => {
      if (request.url.includes('/triggers/') && ++feedCalls <= 3) {
        if (feedCalls < 3) throw new TypeError('fetch failed');
        return Response.json({ status: 503 }, { status: 503 });
      }
      return trustingFetch(request);
    };
    const timer = steppedTimer(server.clock);
    const failures: unknown[] = [];
    const stop = new AbortController();
    const run = poll(clientOf(ws, flaky), 'new-campaign-sent', {
      store: memoryStore(),
      sleep: timer.sleep,
      signal: stop.signal,
      onError: (error) => failures.push(error),
      onRecord: () => undefined,
    });
    const naps: number[] = [];
    for (let i = 0; i < 4; i++) {
      const nap = await timer.nextNap();
      naps.push(nap.ms);
      nap.wake();
    }
    assert.deepEqual(naps, [1_000, 2_000, 4_000, 30_000]);
    assert.deepEqual(
      failures.map((error) => (error instanceof ParleyApiError ? error.status : String(error))),
      ['TypeError: fetch failed', 'TypeError: fetch failed', 503],
    );
    stop.abort();
    await run;
  });

  test('poll › an error no retry can fix (a revoked token) ends the poll with it', async () => {
    const ws = await busyWorkspace();
    await server.app.services.tokens.revoke(ws.tokenId);
    const polling = poll(clientOf(ws), 'new-message-received', { store: memoryStore(), onRecord: () => undefined });
    await assert.rejects(polling, (error) => error instanceof ParleyApiError && error.status === 401);
  });
});

describe(`docs/api.md example (${ENGINE})`, () => {
  test('answer-with-template › docs/api.md shows the example as committed', () => {
    const source = fs.readFileSync(path.join(REPO_ROOT, EXAMPLE), 'utf8');
    const guide = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'api.md'), 'utf8');
    assert.ok(guide.includes('```ts\n' + source.slice(source.search(/^import /m)) + '```\n'));
  });

  test(
    'answer-with-template › answers a new inbound message with the template, once',
    { timeout: 60_000 },
    async () => {
      // No poll interval: the example's real timer polls every second against the test server's manual clock.
      const ws = await createWorkspace(server, { pollIntervalSeconds: 0, rateLimitPerMinute: 100_000 });
      const template = await createTemplate(server.app.services, ws.workspaceId, {
        translations: [{ language: 'en_US', status: 'APPROVED', body: 'Hi {{1}}, thanks for writing.' }],
      });
      const storeFile = path.join(scratch, 'example.json');
      const output: string[] = [];
      const example = execFile(
        process.execPath,
        ['--import', 'tsx', EXAMPLE],
        {
          cwd: REPO_ROOT,
          env: {
            PATH: process.env.PATH,
            NODE_EXTRA_CA_CERTS: server.app.tls?.certFile,
            PARLEY_URL: server.baseUrl,
            PARLEY_TOKEN: ws.token,
            TEMPLATE_ID: template.id,
            STORE_FILE: storeFile,
          },
        },
        (_error, stdout, stderr) => output.push(stdout, stderr),
      );
      const exited = new Promise<number | null>((resolve) => example.once('exit', resolve));
      after(() => example.kill('SIGKILL'));

      await until(() => fs.existsSync(storeFile), 'the example started polling');
      const client = clientOf(ws);
      const [messageId] = await inbound(client, 1);
      await until(async () => (await answers(ws)).length > 0, 'the message was answered');
      example.kill('SIGTERM');
      assert.equal(await exited, 0, output.join('\n'));
      assert.deepEqual(await answers(ws), [
        { template_id: template.id, text: 'Hi there, thanks for writing.', contact_phone: '+14155551000' },
      ]);
      assert.equal(
        (JSON.parse(fs.readFileSync(storeFile, 'utf8')) as Record<string, string>)[
          `${ws.workspaceId}/new-message-received`
        ],
        messageId,
      );
    },
  );
});

/** The template messages sent in the workspace. */
async function answers(ws: TestWorkspace) {
  const rows = await server.app.services.deps.db
    .selectFrom('messages as m')
    .innerJoin('contacts as c', 'c.id', 'm.contact_id')
    .select(['m.content', 'c.phone'])
    .where('m.workspace_id', '=', ws.workspaceId)
    .where('m.direction', '=', 'outbound')
    .execute();
  return rows.map((row) => {
    const { template_id, text } = JSON.parse(row.content) as { template_id?: string; text?: string };
    return { template_id, text, contact_phone: row.phone };
  });
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
