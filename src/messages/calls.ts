import type { Kysely } from 'kysely';
import type { CallEvent, StatusError } from '../channels/index.js';
import { contactRepository } from '../contacts/index.js';
import type { Deps } from '../db/deps.js';
import type { Database } from '../db/schema.js';
import type { Caller } from '../shared/context.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { recipientsOf } from './business-app.js';
import type { ConversationCall } from './message.schema.js';

type Trx = Deps['db'];

type CallOutcome = ConversationCall['outcome'];

/** One of Meta's events of a call, as the call's row keeps it. */
interface StoredCallEvent {
  event: CallEvent['event'];
  direction: CallEvent['direction'];
  status: string | null;
  at: string;
  started_at: string | null;
  ended_at: string | null;
  duration: number | null;
  errors: StatusError[];
  raw: Record<string, unknown>;
}

/**
 * WhatsApp calls, from Meta's `calls` webhooks: each call is one row in its contact's conversation, built
 * from all the events Meta sent of it, so a retried or late event changes nothing or only what it adds.
 * A call is no message: it opens no window and no automation, feed or outgoing webhook hears of it.
 */
export function createCallService(deps: Deps) {
  const { db, clock, newId } = deps;

  return {
    /** Applies a number's call events; returns, per event, whether it changed its call. */
    async record(caller: Caller, channelId: string, events: CallEvent[]): Promise<boolean[]> {
      if (events.length === 0) return [];
      const workspaceId = caller.workspaceId;
      return db.transaction().execute(async (trx) => {
        const customers = await recipientsOf(
          trx,
          deps,
          workspaceId,
          events.map((event) => ({ key: event.callId, to: event.customer, userId: event.customerUserId })),
        );
        const changed: boolean[] = [];
        for (const event of events) {
          const contact = customers.get(event.callId)?.contact;
          changed.push(contact ? await apply(trx, { workspaceId, contactId: contact.id, channelId }, event) : false);
        }
        return changed;
      });
    },
  };

  async function apply(
    trx: Trx,
    call: { workspaceId: string; contactId: string; channelId: string },
    event: CallEvent,
  ): Promise<boolean> {
    const now = toStoredTimestamp(clock.now());
    const stored = storedEvent(event);
    await trx
      .insertInto('calls')
      .values({
        id: newId(),
        workspace_id: call.workspaceId,
        contact_id: call.contactId,
        channel_id: call.channelId,
        call_id: event.callId,
        direction: event.direction,
        outcome: 'ringing',
        placed_at: stored.at,
        started_at: null,
        ended_at: null,
        duration_seconds: null,
        events: '[]',
        updated_at: now,
      })
      .onConflict((conflict) => conflict.columns(['workspace_id', 'call_id']).doNothing())
      .execute();
    let query = trx
      .selectFrom('calls')
      .select(['id', 'events'])
      .where('workspace_id', '=', call.workspaceId)
      .where('call_id', '=', event.callId);
    // Two processes may apply events of one call at once: the second waits for the first's.
    if (deps.dialect === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirstOrThrow();
    const known = JSON.parse(row.events) as StoredCallEvent[];
    if (known.some((other) => sameEvent(other, stored))) return false;
    const events = [...known, stored].sort((a, b) => a.at.localeCompare(b.at));
    await trx
      .updateTable('calls')
      .set({ ...projection(events), events: JSON.stringify(events), updated_at: now })
      .where('id', '=', row.id)
      .execute();
    await contactRepository(trx).noteLastMessage(call.workspaceId, [call.contactId], events[0]!.at);
    return true;
  }
}

function storedEvent(event: CallEvent): StoredCallEvent {
  const time = (date: Date | null) => date && toStoredTimestamp(date);
  return {
    event: event.event,
    direction: event.direction,
    status: event.status,
    at: toStoredTimestamp(event.timestamp),
    started_at: time(event.startedAt),
    ended_at: time(event.endedAt),
    duration: event.duration,
    errors: event.errors,
    raw: event.raw,
  };
}

/** A retried delivery repeats an event: the same kind, status and time. */
function sameEvent(a: StoredCallEvent, b: StoredCallEvent): boolean {
  return a.event === b.event && a.status === b.status && a.at === b.at;
}

/** What a call's events say of it, whatever order they came in. */
function projection(events: StoredCallEvent[]) {
  const terminate = events.find((event) => event.event === 'terminate');
  const started = events.find((event) => event.started_at !== null)?.started_at ?? null;
  const duration = terminate?.duration ?? null;
  const answered =
    started !== null ||
    (duration ?? 0) > 0 ||
    events.some((event) => event.event === 'status' && event.status === 'ACCEPTED');
  const rejected = events.some((event) => event.event === 'status' && event.status === 'REJECTED');
  return {
    direction: (events.find((event) => event.event !== 'status') ?? events[0]!).direction,
    outcome: outcomeOf({ ended: terminate !== undefined, answered, rejected, failed: terminate?.status === 'FAILED' }),
    placed_at: events[0]!.at,
    started_at: started,
    ended_at: terminate?.ended_at ?? null,
    duration_seconds: duration,
  };
}

function outcomeOf(call: { ended: boolean; answered: boolean; rejected: boolean; failed: boolean }): CallOutcome {
  if (call.answered) return call.ended ? 'answered' : 'ongoing';
  if (call.rejected) return 'rejected';
  if (!call.ended) return 'ringing';
  return call.failed ? 'failed' : 'missed';
}

/** SQL for reading a conversation's calls; every query is scoped to one workspace. */
export function callRepository(db: Kysely<Database>) {
  return {
    /** A conversation's calls placed from `from` (inclusive, null: the start) to `to` (exclusive, null: now), oldest first. */
    async between(
      workspaceId: string,
      contactId: string,
      from: string | null,
      to: string | null,
    ): Promise<ConversationCall[]> {
      let query = db
        .selectFrom('calls')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId);
      if (from) query = query.where('placed_at', '>=', from);
      if (to) query = query.where('placed_at', '<', to);
      const rows = await query.orderBy('placed_at').orderBy('id').execute();
      return rows.map((row) => ({
        id: row.id,
        call_id: row.call_id,
        direction: row.direction,
        outcome: row.outcome as CallOutcome,
        placed_at: formatTimestamp(row.placed_at),
        started_at: formatTimestamp(row.started_at),
        ended_at: formatTimestamp(row.ended_at),
        duration_seconds: row.duration_seconds,
        error: lastError(JSON.parse(row.events) as StoredCallEvent[]),
      }));
    },
  };
}

function lastError(events: StoredCallEvent[]): ConversationCall['error'] {
  const error = events.flatMap((event) => event.errors).at(-1);
  return error ? { code: error.code, title: error.title } : null;
}

export type CallService = ReturnType<typeof createCallService>;
