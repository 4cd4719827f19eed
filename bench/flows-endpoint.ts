import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import {
  dataExchangeRequest,
  encryptFlowRequest,
  HEALTH_CHECK_REQUEST,
  type EncryptedFlowRequest,
} from '../src/whatsapp/flows-endpoint.fixtures.js';
import { signBody } from '../src/whatsapp/webhook.fixtures.js';
import { startGraphStandIn, type GraphStandIn } from '../test/graph-stand-in.js';
import { machine, writeMarkdown } from './report.js';

/**
 * `npm run bench:flows-endpoint`: the round trip of a WhatsApp Flows data request through Parley's
 * endpoint over HTTPS, as Meta makes it: encrypted to the number's registered public key, signed with
 * the app secret, answered as base64 text and decrypted by the caller. Measured: a data_exchange relayed
 * to a business endpoint on loopback (which answers at once), the same data_exchange answered by Parley's
 * screen table (decision 0156), and the baseline of Meta's ping through the same route, which Parley
 * answers itself. The kinds alternate in rounds, so a noisy neighbour weighs on all alike.
 */
const env = process.env;
const settings = {
  requests: Number(env.BENCH_FLOWS_REQUESTS ?? 2000),
  rounds: Number(env.BENCH_FLOWS_ROUNDS ?? 10),
  concurrency: (env.BENCH_FLOWS_CONCURRENCY ?? '1,8').split(',').map(Number),
  warmup: 200,
  output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
};
const APP_SECRET = 'bench-app-secret';
const API_VERSION = 'v23.0';
const log = (message: string) =>
  console.log(`[bench:flows-endpoint ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** A business endpoint as fast as it can be: it answers every screen with the next one. */
async function startBusiness(): Promise<{ url: string; close(): void }> {
  const answer = JSON.stringify({ screen: 'PICK_FLOWERS', data: { bouquets: ['Roses', 'Tulips', 'Lilies'] } });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/flows`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

interface Bed {
  app: App;
  graph: GraphStandIn;
  /** Sends one encrypted request; resolves with its round trip in ms. */
  send(encrypted: EncryptedFlowRequest): Promise<number>;
  publicKey: string;
  /** Who answers the number's screens from now on. */
  answerBy(kind: Kind): Promise<void>;
  close(): Promise<void>;
}

/** The screen table of the Parley kind: the submitted fields and the contact fill the next screen. */
const SCREEN_ANSWERS = [
  {
    screen: 'PICK_FLOWERS',
    next_screen: 'CONFIRM',
    data: { summary: '{{context.quantity}} × {{context.bouquet}} for {{contact.first_name | "you"}}' },
  },
];

async function startBed(businessUrl: string): Promise<Bed> {
  const graph = await startGraphStandIn({ apiVersion: API_VERSION });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-flows-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    WHATSAPP_GRAPH_URL: graph.url,
    WHATSAPP_API_VERSION: API_VERSION,
    WHATSAPP_APP_SECRET: APP_SECRET,
    // The business endpoint is on loopback.
    PARLEY_ALLOW_PRIVATE_WEBHOOKS: 'true',
  });
  const app = await createApp(config, { logger: false });
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.server.address() as AddressInfo;
  const agent = new Agent({ connect: { ca: app.tls?.cert ?? '' } });
  const { services } = app;
  const { workspace } = await services.workspaces.setup({
    name: 'Bench',
    email: `bench-${randomInt(1e9)}@example.com`,
    password: 'correct horse battery',
  });
  const caller = { workspaceId: workspace.id };
  const number = graph.addPhoneNumber();
  await services.channels.useWhatsappCloud(caller, number);
  const channelId = (await services.channels.list(caller))[0]!.id!;
  const endpoint = await services.flowsEndpoint.setUpEncryption(caller, channelId);
  await services.flowsEndpoint.setBusinessEndpoint(caller, channelId, businessUrl);
  const url = `https://127.0.0.1:${port}${new URL(endpoint.endpoint_url).pathname}`;
  return {
    app,
    graph,
    publicKey: graph.businessPublicKey(number.phoneNumberId)!,
    async answerBy(kind) {
      const answeredBy = kind === 'parley' ? 'parley' : 'business_endpoint';
      await services.flowsEndpoint.setScreenAnswers(caller, channelId, answeredBy, SCREEN_ANSWERS);
    },
    async send(encrypted) {
      const raw = JSON.stringify(encrypted.body);
      const started = performance.now();
      const response = await request(url, {
        method: 'POST',
        body: raw,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, APP_SECRET) },
        dispatcher: agent,
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`the endpoint answered ${response.statusCode}: ${text}`);
      encrypted.decryptAnswer(text);
      return performance.now() - started;
    },
    async close() {
      await app.close();
      await agent.close();
      await graph.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Kind = 'ping' | 'relayed' | 'parley';
const KINDS: Kind[] = ['ping', 'relayed', 'parley'];

/** Meta's requests, encrypted before the clock starts: the client's RSA is Meta's cost, not Parley's. */
function requestsOf(bed: Bed, kind: Kind, count: number): EncryptedFlowRequest[] {
  const payload =
    kind === 'ping'
      ? HEALTH_CHECK_REQUEST
      : dataExchangeRequest({
          action: 'data_exchange',
          flowToken: 'bench-token',
          screen: 'PICK_FLOWERS',
          data: { bouquet: 'Roses', quantity: 2 },
        });
  return Array.from({ length: count }, () => encryptFlowRequest(bed.publicKey, payload));
}

/** Round trips of `requests`, `concurrency` at a time. */
async function roundTrips(bed: Bed, requests: EncryptedFlowRequest[], concurrency: number): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) times.push(await bed.send(requests[next++]!));
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return times;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!;

