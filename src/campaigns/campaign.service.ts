import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { cancelJobs } from '../automation/scheduler.js';
import { given } from '../contacts/index.js';
import type { CampaignTable, Database, MessageTable } from '../db/schema.js';
import { deliveryCounts, emitStatusChanges, messageRepository } from '../messages/index.js';
import type { ChannelService } from '../channels/index.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { storedVariables } from './campaign.content.js';
import { campaignDefinition, insertScheduledCampaign } from './campaign.schedule.js';
import {
  CAMPAIGN_LIST_CAP,
  type Campaign,
  type CampaignStatus,
  type CreateCampaignInput,
  type ResendCampaignInput,
} from './campaign.schema.js';
import { resendCampaign } from './campaign.resend.js';
import { campaignProblems } from './campaign.problems.js';

type Db = Kysely<Database>;
type CampaignRow = Selectable<CampaignTable> & { template_name: string | null };
type MessageCounts = Omit<Campaign['counts'], 'recipients' | 'skipped' | 'opted_out'>;

const CANCELLABLE: CampaignStatus[] = ['scheduled', 'sending'];
const CANCELLED_ERROR = JSON.stringify({ code: null, title: 'campaign cancelled', details: null });

/**
 * Broadcast campaigns: one approved template to an audience (a tag, a list of contacts or a saved
 * search), now or at a set time. Made, listed, resent and cancelled here; sent by the scheduler's jobs
 * (campaign.dispatch.ts).
 */
export function createCampaignService(
  deps: Deps,
  wakeScheduler: () => void,
  channels: Pick<ChannelService, 'channelIdOf'>,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  async function get(caller: Caller, input: { campaign_id: string }): Promise<Campaign> {
    const row = await campaignRows(db, caller.workspaceId).where('k.id', '=', input.campaign_id).executeTakeFirst();
    if (!row) throw errors.notFound('campaign', 'campaign_id');
    return (await presentAll(db, [row]))[0]!;
  }

  return {
    /** create-campaign: checks the template up front, then schedules the dispatch (now or at scheduled_at). */
    async create(caller: Caller, input: CreateCampaignInput): Promise<Campaign> {
      const name = input.name.trim();
      if (!name) throw errors.invalid(campaignProblems.problem('name', 'not_blank'));
      const from = input.from_phone_number_id;
      const channelId = from ? await channels.channelIdOf(caller.workspaceId, from) : null;
      const definition = { ...(await campaignDefinition(db, caller.workspaceId, input)), channel_id: channelId };
      const id = newId();
      await db
        .transaction()
        .execute((trx) =>
          insertScheduledCampaign(trx, deps, { id, workspaceId: caller.workspaceId, name }, definition),
        );
      wakeScheduler();
      return get(caller, { campaign_id: id });
    },

    /** get-campaign: the campaign with its live counts. */
    get,

    /** list-campaigns: newest first, at most CAMPAIGN_LIST_CAP. */
    async list(caller: Caller, input: { status?: CampaignStatus | '' }): Promise<Campaign[]> {
      let query = campaignRows(db, caller.workspaceId);
      const status = given(input.status);
      if (status) query = query.where('k.status', '=', status);
      const rows = await query
        .orderBy('k.created_at', 'desc')
        .orderBy('k.id', 'desc')
        .limit(CAMPAIGN_LIST_CAP)
        .execute();
      return presentAll(db, rows);
    },

    /** resend-campaign: a new campaign of the same message to those who did not read it (one per campaign). */
    async resend(caller: Caller, input: ResendCampaignInput): Promise<Campaign> {
      const id = await resendCampaign(deps, caller.workspaceId, input);
      wakeScheduler();
      return get(caller, { campaign_id: id });
    },

    /** cancel-campaign: drops the pending job and fails the messages the outbox has not sent yet. */
    async cancel(caller: Caller, input: { campaign_id: string }): Promise<Campaign> {
      const id = input.campaign_id;
      await db.transaction().execute(async (trx) => {
        const at = now();
        const cancelled = await trx
          .updateTable('campaigns')
          .set({ status: 'cancelled', updated_at: at })
          .where('workspace_id', '=', caller.workspaceId)
          .where('id', '=', id)
          .where('status', 'in', CANCELLABLE)
          .executeTakeFirst();
        if (Number(cancelled.numUpdatedRows) === 0) await refuseCancel(trx, caller.workspaceId, id);
        await cancelJobs(trx, id);
        const failed = await messageRepository(trx).failQueuedOfCampaign(id, CANCELLED_ERROR, at);
        const changes = failed.map((message) => ({
          workspaceId: caller.workspaceId,
          id: message.id,
          status: 'failed',
          inGroup: false,
        }));
        await emitStatusChanges(trx, deps, changes);
      });
      return get(caller, { campaign_id: id });
    },
  };
}

