import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { at } from './inbox.presenter.js';

/** A staff member's private note in a conversation, as the thread shows it (never sent to WhatsApp). */
export interface ConversationNote {
  id: string;
  body: string;
  /** Who wrote it; null once they have left the workspace, and for the AI assistant's notes. */
  author: { id: string; name: string } | null;
  /** The AI assistant's name when it wrote the note (its hand-over summary); null for a member's note. */
  ai_author: string | null;
  created_at: string;
}

/** SQL for conversation notes; every query is scoped to one workspace. */
export function noteRepository(db: Kysely<Database>) {
  return {
    /** A conversation's notes from `from` (inclusive, null: the start) to `to` (exclusive, null: now), oldest first. */
    async between(workspaceId: string, contactId: string, from: string | null, to: string | null) {
      let query = db
        .selectFrom('conversation_notes as n')
        .leftJoin('users as u', (join) =>
          join.onRef('u.id', '=', 'n.author_id').onRef('u.workspace_id', '=', 'n.workspace_id'),
        )
        .select([
          'n.id',
          'n.body',
          'n.ai_author',
          'n.created_at',
          'u.id as author_id',
          'u.name as author_name',
          'u.email as author_email',
        ])
        .where('n.workspace_id', '=', workspaceId)
        .where('n.contact_id', '=', contactId);
      if (from) query = query.where('n.created_at', '>=', from);
      if (to) query = query.where('n.created_at', '<', to);
      const rows = await query.orderBy('n.created_at').orderBy('n.id').execute();
      return rows.map((row): ConversationNote => ({
        id: row.id,
        body: row.body,
        author: row.author_id ? { id: row.author_id, name: row.author_name || (row.author_email ?? '') } : null,
        ai_author: row.ai_author,
        created_at: at(row.created_at)!,
      }));
    },

    /** A member's note (`author_id`), or the AI assistant's (`ai_author`, its name; no member). */
    async insert(note: {
      id: string;
      workspace_id: string;
      contact_id: string;
      author_id: string | null;
      ai_author?: string;
      body: string;
      created_at: string;
    }) {
      await db.insertInto('conversation_notes').values(note).execute();
    },
  };
}
