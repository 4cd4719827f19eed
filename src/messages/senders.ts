import type { Kysely } from 'kysely';
import type { Database, SenderType } from '../db/schema.js';

/** Who sent an outbound message, as the thread names them. */
export interface MessageSender {
  type: SenderType;
  id: string | null;
  /**
   * The member's name (else email), the token's, campaign's, sequence's or flow's name; "" when it is gone;
   * the AI assistant's name (`ai`).
   */
  name: string;
}

type SenderColumns = { sender_type: SenderType | null; sender_id: string | null };
type Named = 'user' | 'api' | 'campaign' | 'sequence' | 'flow';
const TABLES = {
  user: 'users',
  api: 'api_tokens',
  campaign: 'campaigns',
  sequence: 'sequences',
  flow: 'flows',
} as const satisfies Record<Named, keyof Database>;

const keyOf = (type: string, id: string | null) => `${type}:${id ?? ''}`;

/** What the AI assistant's messages are signed with until the workspace names it (src/assistant/). */
export const DEFAULT_ASSISTANT_NAME = 'AI assistant';

/** The workspace's name for its AI assistant, read only when the page has one of its messages. */
async function assistantName(db: Kysely<Database>, workspaceId: string, rows: SenderColumns[]): Promise<string> {
  if (!rows.some((row) => row.sender_type === 'ai')) return DEFAULT_ASSISTANT_NAME;
  const settings = await db
    .selectFrom('assistant_settings')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return settings?.name || DEFAULT_ASSISTANT_NAME;
}

/**
 * The senders of a page of messages, named: one query per kind of sender present on the page.
 * Read here rather than asked of each domain's service, since it is only their names.
 */
export async function namedSenders(
  db: Kysely<Database>,
  workspaceId: string,
  rows: SenderColumns[],
): Promise<(row: SenderColumns) => MessageSender | null> {
  const names = new Map<string, string>();
  for (const [type, table] of Object.entries(TABLES) as [Named, (typeof TABLES)[Named]][]) {
    const ids = [...new Set(rows.filter((r) => r.sender_type === type && r.sender_id).map((r) => r.sender_id!))];
    if (ids.length === 0) continue;
    const found =
      table === 'users'
        ? await db
            .selectFrom('users')
            .select(['id', 'name', 'email'])
            .where('workspace_id', '=', workspaceId)
            .where('id', 'in', ids)
            .execute()
        : await db
            .selectFrom(table)
            .select(['id', 'name'])
            .where('workspace_id', '=', workspaceId)
            .where('id', 'in', ids)
            .execute();
    for (const row of found as { id: string; name: string; email?: string }[]) {
      names.set(keyOf(type, row.id), row.name || (row.email ?? ''));
    }
  }
  names.set(keyOf('ai', null), await assistantName(db, workspaceId, rows));
  return (row) =>
    row.sender_type && {
      type: row.sender_type,
      id: row.sender_id,
      name: names.get(keyOf(row.sender_type, row.sender_id)) ?? '',
    };
}
