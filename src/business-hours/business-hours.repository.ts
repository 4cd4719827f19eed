import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { WEEKDAYS, type BusinessHours, type Interval, type Weekday } from './business-hours.rules.js';

/** What a workspace that never saved its hours reads: off, open weekdays 9 to 17, in its own time zone. */
export function defaultBusinessHours(timeZone: string): BusinessHours {
  const workday = [{ opens: '09:00', closes: '17:00' }];
  const weekly = Object.fromEntries(
    WEEKDAYS.map((day) => [day, day === 'saturday' || day === 'sunday' ? [] : workday]),
  ) as Record<Weekday, Interval[]>;
  return {
    enabled: false,
    time_zone: timeZone,
    weekly,
    holidays: [],
    away_message: 'Thanks for your message! We are closed right now and will answer as soon as we are back.',
  };
}

/** SQL for business_hours (one row per workspace that saved its hours) and away_replies. */
export function businessHoursRepository(db: Kysely<Database>) {
  return {
    /** The saved hours, or null when the workspace never saved any. */
    async find(workspaceId: string): Promise<BusinessHours | null> {
      const row = await db
        .selectFrom('business_hours')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      if (!row) return null;
      return {
        enabled: row.enabled === 1,
        time_zone: row.time_zone,
        weekly: JSON.parse(row.weekly) as Record<Weekday, Interval[]>,
        holidays: JSON.parse(row.holidays) as string[],
        away_message: row.away_message,
      };
    },

    async workspaceTimeZone(workspaceId: string): Promise<string> {
      const row = await db
        .selectFrom('workspaces')
        .select('time_zone')
        .where('id', '=', workspaceId)
        .executeTakeFirst();
      return row?.time_zone ?? 'UTC';
    },

    async save(workspaceId: string, hours: BusinessHours, at: string): Promise<void> {
      const fields = {
        enabled: hours.enabled ? 1 : 0,
        time_zone: hours.time_zone,
        weekly: JSON.stringify(hours.weekly),
        holidays: JSON.stringify([...hours.holidays].sort()),
        away_message: hours.away_message,
        updated_at: at,
      };
      await db
        .insertInto('business_hours')
        .values({ workspace_id: workspaceId, ...fields })
        .onConflict((oc) => oc.column('workspace_id').doUpdateSet(fields))
        .execute();
    },

    /** The contacts' open conversation spans (reports' table, read only): contact id → span id. */
    async openSpans(workspaceId: string, contactIds: string[]): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('conversation_spans')
        .select(['id', 'contact_id'])
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', 'in', contactIds)
        .where('closed_at', 'is', null)
        .execute();
      return new Map(rows.map((row) => [row.contact_id, row.id]));
    },

    /**
     * Claims the away reply of one conversation opening; false when it was claimed already (by this
     * process on a retried webhook, or by another process at the same moment: the primary key decides).
     */
    async claim(row: { span_id: string; workspace_id: string; contact_id: string; sent_at: string }): Promise<boolean> {
      const result = await db
        .insertInto('away_replies')
        .values({ ...row, message_id: null })
        .onConflict((oc) => oc.column('span_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    async noteMessage(spanId: string, messageId: string): Promise<void> {
      await db.updateTable('away_replies').set({ message_id: messageId }).where('span_id', '=', spanId).execute();
    },
  };
}
