import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { Agent, request } from 'undici';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { inboundMessageWebhook, inboundTextWebhook, signBody } from '../src/whatsapp/webhook.fixtures.js';
import { startGraphStandIn, type GraphStandIn } from '../test/graph-stand-in.js';
import { machine, writeMarkdown } from './report.js';

/**
 * `npm run bench:media`: received media stored per second, on the filesystem store and on an S3
 * store (s3rver on loopback). N signed image webhooks go through the real HTTPS API against the Graph
 * stand-in; the server's scheduler downloads each file (Meta's URL, the bytes, the SHA-256 check, the
 * store). Baseline in the same run: the same number of text webhooks (no media), messages stored per second.
 */
const env = process.env;
const settings = {
  files: Number(env.BENCH_MEDIA_FILES ?? 500),
  fileBytes: Number(env.BENCH_MEDIA_BYTES ?? 100 * 1024),
  concurrency: 8,
  output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
};
const APP_SECRET = 'bench-app-secret';
const API_VERSION = 'v23.0';
const log = (message: string) => console.log(`[bench:media ${new Date().toISOString().slice(11, 19)}] ${message}`);

interface Bed {
  app: App;
  graph: GraphStandIn;
  post(body: object): Promise<void>;
  phoneNumberId: string;
  workspaceId: string;
}

async function startBed(store: Record<string, string>): Promise<Bed> {
  const graph = await startGraphStandIn({ apiVersion: API_VERSION });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-media-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    WHATSAPP_GRAPH_URL: graph.url,
    WHATSAPP_API_VERSION: API_VERSION,
    WHATSAPP_APP_SECRET: APP_SECRET,
    ...store,
  });
  const app = await createApp(config, { logger: false });
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.server.address() as { port: number };
  const agent = new Agent({ connect: { ca: app.tls?.cert ?? '' } });
  const { services } = app;
  const { workspace } = await services.workspaces.setup({
    name: 'Bench',
    email: `bench-${randomInt(1e9)}@example.com`,
    password: 'correct horse battery',
  });
  const number = graph.addPhoneNumber();
  await services.channels.useWhatsappCloud({ workspaceId: workspace.id }, number);
  return {
    app,
    graph,
    phoneNumberId: number.phoneNumberId,
    workspaceId: workspace.id,
    async post(body) {
      const raw = JSON.stringify(body);
      const response = await request(`https://127.0.0.1:${port}/webhooks/whatsapp`, {
        method: 'POST',
        body: raw,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, APP_SECRET) },
        dispatcher: agent,
      });
      await response.body.dump();
      if (response.statusCode !== 200) throw new Error(`webhook answered ${response.statusCode}`);
    },
  };
}

/** Runs `count` tasks, `concurrency` at a time. */
async function inParallel(count: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: settings.concurrency }, worker));
}

async function count(bed: Bed, table: 'media_files' | 'messages'): Promise<number> {
  const row = await bed.app.services.deps.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', bed.workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Messages per second: N text webhooks until all are stored. */
async function baseline(bed: Bed): Promise<number> {
  const started = performance.now();
  await inParallel(settings.files, (i) =>
    bed.post(inboundTextWebhook({ phoneNumberId: bed.phoneNumberId, from: `1415${5_000_000 + i}`, text: `#${i}` })),
  );
  await until(async () => (await count(bed, 'messages')) >= settings.files);
  return settings.files / ((performance.now() - started) / 1000);
}

/** Files per second: N image webhooks until every file is in the store. */
async function mediaStored(bed: Bed): Promise<number> {
  const ids = Array.from({ length: settings.files }, () => String(randomInt(1e12, 2e14)));
  for (const id of ids) bed.graph.setMedia(id, { bytes: randomBytes(settings.fileBytes), mime_type: 'image/jpeg' });
  const started = performance.now();
  await inParallel(settings.files, (i) =>
    bed.post(
      inboundMessageWebhook({
        phoneNumberId: bed.phoneNumberId,
        from: `1416${5_000_000 + i}`,
        type: 'image',
        content: { mime_type: 'image/jpeg', id: ids[i] },
      }),
    ),
  );
  await until(async () => (await count(bed, 'media_files')) >= settings.files);
  return settings.files / ((performance.now() - started) / 1000);
}

async function measure(name: string, store: Record<string, string>) {
  const bed = await startBed(store);
  try {
    const messages = await baseline(bed);
    log(`${name}: baseline ${messages.toFixed(0)} text messages/s`);
    const files = await mediaStored(bed);
    log(`${name}: ${files.toFixed(1)} files/s`);
    return { name, messages, files };
  } finally {
    await bed.app.close();
    await bed.graph.close();
  }
}

async function main(): Promise<void> {
  const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-s3-'));
  const s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: 'bench' }],
  });
  const { port } = await s3rver.run();
  const s3 = {
    MEDIA_STORAGE: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_BUCKET: 'bench',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  const results = [await measure('filesystem', {}), await measure('S3 (s3rver on loopback)', s3)];
  await s3rver.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.files.toFixed(1)} | ${r.messages.toFixed(0)} | ${((r.files / r.messages) * 100).toFixed(0)} % |`,
  );
  writeMarkdown(
    settings.output,
    [
      '## Received media stored per second (issue 28)',
      '',
      `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — \`npm run bench:media\` ` +
        `(BENCH_MEDIA_FILES=${settings.files}, ${Math.round(settings.fileBytes / 1024)} KiB images, SQLite)`,
      '',
      `Machine: ${machine()}.`,
      '',
      `${settings.files} signed image webhooks, ${settings.concurrency} at a time over HTTPS, against the Graph stand-in; ` +
        "the server's scheduler asks for each URL, downloads the bytes, checks the SHA-256 and stores the file. " +
        'Files/s counts from the first webhook to the last file recorded. Baseline, same run and server: as many text webhooks, messages stored per second.',
      '',
      '| Store | Files stored/s | Baseline text messages/s | Ratio |',
      '| --- | --- | --- | --- |',
      ...rows,
    ].join('\n'),
    'bench-media',
    'npm run bench:media',
  );
  log(`wrote ${settings.output}`);
}

await main();
