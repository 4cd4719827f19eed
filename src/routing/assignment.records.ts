import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { formatTimestamp } from '../shared/time.js';
import { assignmentRepository } from './assignment.repository.js';

/** The `data` of a `conversation-assigned` webhook event: who handles the conversation now. */
export interface AssignmentRecord {
  contact_id: string;
  team: { id: string; name: string } | null;
  assignee: { id: string; name: string; email: string } | null;
  assigned_at: string;
}

/** The assignment records of these contacts' conversations, read in the event's transaction. */
export async function assignmentRecords(db: Kysely<Database>, contactIds: string[]): Promise<AssignmentRecord[]> {
  const rows = await assignmentRepository(db).records(contactIds);
  return rows.map((row) => ({
    contact_id: row.contact_id,
    team: row.team_id ? { id: row.team_id, name: row.team_name ?? '' } : null,
    assignee: row.assignee_id
      ? { id: row.assignee_id, name: row.assignee_name ?? '', email: row.assignee_email ?? '' }
      : null,
    assigned_at: formatTimestamp(row.updated_at),
  }));
}
