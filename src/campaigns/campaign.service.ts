import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { render, type RenderScope } from '../automation/render.js';
import { cancelJobs, scheduleJob, type Job, type JobHandler } from '../automation/scheduler.js';
import { given } from '../contacts/contact.input.js';
import type { CampaignTable, Database, MessageTable } from '../db/schema.js';
import { prepareOutbound, queueOutbound, type OutboundRow } from '../messages/outbound/queue.js';
import { isRefusal } from '../messages/outbound/rules.js';
import { deliveryCounts } from '../messages/delivery-counts.js';
import { fillVariables, mapVariables, variableValues } from '../messages/outbound/template-variables.js';
import { templateContent, type TemplateContent } from '../messages/outbound/template.js';
import { emitStatusChanges, emitWebhookEvents } from '../outgoing/webhook.events.js';
import type { ChannelService } from '../channels/channel.service.js';
import type { Caller, Deps } from '../shared/context.js';
import { errors, validOrNull } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { audienceOf, normaliseAudience, type Recipient } from './campaign.audience.js';
import { templateRepository, type TemplateRow, type TranslationRow } from '../templates/template.repository.js';
import {
  CAMPAIGN_LIST_CAP,
  type Campaign,
  type CampaignStatus,
  type CampaignVariables,
  type CreateCampaignInput,
  type ResendCampaignInput,
  type StoredAudience,
} from './campaign.schema.js';
import { resendCampaign } from './campaign.resend.js';
import { campaignProblems } from './campaign.problems.js';

type Db = Kysely<Database>;
type CampaignRow = Selectable<CampaignTable> & { template_name: string | null };
type MessageCounts = Omit<Campaign['counts'], 'recipients' | 'skipped' | 'opted_out'>;

/** How often a sending campaign looks whether the outbox has settled all its messages. */
const CHECK_EVERY_MS = 1_000;
const CANCELLABLE: CampaignStatus[] = ['scheduled', 'sending'];
const CANCELLED_ERROR = JSON.stringify({ code: null, title: 'campaign cancelled', details: null });
/** A contact with nothing to fill in: any placeholder a variable holds renders differently from itself. */
const BLANK_SCOPE: RenderScope = {
  contact: { name: null, phone: '', email: null, custom_attributes: '{}' },
  context: {},
};

const hasPlaceholder = (variable: string) => render(variable, BLANK_SCOPE) !== variable;

/**
 * Broadcast campaigns: one approved template to an audience (a tag, a list of contacts or a saved
 * search), now or at a set time. Dispatch and completion are scheduler jobs: the dispatch resolves
 * the audience and queues every message in the job's transaction (so they exist exactly if it
 * committed); a check every second marks the campaign sent once the outbox has settled them all.
 */
export function createCampaignService(
  deps: Deps,
  wakeScheduler: () => void,
  channels: Pick<ChannelService, 'channelIdOf'>,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  async function scheduleCheck(trx: Db, campaign: { id: string; workspace_id: string }): Promise<void> {
    await scheduleJob(trx, deps, {
      workspaceId: campaign.workspace_id,
      kind: 'campaign_check',
      subjectId: campaign.id,
      dueAt: new Date(clock.now().getTime() + CHECK_EVERY_MS),
    });
  }

  /** `campaign_dispatch`: one message per audience member, less the opted-out and those a placeholder leaves empty. */
  async function dispatch(trx: Db, job: Job): Promise<void> {
    // Moving to `sending` first locks the row: a concurrent cancel waits, then fails what this queued.
    const campaign = await trx
      .updateTable('campaigns')
      .set({ status: 'sending', updated_at: now() })
      .where('id', '=', job.subject_id)
      .where('status', '=', 'scheduled')
      .returningAll()
      .executeTakeFirst();
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
    const audience = await audienceOf(trx, campaign.workspace_id, JSON.parse(campaign.audience) as StoredAudience);
    const at = now();
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
    await queueOutbound(trx, rows);
    await trx
      .updateTable('campaigns')
      .set({
        recipients: rows.length,
        skipped: audience.length - rows.length,
        opted_out: audience.filter((contact) => contact.opted_out_at).length,
        updated_at: at,
      })
      .where('id', '=', campaign.id)
      .execute();
    await scheduleCheck(trx, campaign);
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

  async function get(caller: Caller, input: { campaign_id: string }): Promise<Campaign> {
    const row = await campaignRows(db, caller.workspaceId).where('k.id', '=', input.campaign_id).executeTakeFirst();
    if (!row) throw errors.notFound('campaign', 'campaign_id');
    return (await presentAll(db, [row]))[0]!;
  }

  return {
    /** The scheduler's handlers; spread them into createScheduler's handler map. */
    handlers: { campaign_dispatch: { run: dispatch }, campaign_check: { run: check } } satisfies Record<
      'campaign_dispatch' | 'campaign_check',
      JobHandler
    >,

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
        const failed = await trx
          .updateTable('messages')
          .set({ status: 'failed', error: CANCELLED_ERROR, next_attempt_at: null, updated_at: at })
          .where('campaign_id', '=', id)
          .where('status', '=', 'queued')
          .returning('id')
          .execute();
        const changes = failed.map((message) => ({
          workspaceId: caller.workspaceId,
          id: message.id,
          status: 'failed',
        }));
        await emitStatusChanges(trx, deps, changes);
      });
      return get(caller, { campaign_id: id });
    },
  };
}

