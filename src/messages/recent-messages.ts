import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { namedSenders } from './senders.js';
import { errors } from '../shared/errors.js';
import { presentMessage } from './message.presenter.js';
import type { ListedMessage } from './message.schema.js';

/** How much of a conversation the simulator shows. */
const RECENT = 50;

/**
 * A contact's latest `limit` messages in both directions, newest first, each with who sent it (the
 * list-messages action). Private notes live apart and never appear here.
 */
export async function latestMessages(
  db: Kysely<Database>,
  workspaceId: string,
  contact: { id: string; phone: string },
  limit: number,
): Promise<ListedMessage[]> {
  const rows = await db
    .selectFrom('messages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('contact_id', '=', contact.id)
    .$narrowType<{ contact_id: string }>()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const senderOf = await namedSenders(db, workspaceId, rows);
  return rows.map((row) => ({ ...presentMessage({ ...row, contact_phone: contact.phone }), sender: senderOf(row) }));
}

/** A contact and their latest messages in both directions, oldest first (for the Simulator panel). */
export async function recentMessages(
  db: Kysely<Database>,
  workspaceId: string,
  contactId: string,
): Promise<{ contact: { id: string; phone: string; name: string | null }; messages: ListedMessage[] }> {
  const contact = await db
    .selectFrom('contacts')
    .select(['id', 'phone', 'name'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', contactId)
    .executeTakeFirst();
  if (!contact) throw errors.notFound('contact', 'contact_id');
  const messages = await latestMessages(db, workspaceId, contact, RECENT);
  return { contact, messages: messages.reverse() };
}
