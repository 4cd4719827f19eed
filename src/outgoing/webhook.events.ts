import { sql, type Kysely } from 'kysely';
import { precompile } from '../db/precompile.js';
import type { Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import { noteQueued } from '../shared/queued-work.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { eventRecords, type EventSubject } from './webhook.records.js';
import type { WebhookEvent } from './webhook.schema.js';

type Db = Kysely<Database>;
type EmitDeps = Pick<Deps, 'clock' | 'newId'>;

/** Deliveries per multi-row insert (10 bound values each). */
const INSERT_ROWS = 500;

// Literal status: the planner must see the condition to use the index on (workspace_id, status).
const enabledSubscriptions = (db: Db) =>
  db
    .selectFrom('webhook_subscriptions')
    .select(['id', 'workspace_id', 'events'])
    .where(sql<boolean>`status = 'enabled'`);
const selectEnabledOf = precompile((db, workspaceId: string) =>
  enabledSubscriptions(db).where('workspace_id', '=', workspaceId),
);

/**
 * Announces events to the workspaces' webhook subscriptions, in the caller's transaction (the
 * transactional outbox): a delivery row per subscription that wants the event, each with its body
 * fixed now, exists exactly if the event committed. The worker sends them once the caller has
 * committed and woken it. A workspace without subscriptions costs one indexed read and nothing else;
 * records are read, and deliveries written, only for subscribers.
 */
export async function emitWebhookEvents(
  trx: Db,
  deps: EmitDeps,
  type: Exclude<
    WebhookEvent,
    'message-status-changed' | 'conversation-status-changed' | `group-${string}` | 'held-send-changed'
  >,
  subjects: EventSubject[],
): Promise<void> {
  await emit(
    trx,
    deps,
    type,
    subjects,
    (subject, records) => records.get(subject.id),
    (db, subjects) => eventRecords[type](db, subjects),
  );
}

/** A conversation's status moved (opened, closed, reopened, snoozed, unsnoozed); `data` is told by the inbox. */
export interface ConversationChange extends EventSubject {
  data: object;
}

/** Announces conversation status changes, each with the data the inbox fixed for it. */
export async function emitConversationChanges(trx: Db, deps: EmitDeps, changes: ConversationChange[]): Promise<void> {
  await emit(trx, deps, 'conversation-status-changed', changes, (change) => change.data, noRecords);
}

const noRecords = () => Promise.resolve(new Map<string, object>());

/**
 * Announces events of `type`, each subject's `data` made from the records `load` reads in the same
 * transaction: the generic form of the emitters above, for a domain that reads its own records.
 */
export async function emit<Subject extends EventSubject>(
  trx: Db,
  deps: EmitDeps,
  type: WebhookEvent,
  subjects: Subject[],
  dataOf: (subject: Subject, records: Map<string, object>) => object | undefined,
  load: (trx: Db, subjects: EventSubject[]) => Promise<Map<string, unknown>>,
): Promise<void> {
  if (subjects.length === 0) return;
  const subscribers = (await subscribersOf(trx, subjects)).filter((s) =>
    (JSON.parse(s.events) as string[]).includes(type),
  );
  if (subscribers.length === 0) return;
  const subscribed = new Set(subscribers.map((s) => s.workspace_id));
  const relevant = subjects.filter((subject) => subscribed.has(subject.workspaceId));
  const records = (await load(trx, relevant)) as Map<string, object>;
  const at = toStoredTimestamp(deps.clock.now());
  const rows = relevant.flatMap((subject) => {
    const data = dataOf(subject, records);
    if (!data) return [];
    return subscribers
      .filter((s) => s.workspace_id === subject.workspaceId)
      .map((subscription) => deliveryRow(deps.newId(), subscription, type, data, at));
  });
  for (let i = 0; i < rows.length; i += INSERT_ROWS) {
    await trx
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + INSERT_ROWS))
      .execute();
  }
  if (rows.length > 0) noteQueued(trx, 'deliveries');
}

function subscribersOf(trx: Db, subjects: EventSubject[]) {
  const workspaceIds = [...new Set(subjects.map((subject) => subject.workspaceId))];
  return workspaceIds.length === 1
    ? selectEnabledOf(trx, workspaceIds[0]!)
    : enabledSubscriptions(trx).where('workspace_id', 'in', workspaceIds).execute();
}

/** A pending delivery, due at once, whose body is fixed for every attempt (and replay). */
function deliveryRow(
  id: string,
  subscription: { id: string; workspace_id: string },
  type: WebhookEvent,
  data: object,
  at: string,
) {
  const payload = JSON.stringify({
    id,
    type,
    created_at: formatTimestamp(at),
    workspace_id: subscription.workspace_id,
    data,
  });
  return {
    id,
    subscription_id: subscription.id,
    workspace_id: subscription.workspace_id,
    event_type: type,
    payload,
    status: 'pending' as const,
    next_attempt_at: at,
    first_attempt_at: null,
    attempt_log: '[]',
    created_at: at,
    updated_at: at,
  };
}
