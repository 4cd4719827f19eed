import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { formatTimestamp } from '../shared/time.js';
import { triggerRepository, type CampaignRecord, type WhatsappFlowAnswerRecord } from '../triggers/index.js';

type Db = Kysely<Database>;

/** What an event is about: a record of one workspace. */
export interface EventSubject {
  workspaceId: string;
  id: string;
}

/** Ids per IN list: well under both engines' bound-parameter limits. */
const CHUNK = 500;

/**
 * The `data` of each event type, by subject id, read in the event's own transaction: exactly the
 * record the matching trigger feed returns for it at that moment (for message status changes, the
 * message as get-message returns it). A subject whose record does not exist (any more) is absent.
 */
export const eventRecords = {
  /** The new-message-received record stored with the message (JSON text). */
  async 'new-message-received'(db: Db, subjects: EventSubject[]): Promise<Map<string, unknown>> {
    const rows = await inChunks(subjects, (ids) =>
      db.selectFrom('messages').select(['id', 'feed_record']).where('id', 'in', ids).execute(),
    );
    return new Map(rows.flatMap((row) => (row.feed_record ? [[row.id, JSON.parse(row.feed_record) as unknown]] : [])));
  },

  async 'new-campaign-sent'(db: Db, subjects: EventSubject[]): Promise<Map<string, CampaignRecord>> {
    const records = await inChunks(subjects, (ids) => triggerRepository(db).sentCampaignsById(ids));
    return new Map(records.map((record) => [record.id, record]));
  },

  // Runs and enrolments start one at a time, so their feeds' single-record reads suffice.
  'new-flow-triggered': (db: Db, subjects: EventSubject[]) =>
    eachRecord(subjects, (s) => triggerRepository(db).flowRun(s.workspaceId, s.id)),

  'new-sequence-triggered': (db: Db, subjects: EventSubject[]) =>
    eachRecord(subjects, (s) => triggerRepository(db).sequenceEnrolment(s.workspaceId, s.id)),

  /** Answers of one workspace arrive together, in the transaction of their messages. */
  async 'new-whatsapp-flow-answer'(db: Db, subjects: EventSubject[]): Promise<Map<string, WhatsappFlowAnswerRecord>> {
    const records: WhatsappFlowAnswerRecord[] = [];
    for (const workspaceId of new Set(subjects.map((subject) => subject.workspaceId))) {
      const ofWorkspace = subjects.filter((subject) => subject.workspaceId === workspaceId);
      records.push(...(await inChunks(ofWorkspace, (ids) => triggerRepository(db).flowAnswersById(workspaceId, ids))));
    }
    return new Map(records.map((record) => [record.id, record]));
  },

  /** Who handles the conversation now (its team and person, src/routing/), by contact id. */
  async 'conversation-assigned'(db: Db, subjects: EventSubject[]): Promise<Map<string, AssignmentRecord>> {
    const rows = await inChunks(subjects, (ids) =>
      db
        .selectFrom('conversations as cv')
        .leftJoin('teams as t', 't.id', 'cv.team_id')
        .leftJoin('users as u', 'u.id', 'cv.assignee_id')
        .select(['cv.contact_id', 'cv.team_id', 't.name as team_name', 'cv.assignee_id', 'u.name as assignee_name'])
        .select(['u.email as assignee_email', 'cv.updated_at'])
        .where('cv.contact_id', 'in', ids)
        .execute(),
    );
    return new Map(
      rows.map((row) => [
        row.contact_id,
        {
          contact_id: row.contact_id,
          team: row.team_id ? { id: row.team_id, name: row.team_name ?? '' } : null,
          assignee: row.assignee_id
            ? { id: row.assignee_id, name: row.assignee_name ?? '', email: row.assignee_email ?? '' }
            : null,
          assigned_at: formatTimestamp(row.updated_at),
        },
      ]),
    );
  },
};

/** The `data` of a `conversation-assigned` event: who handles the conversation now. */
export interface AssignmentRecord {
  contact_id: string;
  team: { id: string; name: string } | null;
  assignee: { id: string; name: string; email: string } | null;
  assigned_at: string;
}

/** Each subject's record, read one by one; a subject without one is absent. */
async function eachRecord<Entry extends { id: string }>(
  subjects: EventSubject[],
  read: (subject: EventSubject) => Promise<Entry | undefined>,
): Promise<Map<string, Entry>> {
  const records = await Promise.all(subjects.map(read));
  return new Map(records.flatMap((record) => (record ? [[record.id, record] as const] : [])));
}

/** Rows for the subjects' distinct ids, read in IN lists of at most CHUNK ids. */
export async function inChunks<Row>(
  subjects: EventSubject[],
  query: (ids: string[]) => Promise<Row[]>,
): Promise<Row[]> {
  const ids = [...new Set(subjects.map((subject) => subject.id))];
  const rows: Row[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) rows.push(...(await query(ids.slice(i, i + CHUNK))));
  return rows;
}
