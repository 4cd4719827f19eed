import type { Kysely } from 'kysely';
import type { Deps } from '../db/deps.js';
import type { Database } from '../db/schema.js';
import { emit, type EventSubject, inChunks } from '../outgoing/index.js';
import { presentedGroupMessages } from './group-messages.js';
import { presentMessage } from './message.presenter.js';

type Db = Kysely<Database>;

/** A message's status moved (sent, delivered, read, failed); each move is its own event. */
export interface StatusChange extends EventSubject {
  status: string;
  /** The message is in a WhatsApp group's conversation (it has no contact). */
  inGroup: boolean;
}

/**
 * Announces message status changes to the webhook subscriptions, in the caller's transaction; each
 * event's `data` is the message as get-message shows it (a group's, as list-group-messages does), at
 * that status.
 */
export async function emitStatusChanges(
  trx: Db,
  deps: Pick<Deps, 'clock' | 'newId'>,
  changes: StatusChange[],
): Promise<void> {
  const inGroups = changes.filter((change) => change.inGroup);
  const withContacts = inGroups.length === 0 ? changes : changes.filter((change) => !change.inGroup);
  await emit(trx, deps, 'message-status-changed', withContacts, atItsStatus, presentedMessages);
  await emit(trx, deps, 'group-message-status-changed', inGroups, atItsStatus, presentedGroupMessages);
}

// Two moves in one batch (delivered, then read) are two events, each with its own status.
function atItsStatus(change: StatusChange, records: Map<string, object>): object | undefined {
  const message = records.get(change.id);
  return message && { ...message, status: change.status };
}

/** The subjects' messages as get-message shows them, by id. */
async function presentedMessages(db: Db, subjects: EventSubject[]): Promise<Map<string, unknown>> {
  const rows = await inChunks(subjects, (ids) =>
    db
      .selectFrom('messages as m')
      .innerJoin('contacts as c', 'c.id', 'm.contact_id')
      .selectAll('m')
      .select('c.phone as contact_phone')
      .$narrowType<{ contact_id: string }>()
      .where('m.id', 'in', ids)
      .execute(),
  );
  return new Map(rows.map((row) => [row.id, presentMessage(row)]));
}
