import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../config.js';
import { openServices } from '../services.js';
import { ENGINE } from '../../test/server.js';
import { openDatabase, type DatabaseHandle } from './connection.js';
import { migrateTo } from './migrate.js';

/** A database of its own: a fresh SQLite file, or a fresh database on the test PostgreSQL server. */
async function scratchDatabase(
  suffix = '',
): Promise<{ dataDir: string; databaseUrl: string | null; drop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-upgrade-'));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  const serverUrl = process.env.PARLEY_TEST_DATABASE_URL;
  if (!serverUrl) return { dataDir, databaseUrl: null, drop: () => Promise.resolve(removeDir()) };
  const name = `parley_upgrade_${process.pid}${suffix}`;
  const admin = openDatabase({ databaseUrl: serverUrl, dataDir });
  await sql.raw(`DROP DATABASE IF EXISTS ${name}`).execute(admin.db);
  await sql.raw(`CREATE DATABASE ${name}`).execute(admin.db);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    drop: async () => {
      // A closed pool's backends may still be exiting; FORCE would then terminate them under a client.
      const connected = sql.raw(`SELECT pid FROM pg_stat_activity WHERE datname = '${name}'`);
      for (let i = 0; i < 50 && (await connected.execute(admin.db)).rows.length > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(admin.db);
      await admin.db.destroy();
      removeDir();
    },
  };
}

