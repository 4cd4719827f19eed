/**
 * Automatic assignment across processes: two real Parley servers (`src/main.ts`) on one database,
 * customers writing in through both at once. The per-person limit must hold for the deployment as
 * a whole: no process may count free capacity another has just used.
 */
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { asClient } from './factories.js';
import { startParleyProcess } from './parley-process.js';
import { ENGINE, startServer } from './server.js';

// The in-process server is the test's handle on the database; the two processes serve the requests.
const server = await startServer();
const { services } = server.app;
const certificate = server.app.tls!.cert;
const processes = await Promise.all(
  ['process A', 'process B'].map((name) => startParleyProcess(name, server.env, certificate)),
);

/** A workspace whose owner is away, with `agents` agents, assigning automatically at `limit` each. */
async function shop(agents: number, limit: number) {
  const { workspace, user } = await services.workspaces.setup({
    name: `Shop ${randomInt(1e9)}`,
    email: `owner-${randomUUID()}@example.com`,
    password: 'correct horse battery',
  });
  const caller = { workspaceId: workspace.id, userId: user.id };
  const agentIds = Array.from({ length: agents }, () => services.deps.newId());
  // Fixture rows: people who could sign in are not what this test is about.
  await services.deps.db
    .insertInto('users')
    .values(
      agentIds.map((id, i) => ({
        id,
        workspace_id: workspace.id,
        email: `agent-${i}-${id}@example.com`,
        name: `Agent ${i}`,
        password_hash: 'not a hash: nobody signs in',
        role: 'agent' as const,
        created_at: new Date().toISOString(),
      })),
    )
    .execute();
  await services.routing.setAvailability(caller, false);
  await services.routing.updateSettings(caller, { auto_assign: true, agent_limit: limit });
  const issued = await services.tokens.create({ workspaceId: workspace.id, userId: user.id, name: 'api' });
  const ids = { workspaceId: workspace.id, userId: user.id, token: issued.token, tokenId: issued.id };
  return { caller, agentIds, through: processes.map((p) => asClient(p.http, ids)) };
}

/** How many open conversations each agent holds, and how many wait for someone. */
async function load(workspaceId: string, agentIds: string[]) {
  const rows = await services.deps.db
    .selectFrom('conversations')
    .select(['assignee_id'])
    .where('workspace_id', '=', workspaceId)
    .where('done_at', 'is', null)
    .execute();
  return {
    perAgent: agentIds.map((id) => rows.filter((row) => row.assignee_id === id).length),
    waiting: rows.filter((row) => row.assignee_id === null).length,
  };
}

describe(`automatic assignment across two processes (${ENGINE})`, () => {
  test('customers writing in through both at once: every agent gets exactly the limit, the rest waits; a raised limit drains the queue evenly', async () => {
    const { caller, agentIds, through } = await shop(3, 2);
    const writes = (count: number, offset: number) =>
      Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const api = through[i % through.length]!;
          const phone = `+1415${String(5_000_000 + offset + i)}`;
          const response = await api.action('simulate-inbound-message', { phone, text: `hello ${i}` });
          assert.equal(response.status, 200, response.text);
        }),
      );
    await writes(10, 0);
    assert.deepEqual(await load(caller.workspaceId, agentIds), { perAgent: [2, 2, 2], waiting: 4 });

    // The limit goes up through one process while two more customers write in through both.
    const [raised] = await Promise.all([
      through[0]!.action('update-routing-settings', { agent_limit: 4 }),
      writes(2, 100),
    ]);
    assert.equal(raised.status, 200, raised.text);
    assert.deepEqual(await load(caller.workspaceId, agentIds), { perAgent: [4, 4, 4], waiting: 0 });
  });
});