export type CampaignService = ReturnType<typeof createCampaignService>;

/** A campaign that cannot be cancelled: unknown (404) or already over (409). */
async function refuseCancel(db: Db, workspaceId: string, id: string): Promise<never> {
  const current = await db
    .selectFrom('campaigns')
    .select('status')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!current) throw errors.notFound('campaign', 'campaign_id');
  throw errors.conflict(`The campaign is already ${current.status}; only a scheduled or sending one can be cancelled`, {
    campaign_status: current.status,
  });
}

function campaignRows(db: Db, workspaceId: string) {
  return db
    .selectFrom('campaigns as k')
    .leftJoin('templates as t', 't.id', 'k.template_id')
    .selectAll('k')
    .select('t.name as template_name')
    .where('k.workspace_id', '=', workspaceId);
}

/** The campaigns with their live counts: two grouped queries for the whole page, not two per campaign. */
async function presentAll(db: Db, rows: CampaignRow[]): Promise<Campaign[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const byStatus = await db
    .selectFrom('messages')
    .select((eb) => ['campaign_id', 'status', eb.fn.countAll<number>().as('n')])
    .where('campaign_id', 'in', ids)
    .groupBy(['campaign_id', 'status'])
    .execute();
  const replied = new Map((await repliedCounts(db, ids)).map((row) => [row.campaign_id, Number(row.n)]));
  return rows.map((row) => {
    const own = byStatus.filter((count) => count.campaign_id === row.id);
    const counts = deliveryCounts(own.map((count) => ({ status: count.status, n: Number(count.n) })));
    return present(row, { ...counts, replied: replied.get(row.id) ?? 0 });
  });
}

/** Recipients with an inbound message since their campaign message was queued (the dispatch). */
export function repliedCounts(db: Db, campaignIds: string[]) {
  return db
    .selectFrom('messages as m')
    .select((eb) => ['m.campaign_id', eb.fn.count<number>('m.contact_id').distinct().as('n')])
    .where('m.campaign_id', 'in', campaignIds)
    .where(repliedSince)
    .groupBy('m.campaign_id')
    .execute();
}

/**
 * The one rule of "replied" (get-campaign's counts, the campaign report): the recipient of campaign
 * message `m` wrote in after it was queued.
 */
export function repliedSince(eb: ExpressionBuilder<Database & { m: MessageTable }, 'm'>) {
  return eb.exists(
    eb
      .selectFrom('messages as i')
      .select('i.id')
      .whereRef('i.contact_id', '=', 'm.contact_id')
      .where('i.direction', '=', 'inbound')
      .whereRef('i.created_at', '>=', 'm.created_at'),
  );
}

function present(row: CampaignRow, counts: MessageCounts): Campaign {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    template_id: row.template_id,
    template_name: row.template_name,
    language: row.language,
    variables: storedVariables(row.variables),
    audience: JSON.parse(row.audience) as Campaign['audience'],
    header_media_url: row.header_media_url,
    channel_id: row.channel_id,
    over_limit: row.over_limit,
    scheduled_at: formatTimestamp(row.scheduled_at),
    sent_at: formatTimestamp(row.sent_at),
    counts: { recipients: row.recipients, skipped: row.skipped, opted_out: row.opted_out, ...counts },
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}
