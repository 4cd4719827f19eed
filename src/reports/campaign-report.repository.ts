import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import { repliedSince } from '../campaigns/index.js';
import type { Dialect } from '../db/connection.js';
import type { Database, MessageTable } from '../db/schema.js';
import { jsonText, pricingColumns, type Pricing } from './pricing.js';
import { inTeamAndLabel, onNumber, type ReportFilter } from './report-filter.js';

type Db = Kysely<Database>;
type Recipients = SelectQueryBuilder<Database & { m: MessageTable }, 'm', object>;

/**
 * When a campaign's messages were queued: its dispatch runs at the scheduled time, or at creation
 * when none was set or it had passed.
 */
const dispatchedAt = sql<string>`(CASE WHEN k.scheduled_at IS NOT NULL AND k.scheduled_at > k.created_at THEN k.scheduled_at ELSE k.created_at END)`;

/**
 * The campaign report's reads, each one grouped statement for every campaign of the range (a campaign
 * of 100,000 recipients comes back as a few dozen rows). Reads campaigns, templates, messages,
 * contacts, conversations and conversation_label_links.
 */
export function campaignReportRepository(db: Db, dialect: Dialect) {
  /**
   * The message's contact as the team and label narrowing reads it. On SQLite, `+` keeps that narrowing
   * from choosing the index: without table statistics it would read every message of the team's
   * contacts (messages_contact) rather than the campaigns' (1.5 s at a million messages, no campaign).
   */
  const narrowingContact = dialect === 'sqlite' ? sql`+m.contact_id` : sql.ref('m.contact_id');

  /**
   * The campaign messages of the range's campaigns, narrowed by the report's number, team and label.
   * The workspace is the campaigns' (campaignsOf): a condition on messages.workspace_id would lead
   * SQLite to read every message of the workspace rather than the campaigns' own (messages_campaign).
   */
  function recipients(filter: ReportFilter): Recipients {
    return db
      .selectFrom('messages as m')
      .where('m.campaign_id', 'in', campaignsOf(filter).select('k.id'))
      .where(onNumber(filter, 'm'))
      .where(inTeamAndLabel(filter, narrowingContact));
  }

  function campaignsOf(filter: ReportFilter) {
    return db
      .selectFrom('campaigns as k')
      .where('k.workspace_id', '=', filter.workspaceId)
      .where(sql<boolean>`${dispatchedAt} >= ${filter.span.start}`)
      .where(sql<boolean>`${dispatchedAt} < ${filter.span.end}`)
      .where((eb: ExpressionBuilder<Database & { k: Database['campaigns'] }, 'k'>) =>
        eb.exists(eb.selectFrom('messages as d').select('d.id').whereRef('d.campaign_id', '=', 'k.id')),
      );
  }

  const priced = (pricing: Pricing) => pricingColumns(dialect, pricing);

  return {
    /** The campaigns dispatched in the range (those that queued messages), newest first, with their resend. */
    campaigns: (filter: ReportFilter) =>
      campaignsOf(filter)
        .leftJoin('templates as t', 't.id', 'k.template_id')
        .leftJoin('campaigns as r', (join) =>
          join.onRef('r.resend_of', '=', 'k.id').onRef('r.workspace_id', '=', 'k.workspace_id'),
        )
        .select(['k.id', 'k.name', 'k.status', 't.name as template_name', 'r.id as resent_as'])
        .select(dispatchedAt.as('dispatched_at'))
        .orderBy(dispatchedAt, 'desc')
        .orderBy('k.id', 'desc')
        .execute(),

    /**
     * Messages counted by campaign, status, Meta's pricing (category, type, billable) and the rate card
     * in effect when they were queued, with the
     * recipients' number prefix (calling code and a few digits: enough to find the market) and one
     * full number of each prefix to read it from.
     */
    statusAndPricing: (filter: ReportFilter, pricing: Pricing) =>
      recipients(filter)
        .innerJoin('contacts as c', 'c.id', 'm.contact_id')
        .select((eb) => [
          'm.campaign_id',
          'm.status',
          priced(pricing).category.as('category'),
          priced(pricing).billable.as('billable'),
          priced(pricing).pricing_type.as('pricing_type'),
          priced(pricing).card.as('card'),
          sql<string>`substr(c.phone, 1, 5)`.as('prefix'),
          eb.fn.min('c.phone').as('phone'),
          eb.fn.countAll<number | string>().as('n'),
        ])
        .groupBy(['m.campaign_id', 'm.status', 'category', 'billable', 'pricing_type', 'card', 'prefix'])
        .execute(),

    /** Failed messages by campaign and error (code and title, as stored from Meta or Parley). */
    failures: (filter: ReportFilter) =>
      recipients(filter)
        .where('m.status', '=', 'failed')
        .select((eb) => [
          'm.campaign_id',
          jsonText(dialect, 'm.error', ['code']).as('code'),
          jsonText(dialect, 'm.error', ['title']).as('title'),
          eb.fn.countAll<number | string>().as('n'),
        ])
        .groupBy(['m.campaign_id', 'code', 'title'])
        .execute(),

    /** Recipients who replied (campaign.service's rule) and who opted out since their message, by campaign. */
    responses: (filter: ReportFilter) =>
      recipients(filter)
        .innerJoin('contacts as c', 'c.id', 'm.contact_id')
        .select((eb) => [
          'm.campaign_id',
          eb.fn
            .count<number | string>(eb.case().when(repliedSince(eb)).then(eb.ref('m.contact_id')).end())
            .distinct()
            .as('replied'),
          eb.fn
            .count<number | string>(
              eb
                .case()
                .when(eb('c.opted_out_at', 'is not', null).and('c.opted_out_at', '>=', eb.ref('m.created_at')))
                .then(eb.ref('m.contact_id'))
                .end(),
            )
            .distinct()
            .as('opted_out'),
        ])
        .groupBy('m.campaign_id')
        .execute(),
  };
}
