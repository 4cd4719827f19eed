import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/**
 * A conversation's spans as they happen, for reports: the inbox keeps only a conversation's current
 * state. Each call runs in the transaction of what it records (the inbound message, the send, "done").
 */
export function conversationSpans(db: Db) {
  return {
    /** The customer wrote: opens a span for each conversation that has none open; returns the contacts whose span it opened. */
    async opened(workspaceId: string, contactIds: string[], at: string, newId: () => string): Promise<string[]> {
      if (contactIds.length === 0) return [];
      const open = await db
        .selectFrom('conversation_spans')
        .select('contact_id')
        .where('contact_id', 'in', contactIds)
        .where('closed_at', 'is', null)
        .execute();
      const already = new Set(open.map((row) => row.contact_id));
      const rows = [...new Set(contactIds)]
        .filter((id) => !already.has(id))
        .map((contactId) => ({ id: newId(), workspace_id: workspaceId, contact_id: contactId, opened_at: at }));
      if (rows.length === 0) return [];
      // Another process may open the same span between the read and the write: the unique index keeps one.
      const inserted = await db
        .insertInto('conversation_spans')
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .returning('contact_id')
        .execute();
      return inserted.map((row) => row.contact_id);
    },

    /**
     * A person or the API sent a message: the open span's first response, if it had none, credited to
     * `responderId` (the member who sent it; null for an API token).
     */
    async responded(workspaceId: string, contactId: string, at: string, responderId: string | null): Promise<void> {
      await db
        .updateTable('conversation_spans')
        .set({ first_response_at: at, first_responder_id: responderId })
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId)
        .where('closed_at', 'is', null)
        .where('first_response_at', 'is', null)
        .execute();
    },

    /**
     * An agent marked the conversation done: closes its open span, counted for `agentId` (null: nobody's,
     * the AI assistant closed it). Returns the span it closed; undefined when none was open (marked done
     * twice, or the customer never wrote).
     */
    async closed(
      workspaceId: string,
      contactId: string,
      agentId: string | null,
      at: string,
    ): Promise<{ id: string; agent_id: string | null } | undefined> {
      return db
        .updateTable('conversation_spans')
        .set({ closed_at: at, agent_id: agentId })
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId)
        .where('closed_at', 'is', null)
        .returning(['id', 'agent_id'])
        .executeTakeFirst();
    },
  };
}