export type CampaignService = ReturnType<typeof createCampaignService>;

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

/** Finds the template and checks it as campaignTemplateCheck does; a foreign or unknown id is a 404. */
async function checkTemplate(db: Db, workspaceId: string, input: Omit<CreateCampaignInput, 'name'>) {
  const templates = templateRepository(db);
  const template = await templates.findById(workspaceId, input.template_id);
  if (!template) throw errors.notFound('template', 'template_id');
  const language = campaignTemplateCheck(template, await templates.translations([template.id]), input);
  return {
    templateId: template.id,
    language,
    variables: input.variables ?? [],
    headerMediaUrl: input.header_media_url,
  };
}

/**
 * Validates the template as a send would (APPROVED translation, variable count), with a sample value
 * for each variable holding a placeholder, so a campaign that cannot be sent is refused now; returns
 * the language sent. Exported for `parley import`, which checks templates its document defines.
 */
export function campaignTemplateCheck(
  template: TemplateRow,
  translations: TranslationRow[],
  input: Pick<CreateCampaignInput, 'language' | 'variables' | 'header_media_url'>,
): string {
  const variables = input.variables ?? [];
  if (variableValues(variables).some((variable) => /\{\{\s*context\./.test(variable))) {
    throw errors.invalid(
      campaignProblems.problem('variables', 'no_context', { contact: '{{contact.…}}', attributes: '{{attributes.…}}' }),
    );
  }
  const content = templateContent(template, translations, {
    template_id: template.id,
    language: given(input.language),
    variables: withSamples(variables),
    header_media_url: given(input.header_media_url),
  });
  // The translation is fixed now: the default one may change before a scheduled campaign is due.
  return content.language;
}

/**
 * Each recipient's template content (what the dispatch sends and the confirm step previews), or null
 * for one a placeholder leaves empty (Meta refuses empty parameters); the whole composer is null when the template can no longer be sent (deleted, or its
 * translation is no longer APPROVED). Without placeholders the content is built once for everyone.
 */
export async function composer(
  db: Db,
  campaign: Pick<
    Selectable<CampaignTable>,
    'workspace_id' | 'template_id' | 'language' | 'variables' | 'header_media_url'
  >,
) {
  const templates = templateRepository(db);
  const template = campaign.template_id && (await templates.findById(campaign.workspace_id, campaign.template_id));
  if (!template) return null;
  const translations = await templates.translations([template.id]);
  const variables = storedVariables(campaign.variables);
  const contentOf = (values: CampaignVariables): TemplateContent | null =>
    validOrNull(() =>
      templateContent(template, translations, {
        template_id: template.id,
        language: campaign.language ?? undefined,
        variables: values,
        header_media_url: campaign.header_media_url ?? undefined,
      }),
    );
  const shared = contentOf(withSamples(variables));
  if (!shared) return null;
  if (!variableValues(variables).some(hasPlaceholder)) return () => shared;
  return (contact: Recipient) => contentOf(fillVariables(variables, { contact, context: {} }));
}

/** A value for every variable as checks need it: each per-recipient placeholder stands in as "sample". */
const withSamples = (variables: CampaignVariables) =>
  mapVariables(variables, (variable) => (hasPlaceholder(variable) ? 'sample' : variable));

/** A campaign's stored variables (JSON: an array, or an object keyed by variable id). */
export const storedVariables = (json: string | null): CampaignVariables =>
  JSON.parse(json ?? '[]') as CampaignVariables;

function scheduledTime(value: string | undefined): Date | null {
  const text = given(value)?.trim();
  if (!text) return null;
  const ms = Date.parse(text);
  // ajv's date-time admits forms Date cannot read (a leap second): refused, not a 500.
  if (Number.isNaN(ms)) throw errors.invalid(campaignProblems.problem('scheduled_at', 'unreadable_time'));
  return new Date(ms);
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
    scheduled_at: formatTimestamp(row.scheduled_at),
    sent_at: formatTimestamp(row.sent_at),
    counts: { recipients: row.recipients, skipped: row.skipped, opted_out: row.opted_out, ...counts },
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}
