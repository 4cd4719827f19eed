import type { Kysely, Updateable } from 'kysely';
import type { ConversationTable, Database } from '../db/schema.js';

/** The conversation columns a change may write (the inbox's state, routing's team and person). */
export type ConversationFields = Omit<Updateable<ConversationTable>, 'contact_id' | 'workspace_id' | 'updated_at'>;

/** Rows per multi-row upsert (8 bound values each, well under both engines' limits). */
const UPSERT_ROWS = 500;

/**
 * Writes the same fields on these conversations, creating their rows on first use (a contact's
 * conversation row exists only once something was set on it): the one write of the inbox and routing.
 */
export async function saveConversationStates(
  db: Kysely<Database>,
  workspaceId: string,
  contactIds: string[],
  fields: ConversationFields,
  at: string,
): Promise<void> {
  for (let i = 0; i < contactIds.length; i += UPSERT_ROWS) {
    const rows = contactIds.slice(i, i + UPSERT_ROWS).map((contactId) => ({
      contact_id: contactId,
      workspace_id: workspaceId,
      read_at: null,
      assignee_id: null,
      done_at: null,
      ...fields,
      updated_at: at,
    }));
    await db
      .insertInto('conversations')
      .values(rows)
      .onConflict((oc) => oc.column('contact_id').doUpdateSet({ ...fields, updated_at: at }))
      .execute();
  }
}

/** Gives an unassigned conversation to a person; false when someone took it meanwhile (it stays theirs). */
export async function claimConversation(
  db: Kysely<Database>,
  workspaceId: string,
  contactId: string,
  userId: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('conversations')
    .set({ assignee_id: userId, updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('contact_id', '=', contactId)
    .where('assignee_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
