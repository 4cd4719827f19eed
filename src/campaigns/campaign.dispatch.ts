import type { Kysely } from 'kysely';
import { scheduleJob, type Job, type JobHandler } from '../automation/scheduler.js';
import type { Database } from '../db/schema.js';
import { prepareOutbound, queueOutbound, type OutboundRow, isRefusal } from '../messages/index.js';
import { emitWebhookEvents } from '../outgoing/index.js';
import type { Deps } from '../db/deps.js';
import type { Dialect } from '../db/connection.js';
import { toStoredTimestamp } from '../shared/time.js';
import { audienceOf } from './campaign.audience.js';
import { composer } from './campaign.content.js';
import { dueTimesPastRoom, portfolioRoom } from './campaign.limit.js';
import type { StoredAudience } from './campaign.schema.js';

type Db = Kysely<Database>;

/** How often a sending campaign looks whether the outbox has settled all its messages. */
const CHECK_EVERY_MS = 1_000;
/**
 * Recipients one dispatch job queues, by engine, and the pause before the next page. On SQLite a page is a
 * transaction run on the event loop (120,000 in one held it ~30 s; pages of 2,000 back to back held every
 * request ~100 ms a page), and a hold past 25 ms makes waiting sends miss their pacing slots (throughput.ts):
 * 200 every 40 ms queue 5,000 a second, five times Meta's top tier. PostgreSQL's transaction waits off the
 * event loop, but each page costs a dozen round trips (the job's claim, the campaign's lock, the audience,
 * the insert, the next job, the commit): with three processes on one database pages of 200 were queued at
 * ~770 a second, below the tier, and pages of 1,000 at ~1,300.
 */
export const DISPATCH_PAGE: Record<Dialect, number> = { sqlite: 200, postgres: 1_000 };
export const DISPATCH_PAGE_SPACING_MS = 40;

/**
 * A campaign's sending, as scheduler jobs: each dispatch job resolves a page of the audience and queues
 * its messages in the job's transaction, with the job of the next page (so every page's messages exist
 * exactly once, whatever stops in between); after the last page a check every second marks the campaign
 * sent once the outbox has settled them all.
 */
export function createCampaignJobs(deps: Deps) {
  const { clock } = deps;
  const now = () => toStoredTimestamp(clock.now());

  async function scheduleCheck(trx: Db, campaign: { id: string; workspace_id: string }): Promise<void> {
    await scheduleJob(trx, deps, {
      workspaceId: campaign.workspace_id,
      kind: 'campaign_check',
      subjectId: campaign.id,
      dueAt: new Date(clock.now().getTime() + CHECK_EVERY_MS),
    });
  }

  /** Re-times the messages past the portfolio's room to when room returns (`over_limit: wait`). */
  async function waitForRoom(
    trx: Db,
    campaign: { workspace_id: string; channel_id: string | null },
    rows: OutboundRow[],
  ) {
    const now = clock.now();
    const room = await portfolioRoom(trx, campaign.workspace_id, { channelId: campaign.channel_id }, now);
    const free = room?.room ?? null;
    if (room === null || free === null || rows.length <= free) return;
    dueTimesPastRoom(room, rows.length - free, now).forEach((at, k) => {
      rows[free + k]!.next_attempt_at = toStoredTimestamp(at);
    });
  }

  /**
   * The campaign a dispatch job works for, its row locked: the first page moves it to `sending` (a
   * concurrent cancel waits, then fails what this queued); later pages find it still sending.
   */
  function lockedForDispatch(trx: Db, campaignId: string, firstPage: boolean) {
    return trx
      .updateTable('campaigns')
      .set({ status: 'sending', updated_at: now() })
      .where('id', '=', campaignId)
      .where('status', '=', firstPage ? 'scheduled' : 'sending')
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * `campaign_dispatch`: one message per audience member of a page, less the opted-out and those a
   * placeholder leaves empty. A campaign that waits for its portfolio's room is dispatched in one page:
   * the waiting recipients' times are worked out from the room the whole audience leaves.
   */
  async function dispatch(trx: Db, job: Job): Promise<void> {
    const after = typeof job.payload.after === 'string' ? job.payload.after : null;
    const campaign = await lockedForDispatch(trx, job.subject_id, after === null);
    if (!campaign) return;
    const compose = await composer(trx, campaign);
    if (!compose) {
      await trx
        .updateTable('campaigns')
        .set({ status: 'failed', updated_at: now() })
        .where('id', '=', campaign.id)
        .execute();
      return;
    }
    const page = campaign.over_limit === 'wait' ? undefined : { after, limit: DISPATCH_PAGE[deps.dialect] };
    const audience = await audienceOf(
      trx,
      campaign.workspace_id,
      JSON.parse(campaign.audience) as StoredAudience,
      page,
    );
    // A broadcast never reaches a contact who opted out, whatever the template's category.
    const campaignSender = { type: 'campaign' as const, id: campaign.id };
    const rows = audience.flatMap((contact): OutboundRow[] => {
      const content = contact.opted_out_at ? null : compose(contact);
      if (!content) return [];
      const prepared = prepareOutbound(
        deps,
        contact,
        { type: 'template', content },
        campaignSender,
        campaign.channel_id,
      );
      return isRefusal(prepared) ? [] : [prepared];
    });
    if (campaign.over_limit === 'wait') await waitForRoom(trx, campaign, rows);
    await queueOutbound(trx, rows);
    await trx
      .updateTable('campaigns')
      .set((eb) => ({
        recipients: eb('recipients', '+', rows.length),
        skipped: eb('skipped', '+', audience.length - rows.length),
        opted_out: eb('opted_out', '+', audience.filter((contact) => contact.opted_out_at).length),
        updated_at: now(),
      }))
      .where('id', '=', campaign.id)
      .execute();
    if (page && audience.length === page.limit) {
      await scheduleJob(trx, deps, {
        workspaceId: campaign.workspace_id,
        kind: 'campaign_dispatch',
        subjectId: campaign.id,
        payload: { after: audience.at(-1)!.id },
        dueAt: new Date(clock.now().getTime() + DISPATCH_PAGE_SPACING_MS),
      });
    } else await scheduleCheck(trx, campaign);
  }

  /** `campaign_check`: sent once no message is waiting in the outbox; otherwise looks again later. */
  async function check(trx: Db, job: Job): Promise<void> {
    const campaign = await trx
      .selectFrom('campaigns')
      .select(['id', 'workspace_id', 'status'])
      .where('id', '=', job.subject_id)
      .executeTakeFirst();
    if (campaign?.status !== 'sending') return;
    const waiting = await trx
      .selectFrom('messages')
      .select('id')
      .where('campaign_id', '=', campaign.id)
      .where('status', '=', 'queued')
      .limit(1)
      .executeTakeFirst();
    if (waiting) return scheduleCheck(trx, campaign);
    const at = now();
    await trx
      .updateTable('campaigns')
      .set({ status: 'sent', sent_at: at, updated_at: at })
      .where('id', '=', campaign.id)
      .where('status', '=', 'sending')
      .execute();
    await emitWebhookEvents(trx, deps, 'new-campaign-sent', [{ workspaceId: campaign.workspace_id, id: campaign.id }]);
  }

  /** The scheduler's handlers; spread them into createScheduler's handler map. */
  return {
    campaign_dispatch: { run: dispatch },
    campaign_check: { run: check },
  } satisfies Record<'campaign_dispatch' | 'campaign_check', JobHandler>;
}
