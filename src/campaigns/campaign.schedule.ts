import type { Kysely } from 'kysely';
import { cancelJobs, scheduleJob } from '../automation/scheduler.js';
import { given } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { normaliseAudience } from './campaign.audience.js';
import { checkTemplate } from './campaign.content.js';
import type { CreateCampaignInput } from './campaign.schema.js';
import { campaignProblems } from './campaign.problems.js';

// A scheduled campaign: its definition checked and normalised, written with its dispatch job, and
// replaced while it is still scheduled (create-campaign, resend-campaign and `parley import` alike).

type Db = Kysely<Database>;

/** A scheduled campaign's stored columns, as create-campaign checks and normalises them. */
export interface CampaignDefinition {
  template_id: string;
  language: string;
  /** JSON array or object, as stored. */
  variables: string;
  /** JSON object, as stored. */
  audience: string;
  header_media_url: string | null;
  scheduled_at: string | null;
  /** The channel to send from; absent: each contact's conversation number, else the default. */
  channel_id?: string | null;
  /** Recipients past the portfolio's room: sent anyway, or when room returns. */
  over_limit: 'send' | 'wait';
}

/**
 * create-campaign's checks (template, variables, audience, time) without writing anything, so
 * `parley import` creates and replaces scheduled campaigns under exactly the same rules.
 */
export async function campaignDefinition(
  db: Db,
  workspaceId: string,
  input: Omit<CreateCampaignInput, 'name'>,
): Promise<CampaignDefinition> {
  const { templateId, language, variables, headerMediaUrl } = await checkTemplate(db, workspaceId, input);
  const audience = await normaliseAudience(db, workspaceId, input.audience);
  const scheduledAt = scheduledTime(input.scheduled_at);
  return {
    template_id: templateId,
    language,
    variables: JSON.stringify(variables),
    audience: JSON.stringify(audience),
    header_media_url: given(headerMediaUrl) ?? null,
    scheduled_at: scheduledAt && toStoredTimestamp(scheduledAt),
    over_limit: input.over_limit ?? 'send',
  };
}

/** Writes a scheduled campaign and its dispatch job in the caller's transaction (the caller wakes the scheduler). */
export async function insertScheduledCampaign(
  trx: Db,
  deps: Pick<Deps, 'clock' | 'newId'>,
  campaign: { id: string; workspaceId: string; name: string },
  definition: CampaignDefinition,
): Promise<void> {
  const at = toStoredTimestamp(deps.clock.now());
  await trx
    .insertInto('campaigns')
    .values({
      id: campaign.id,
      workspace_id: campaign.workspaceId,
      name: campaign.name,
      status: 'scheduled',
      ...definition,
      sent_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await scheduleDispatch(trx, deps, campaign, definition.scheduled_at);
}

/**
 * Replaces a campaign's definition and re-times its dispatch, only while it is still scheduled;
 * false (and nothing changed) once it has been dispatched or cancelled.
 */
export async function replaceScheduledCampaign(
  trx: Db,
  deps: Pick<Deps, 'clock' | 'newId'>,
  campaign: { id: string; workspaceId: string },
  definition: CampaignDefinition,
): Promise<boolean> {
  // The job goes first: a dispatch already running holds it, so this waits for that to commit and
  // then finds the campaign no longer scheduled; one merely claimed finds its job gone and never runs.
  await cancelJobs(trx, campaign.id, 'campaign_dispatch');
  const replaced = await trx
    .updateTable('campaigns')
    .set({ ...definition, updated_at: toStoredTimestamp(deps.clock.now()) })
    .where('workspace_id', '=', campaign.workspaceId)
    .where('id', '=', campaign.id)
    .where('status', '=', 'scheduled')
    .executeTakeFirst();
  if (Number(replaced.numUpdatedRows) === 0) return false;
  await scheduleDispatch(trx, deps, campaign, definition.scheduled_at);
  return true;
}

/** The dispatch job: at the scheduled time, or now when there is none (a past time runs at once too). */
function scheduleDispatch(
  trx: Db,
  deps: Pick<Deps, 'clock' | 'newId'>,
  campaign: { id: string; workspaceId: string },
  scheduledAt: string | null,
): Promise<void> {
  return scheduleJob(trx, deps, {
    workspaceId: campaign.workspaceId,
    kind: 'campaign_dispatch',
    subjectId: campaign.id,
    dueAt: scheduledAt ? new Date(scheduledAt) : deps.clock.now(),
  });
}

function scheduledTime(value: string | undefined): Date | null {
  const text = given(value)?.trim();
  if (!text) return null;
  const ms = Date.parse(text);
  // ajv's date-time admits forms Date cannot read (a leap second): refused, not a 500.
  if (Number.isNaN(ms)) throw errors.invalid(campaignProblems.problem('scheduled_at', 'unreadable_time'));
  return new Date(ms);
}
