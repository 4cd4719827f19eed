import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { isUniqueViolation } from '../db/sql.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import type { ResendCampaignInput } from './campaign.schema.js';
import { storedVariables } from './campaign.content.js';
import { campaignDefinition, insertScheduledCampaign } from './campaign.schedule.js';

type Db = Kysely<Database>;

/**
 * Makes the resend of a sent campaign: the same template, translation, variables, media header and
 * number, addressed to its recipients whose message was sent or delivered but not read when the
 * resend is dispatched (at `scheduled_at`, or now). A campaign is resent once: asking again, or a
 * retry racing the first call, answers the resend already made. Returns the resend's id.
 */
export async function resendCampaign(
  deps: Pick<Deps, 'db' | 'clock' | 'newId'>,
  workspaceId: string,
  input: ResendCampaignInput,
): Promise<string> {
  const { db } = deps;
  const source = await sourceCampaign(db, workspaceId, input.campaign_id);
  const existing = await resendOf(db, source.id);
  if (existing) return existing;
  if (!source.template_id) throw errors.notFound('template', 'template_id');
  // Checked as create-campaign checks: a template deleted or no longer APPROVED since is refused now.
  const definition = await campaignDefinition(db, workspaceId, {
    template_id: source.template_id,
    ...(source.language && { language: source.language }),
    variables: storedVariables(source.variables),
    ...(source.header_media_url && { header_media_url: source.header_media_url }),
    // Replaced below by the resend's own audience, which create-campaign does not take.
    audience: { search: {} },
    ...(input.scheduled_at && { scheduled_at: input.scheduled_at }),
  });
  const id = deps.newId();
  const name = input.name?.trim() || `${source.name} (resend)`;
  try {
    await db.transaction().execute(async (trx) => {
      await insertScheduledCampaign(
        trx,
        deps,
        { id, workspaceId, name },
        { ...definition, audience: JSON.stringify({ not_read_of: source.id }), channel_id: source.channel_id },
      );
      await trx.updateTable('campaigns').set({ resend_of: source.id }).where('id', '=', id).execute();
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return (await resendOf(db, source.id))!;
  }
  return id;
}

/** The campaign to resend: this workspace's (404 otherwise), and sent (409: nobody has had it yet). */
async function sourceCampaign(db: Db, workspaceId: string, id: string) {
  const source = await db
    .selectFrom('campaigns')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!source) throw errors.notFound('campaign', 'campaign_id');
  if (source.status !== 'sent') {
    throw errors.conflict(`The campaign is ${source.status}; only a sent campaign can be resent`, {
      campaign_status: source.status,
    });
  }
  return source;
}

async function resendOf(db: Db, sourceId: string): Promise<string | undefined> {
  const row = await db.selectFrom('campaigns').select('id').where('resend_of', '=', sourceId).executeTakeFirst();
  return row?.id;
}