/** Rows as the first release stored them: a workspace, one contact, one inbound message, one stored response. */
async function seedFirstRelease({ db }: DatabaseHandle) {
  const at = '2026-01-01T00:00:00.000Z';
  const ids = {
    workspace: '01900000-0000-7000-8000-000000000001',
    contact: '01900000-0000-7000-8000-000000000002',
    message: '01900000-0000-7000-8000-000000000003',
  };
  await db
    .insertInto('workspaces')
    .values({
      id: ids.workspace,
      name: 'Old',
      poll_interval_seconds: 30,
      rate_limit_per_minute: 120,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto('contacts')
    .values({
      id: ids.contact,
      workspace_id: ids.workspace,
      phone: '+14155550123',
      name: 'Ada Lovelace',
      email: 'ada1815@example.org',
      custom_attributes: '{}',
      opted_out_at: null,
      last_message_at: at,
      last_inbound_at: at,
      created_at: at,
      updated_at: at,
    })
    .execute();
  // The first release has no feed_record column; the typed builder would name it.
  await sql`INSERT INTO messages (id, workspace_id, contact_id, direction, type, content, status,
      provider_message_id, error, created_at, updated_at)
    VALUES (${ids.message}, ${ids.workspace}, ${ids.contact}, 'inbound', 'text', ${'{"body":"hi"}'}, 'received',
      'wamid.OLD', NULL, ${at}, ${at})`.execute(db);
  // An Idempotency-Key response as releases before 0009 kept it: a minted token in clear.
  await sql`INSERT INTO idempotency_keys (workspace_id, key, fingerprint, status_code, response_body, created_at)
    VALUES (${ids.workspace}, 'k', 'f', 200, ${'{"token":"parley_old-secret"}'}, ${at})`.execute(db);
  return ids;
}

describe(`migrations (${ENGINE})`, () => {
  const scratch = scratchDatabase();
  after(async () => (await scratch).drop());

  test('0020_channels › a workspace’s one channel becomes its default, unchanged, still routing its number', async () => {
    const separate = await scratchDatabase('_channels');
    after(() => separate.drop());
    const old = openDatabase({ databaseUrl: separate.databaseUrl, dataDir: separate.dataDir });
    await migrateTo(old.db, old.dialect, '0001_initial');
    const { workspace } = await seedFirstRelease(old);
    await migrateTo(old.db, old.dialect, '0016_outbound');
    const at = '2026-01-01T00:00:00.000Z';
    await sql`INSERT INTO channels (workspace_id, provider, phone_number_id, waba_id, access_token,
          messages_per_second, created_at, updated_at)
        VALUES (${workspace}, 'whatsapp-cloud', '106540352242922', '102290129340398', 'sealed-token', 40, ${at}, ${at})`.execute(
      old.db,
    );
    await old.db.destroy();

    const config = loadConfig({
      DATA_DIR: separate.dataDir,
      ...(separate.databaseUrl && { DATABASE_URL: separate.databaseUrl }),
    });
    const services = await openServices(config);
    try {
      const [channel, ...others] = await services.channels.list({ workspaceId: workspace });
      assert.deepEqual(others, []);
      const { id, ...shown } = channel!;
      assert.match(String(id), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.deepEqual(shown, {
        provider: 'whatsapp-cloud',
        phone_number_id: '106540352242922',
        display_phone_number: null,
        verified_name: null,
        waba_id: '102290129340398',
        access_token_set: true,
        messages_per_second: 40,
        is_default: true,
        quality_rating: null,
        messaging_limit_tier: null,
        business_app: false,
        history_import: null,
        disconnection: null,
        account_status: {},
        portfolio_limit: null,
      });
      const stored = await services.deps.db.selectFrom('channels').select('access_token').executeTakeFirstOrThrow();
      assert.equal(stored.access_token, 'sealed-token', 'the sealed token is copied as it was');
      assert.deepEqual(await services.channels.routeOfNumber('106540352242922'), {
        workspaceId: workspace,
        channelId: id,
      });
    } finally {
      await services.deps.db.destroy();
    }
  });

  test('0054_flow_versions › a flow saved before versions is version 1; a run waiting on it finishes on it after version 2', async () => {
    const separate = await scratchDatabase('_flows');
    after(() => separate.drop());
    const old = openDatabase({ databaseUrl: separate.databaseUrl, dataDir: separate.dataDir });
    await migrateTo(old.db, old.dialect, '0001_initial');
    const { workspace, contact } = await seedFirstRelease(old);
    await migrateTo(old.db, old.dialect, '0053_marketing_messages_generation');
    const flow = '01900000-0000-7000-8000-000000000004';
    const nodes = [
      { id: 'wait', type: 'wait_for_reply', timeout: 'PT1H', next: 'route' },
      { id: 'route', type: 'branch', branches: [{ when: { reply_equals: 'yes' }, next: 'thanks' }], default: 'end' },
      { id: 'thanks', type: 'send_text', text: 'Booked (before versions)', next: 'end' },
      { id: 'end', type: 'end' },
    ];
    const at = '2026-01-01T00:00:00.000Z';
    await sql`INSERT INTO flows (id, workspace_id, name, definition, keywords, created_at, updated_at)
      VALUES (${flow}, ${workspace}, 'Tables', ${JSON.stringify({ start: 'wait', nodes })}, NULL, ${at}, ${at})`.execute(
      old.db,
    );
    await sql`INSERT INTO flow_runs (id, workspace_id, flow_id, contact_id, status, context, node_id, created_at, updated_at)
      VALUES ('01900000-0000-7000-8000-000000000005', ${workspace}, ${flow}, ${contact}, 'waiting', '{}', 'wait',
        ${at}, ${at})`.execute(old.db);
    await old.db.destroy();

    const config = loadConfig({
      DATA_DIR: separate.dataDir,
      ...(separate.databaseUrl && { DATABASE_URL: separate.databaseUrl }),
    });
    const services = await openServices(config);
    try {
      const caller = { workspaceId: workspace };
      const before = await services.flows.get(caller, { flow_id: flow });
      assert.deepEqual([before.version, before.draft, before.nodes], [1, null, nodes]);
      const changed = nodes.map((n) => (n.id === 'thanks' ? { ...n, text: 'Booked (version 2)' } : n));
      await services.flows.saveDraft(caller, { flow_id: flow, definition: { start: 'wait', nodes: changed } });
      assert.equal((await services.flows.publish(caller, { flow_id: flow })).version, 2);

      await services.inbound.simulateInbound(caller, { from: '+14155550123', text: 'yes' });
      const sent = await services.deps.db
        .selectFrom('messages')
        .select('content')
        .where('direction', '=', 'outbound')
        .execute();
      assert.deepEqual(
        sent.map((m) => (JSON.parse(m.content) as { body: string }).body),
        ['Booked (before versions)'],
      );
      const stats = await services.flows.stats(caller, { flow_id: flow, version: 1 });
      assert.deepEqual(
        stats.edges.map((e) => `${e.from} -${e.exit}-> ${e.to}`),
        ['route -branches/0/next-> thanks', 'thanks -next-> end', 'wait -next-> route'],
      );
    } finally {
      await services.deps.db.destroy();
    }
  });

  test('upgrading a first-release database keeps its rows, indexes its contacts and backfills feed records', async () => {
    const { dataDir, databaseUrl } = await scratch;
    const old = openDatabase({ databaseUrl, dataDir });
    await migrateTo(old.db, old.dialect, '0001_initial');
    const ids = await seedFirstRelease(old);
    await old.db.destroy();

    const config = loadConfig({ DATA_DIR: dataDir, ...(databaseUrl && { DATABASE_URL: databaseUrl }) });
    const services = await openServices(config);
    try {
      const caller = { workspaceId: ids.workspace };
      for (const query of ['lovelace', '555 0123', '1815']) {
        const found = await services.contacts.search(caller, { query });
        assert.deepEqual(
          found.map((c) => c.id),
          [ids.contact],
          `search "${query}"`,
        );
      }
      const feed = JSON.parse(await services.triggers.messagesReceived(caller, undefined)) as Record<string, unknown>[];
      assert.deepEqual(feed, [
        {
          id: ids.message,
          type: 'text',
          text: 'hi',
          content: { body: 'hi' },
          contact_id: ids.contact,
          contact_phone: '+14155550123',
          contact_name: 'Ada Lovelace',
          contact_email: 'ada1815@example.org',
          provider_message_id: 'wamid.OLD',
          reply_to_message_id: null,
          sent_at: null,
          created_at: '2026-01-01T00:00:00.000+00:00',
        },
      ]);
      const stored = await services.deps.db.selectFrom('idempotency_keys').selectAll().execute();
      assert.deepEqual(stored, [], 'stored responses, which may hold secrets in clear, are dropped');
    } finally {
      await services.deps.db.destroy();
    }
  });
});
