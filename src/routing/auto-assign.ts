import type { Kysely } from 'kysely';
import { rolesWith } from '../access/roles.js';
import type { Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import { toStoredTimestamp } from '../shared/time.js';
import { assignmentRepository, type Waiting } from './assignment.repository.js';

/** Conversations one pass over the queue assigns at most (the next freed capacity drains the rest). */
const QUEUE_BATCH = 200;

interface Agent {
  id: string;
  lastTurn: number;
  open: number;
}

/**
 * Automatic assignment: each waiting conversation goes to the available person of its team (of the
 * workspace when it has none) whose last turn is oldest — round-robin — among those under the
 * per-person limit of open conversations. Runs under the workspace's routing lock, so processes
 * sharing a database never count the same free capacity twice; a conversation without a free person
 * stays in its queue. `waiting` is the queue, or work that writes and returns the conversations to
 * assign (run even when automatic assignment is off). Returns the contacts whose conversation got a person.
 */
export async function assignWaiting(
  trx: Kysely<Database>,
  { clock }: Pick<Deps, 'clock'>,
  workspaceId: string,
  waiting: 'queue' | (() => Promise<Waiting[]>),
): Promise<string[]> {
  const repository = assignmentRepository(trx);
  const pending = () => (waiting === 'queue' ? repository.queue(workspaceId, QUEUE_BATCH) : waiting());
  if (!(await repository.autoAssignOn(workspaceId))) {
    if (waiting !== 'queue') await waiting();
    return [];
  }
  const at = toStoredTimestamp(clock.now());
  // The lock comes first, before `waiting` writes any conversation: the other order could deadlock with a drain.
  const lock = await repository.takeTurn(workspaceId, at);
  const conversations = await pending();
  if (!lock.autoAssign) return [];
  const agents = new Map<string, Agent>();
  const pools = new Map<string | null, Agent[]>();
  const poolOf = async (teamId: string | null) => {
    let pool = pools.get(teamId);
    if (!pool) {
      const rows = await repository.candidates(workspaceId, teamId, rolesWith('conversations'));
      pool = rows.map(
        (row) => agents.get(row.id) ?? { id: row.id, lastTurn: Number(row.last_turn), open: Number(row.open) },
      );
      for (const agent of pool) agents.set(agent.id, agent);
      pools.set(teamId, pool);
    }
    return pool;
  };
  let turn = lock.turn;
  const assigned: string[] = [];
  for (const conversation of conversations) {
    const agent = nextOf(await poolOf(conversation.team_id), lock.agentLimit);
    if (!agent) continue;
    if (!(await repository.assign(workspaceId, conversation.contact_id, agent.id, turn, at))) continue;
    agent.lastTurn = turn++;
    agent.open += 1;
    assigned.push(conversation.contact_id);
  }
  // The next pass starts after the turns this one handed out.
  if (assigned.length > 1) await repository.saveTurn(workspaceId, turn - 1);
  return assigned;
}

/** The person whose turn it is: under the limit, longest since their last conversation (ties: by id). */
function nextOf(pool: Agent[], limit: number | null): Agent | undefined {
  const free = pool.filter((agent) => limit === null || agent.open < limit);
  return free.sort((a, b) => a.lastTurn - b.lastTurn || (a.id < b.id ? -1 : 1))[0];
}
