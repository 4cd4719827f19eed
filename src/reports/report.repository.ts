import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/** An instant range [start, end) in stored timestamp form. */
export interface Span {
  start: string;
  end: string;
}

/** The reads behind the Reports page, each one statement over one range. */
export function reportRepository(db: Db) {
  const spans = (workspaceId: string) =>
    db.selectFrom('conversation_spans as s').where('s.workspace_id', '=', workspaceId);
  return {
    async timeZone(workspaceId: string): Promise<string> {
      const row = await db
        .selectFrom('workspaces')
        .select('time_zone')
        .where('id', '=', workspaceId)
        .executeTakeFirstOrThrow();
      return row.time_zone;
    },

    /** When each conversation opened within the range. */
    opened: (workspaceId: string, range: Span) =>
      spans(workspaceId)
        .select('s.opened_at as at')
        .where('s.opened_at', '>=', range.start)
        .where('s.opened_at', '<', range.end)
        .execute(),

    /** The conversations closed within the range, with their times, who answered first and who closed them. */
    closed: (workspaceId: string, range: Span) =>
      spans(workspaceId)
        .leftJoin('users as u', 'u.id', 's.agent_id')
        .leftJoin('users as r', 'r.id', 's.first_responder_id')
        .select([
          's.opened_at',
          's.first_response_at',
          's.closed_at',
          's.agent_id',
          'u.name as agent_name',
          's.first_responder_id',
          'r.name as first_responder_name',
        ])
        .where('s.closed_at', '>=', range.start)
        .where('s.closed_at', '<', range.end)
        .execute(),

    /** Satisfaction ratings customers gave within the range (csat_surveys, read only), with their agent. */
    ratings: (workspaceId: string, range: Span) =>
      db
        .selectFrom('csat_surveys as c')
        .leftJoin('users as u', 'u.id', 'c.agent_id')
        .select(['c.rating', 'c.agent_id', 'u.name as agent_name'])
        .where('c.workspace_id', '=', workspaceId)
        .where('c.rated_at', '>=', range.start)
        .where('c.rated_at', '<', range.end)
        .execute(),

    /** Messages created within the range, counted by direction and status. */
    messageCounts: (workspaceId: string, range: Span) =>
      db
        .selectFrom('messages')
        .select((eb) => ['direction', 'status', eb.fn.countAll<number | string>().as('n')])
        .where('workspace_id', '=', workspaceId)
        .where('created_at', '>=', range.start)
        .where('created_at', '<', range.end)
        .groupBy(['direction', 'status'])
        .execute(),

    /** Outbound messages of the range that Meta reported pricing for (its status webhooks). */
    priced: (workspaceId: string, range: Span) =>
      db
        .selectFrom('messages')
        .select('delivery')
        .where('workspace_id', '=', workspaceId)
        .where('direction', '=', 'outbound')
        .where('created_at', '>=', range.start)
        .where('created_at', '<', range.end)
        .where('delivery', 'is not', null)
        .execute(),

    /** Campaigns dispatched within the range, newest first. */
    campaigns: (workspaceId: string, range: Span) =>
      db
        .selectFrom('campaigns')
        .select(['id', 'name', 'sent_at'])
        .where('workspace_id', '=', workspaceId)
        .where('sent_at', '>=', range.start)
        .where('sent_at', '<', range.end)
        .orderBy('sent_at', 'desc')
        .execute(),

    /** Every message of the campaigns: status, Meta's error and pricing. */
    campaignMessages: (workspaceId: string, campaignIds: string[]) =>
      campaignIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('messages')
            .select(['campaign_id', 'status', 'error', 'delivery'])
            .where('workspace_id', '=', workspaceId)
            .where('campaign_id', 'in', campaignIds)
            .execute(),

    rates: (workspaceId: string) =>
      db
        .selectFrom('message_rates')
        .select(['currency', 'rates'])
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst(),

    async saveRates(workspaceId: string, currency: string, rates: string, at: string): Promise<void> {
      await db
        .insertInto('message_rates')
        .values({ workspace_id: workspaceId, currency, rates, updated_at: at })
        .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ currency, rates, updated_at: at }))
        .execute();
    },
  };
}