interface Row {
  kind: Kind;
  concurrency: number;
  count: number;
  p50: number;
  p90: number;
  p99: number;
  perSecond: number;
}

/** Both kinds at one concurrency, alternating in rounds. */
async function measure(bed: Bed, concurrency: number): Promise<Row[]> {
  const times: Record<Kind, number[]> = { ping: [], relayed: [], parley: [] };
  const elapsed: Record<Kind, number> = { ping: 0, relayed: 0, parley: 0 };
  const perRound = Math.ceil(settings.requests / settings.rounds);
  for (let round = 0; round < settings.rounds; round++) {
    for (const kind of KINDS) {
      await bed.answerBy(kind);
      const requests = requestsOf(bed, kind, perRound);
      const started = performance.now();
      times[kind].push(...(await roundTrips(bed, requests, concurrency)));
      elapsed[kind] += performance.now() - started;
    }
  }
  return KINDS.map((kind) => {
    const sorted = [...times[kind]].sort((a, b) => a - b);
    return {
      kind,
      concurrency,
      count: sorted.length,
      p50: percentile(sorted, 0.5),
      p90: percentile(sorted, 0.9),
      p99: percentile(sorted, 0.99),
      perSecond: sorted.length / (elapsed[kind] / 1000),
    };
  });
}

async function main(): Promise<void> {
  const business = await startBusiness();
  const bed = await startBed(business.url);
  const rows: Row[] = [];
  try {
    for (const kind of KINDS) {
      await bed.answerBy(kind);
      await roundTrips(bed, requestsOf(bed, kind, settings.warmup), 4);
    }
    for (const concurrency of settings.concurrency) {
      const measured = await measure(bed, concurrency);
      for (const row of measured) {
        log(`${row.kind} × ${concurrency}: p50 ${row.p50.toFixed(2)} ms, p99 ${row.p99.toFixed(2)} ms`);
      }
      rows.push(...measured);
    }
  } finally {
    await bed.close();
    business.close();
  }
  const ms = (value: number) => value.toFixed(2);
  const labels: Record<Kind, string> = {
    ping: 'ping (baseline: answered by Parley)',
    relayed: 'data_exchange (relayed)',
    parley: "data_exchange (Parley's screen table)",
  };
  writeMarkdown(
    settings.output,
    [
      `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — \`npm run bench:flows-endpoint\` ` +
        `(BENCH_FLOWS_REQUESTS=${settings.requests} per kind and concurrency, in ${settings.rounds} alternating rounds, SQLite)`,
      '',
      `Machine: ${machine()}.`,
      '',
      "Each request as Meta makes it: Meta's JSON encrypted to the number's registered public key (before the clock " +
        "starts), signed with the app secret, POSTed over HTTPS (keep-alive) to the number's endpoint URL; the round trip " +
        'ends when the base64 answer is decrypted. The relayed kind adds the signed POST to a business endpoint on ' +
        "loopback that answers at once, and its answer encrypted back. The screen-table kind reads the number's " +
        'table, looks the token up among the sends, fills the next screen from the entered fields and keeps them.',
      '',
      '| Request | In flight | Requests | p50 ms | p90 ms | p99 ms | Requests/s |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...rows.map(
        (r) =>
          `| ${labels[r.kind]} | ${r.concurrency} | ${r.count} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${r.perSecond.toFixed(0)} |`,
      ),
    ].join('\n'),
    'bench-flows-endpoint',
    'npm run bench:flows-endpoint',
  );
  log(`wrote ${settings.output}`);
}

await main();
