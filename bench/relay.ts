import fs from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import { request } from 'undici';

/**
 * The flow-reply baseline of bench/automation.ts: a bare Fastify HTTPS server (Parley's certificate)
 * that answers a webhook POST and then sends one message to the Graph API sink, as a flow reply does
 * with none of the work. With RELAY_DATABASE_URL it first runs RELAY_STATEMENTS trivial statements in
 * one PostgreSQL transaction: the floor of that many round trips on this machine at that moment.
 * Env: RELAY_CERT, RELAY_KEY, PORT, RELAY_GRAPH_URL, RELAY_DATABASE_URL, RELAY_STATEMENTS.
 */
const env = process.env;
const pool = env.RELAY_DATABASE_URL ? new pg.Pool({ connectionString: env.RELAY_DATABASE_URL, max: 2 }) : null;
const statements = Number(env.RELAY_STATEMENTS ?? 0);
const graphUrl = `${env.RELAY_GRAPH_URL}/v21.0/1000002/messages`;
const message = JSON.stringify({
  messaging_product: 'whatsapp',
  to: '+14150000000',
  type: 'text',
  text: { body: 'hi' },
});

async function roundTrips(): Promise<void> {
  if (!pool) return;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (let i = 0; i < statements; i += 1) await client.query({ name: 'relay', text: 'SELECT $1::int', values: [i] });
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

async function send(): Promise<void> {
  const response = await request(graphUrl, {
    method: 'POST',
    body: message,
    headers: { 'content-type': 'application/json', authorization: 'Bearer relay' },
  });
  await response.body.dump();
}

const app = Fastify({
  https: { cert: fs.readFileSync(env.RELAY_CERT ?? ''), key: fs.readFileSync(env.RELAY_KEY ?? '') },
  logger: false,
});
app.get('/', (_request, reply) => reply.send({ ready: true }));
app.post('/webhooks/whatsapp', async () => {
  await roundTrips();
  setImmediate(() => void send());
  return { messages: 1 };
});
await app.listen({ host: '127.0.0.1', port: Number(env.PORT) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
