import { sql, type Kysely, type SqlBool, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema.js';
import type { HourBucketing } from './local-hours.js';
import type { ReportFilter, Span } from './report-filter.js';

type Db = Kysely<Database>;

/** A count of one local-hour bucket (see local-hours.ts). */
export interface BucketCount {
  bucket: string;
  n: number | string;
}

/**
 * The volume report's reads (messages, conversation_spans; conversations, conversation_label_links and
 * contacts only to narrow): each one statement counting rows of one range by local-hour bucket, so the
 * database returns at most a few thousand rows however many messages the range holds.
 */
export function volumeRepository(db: Db, filter: ReportFilter, hours: HourBucketing) {
  return {
    /** Messages created within the range by direction and bucket, narrowed by number, team and label. */
    async messages(range: Span): Promise<(BucketCount & { direction: 'inbound' | 'outbound' })[]> {
      let query = db
        .selectFrom('messages as m')
        .select((eb) => [
          'm.direction',
          hours.expression('m.created_at').as('bucket'),
          eb.fn.countAll<number>().as('n'),
        ])
        .where('m.workspace_id', '=', filter.workspaceId)
        // Both directions named, so each is a range scan of the (workspace, direction, created_at) index.
        .where('m.direction', 'in', ['inbound', 'outbound'])
        .where('m.created_at', '>=', range.start)
        .where('m.created_at', '<', range.end)
        .groupBy(['m.direction', 'bucket']);
      if (filter.channelId !== null) query = query.where('m.channel_id', '=', filter.channelId);
      for (const condition of conversationNarrowing(filter, 'm.contact_id')) query = query.where(condition);
      return query.execute();
    },

    /** Conversations opened (`opened_at`) or closed (`closed_at`) within the range, by bucket. */
    async spans(column: 'opened_at' | 'closed_at', range: Span): Promise<BucketCount[]> {
      let query = db
        .selectFrom('conversation_spans as s')
        .select((eb) => [hours.expression(`s.${column}`).as('bucket'), eb.fn.countAll<number>().as('n')])
        .where('s.workspace_id', '=', filter.workspaceId)
        .where(`s.${column}`, '>=', range.start)
        .where(`s.${column}`, '<', range.end)
        .groupBy('bucket');
      if (filter.channelId !== null) {
        // A conversation's number: the one its contact last wrote to (where the conversation continues).
        query = query.where(
          sql<SqlBool>`s.contact_id IN (SELECT id FROM contacts
            WHERE workspace_id = ${filter.workspaceId} AND conversation_channel_id = ${filter.channelId})`,
        );
      }
      for (const condition of conversationNarrowing(filter, 's.contact_id')) query = query.where(condition);
      return query.execute();
    },
  };
}

/** Conditions keeping the rows of conversations (by contact) in the filter's team queue and carrying its label. */
function conversationNarrowing(filter: ReportFilter, contact: string): RawBuilder<SqlBool>[] {
  const conditions: RawBuilder<SqlBool>[] = [];
  if (filter.teamId !== null) {
    conditions.push(sql<SqlBool>`${sql.ref(contact)} IN (SELECT contact_id FROM conversations
      WHERE workspace_id = ${filter.workspaceId} AND team_id = ${filter.teamId})`);
  }
  if (filter.labelId !== null) {
    conditions.push(sql<SqlBool>`${sql.ref(contact)} IN (SELECT contact_id FROM conversation_label_links
      WHERE workspace_id = ${filter.workspaceId} AND label_id = ${filter.labelId})`);
  }
  return conditions;
}
