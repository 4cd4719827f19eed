import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import {
  storedVariables,
  campaignDefinition,
  insertScheduledCampaign,
  replaceScheduledCampaign,
  type CampaignDefinition,
  type Audience,
  type CampaignStatus,
} from '../campaigns/index.js';
import { parsePhone } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import { errors, validOrNull } from '../shared/errors.js';
import { formatTimestamp } from '../shared/time.js';
import { tagKey } from '../tags/index.js';
import {
  templateRepository,
  type TemplateRow,
  type TranslationRow,
  type TemplateInput,
  type TranslationInput,
} from '../templates/index.js';
import {
  documentAudience,
  storedAudience,
  type CampaignContext,
  type CampaignPlan,
  type StoredCampaign,
} from './campaign-data.js';
import type { CampaignEntry, WorkspaceData } from './workspace-data.schema.js';

type Db = Kysely<Database>;

/** What the import did with the document's campaigns. */
export interface CampaignCounts {
  created: number;
  updated: number;
  skipped: number;
}

/** Ids per IN list: well under both engines' bound-parameter limits. */
const CHUNK = 500;

/** The workspace's campaigns, oldest first: what the document's are paired with. */
export function storedCampaigns(db: Db, workspaceId: string): Promise<StoredCampaign[]> {
  return db
    .selectFrom('campaigns')
    .select(['id', 'name', 'status', 'template_id', 'language', 'variables', 'audience', 'scheduled_at', 'over_limit'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Templates, tags and contacts the written campaigns name, as the workspace will have them after the import. */
export async function campaignContext(
  db: Db,
  workspaceId: string,
  data: WorkspaceData,
  plans: CampaignPlan[],
): Promise<CampaignContext> {
  const entries = plans.flatMap((plan) => (plan.action === 'skip' ? [] : [plan.entry]));
  if (entries.length === 0) return { templates: new Map(), tagKeys: new Set(), phones: new Set() };
  const templates: CampaignContext['templates'] = new Map();
  for (const name of new Set(entries.flatMap((entry) => entry.template_name ?? []))) {
    const template = await templateAfterImport(db, workspaceId, name, data.templates ?? []);
    if (template) templates.set(name, template);
  }
  return {
    templates,
    tagKeys: await knownTagKeys(db, workspaceId, entries, data),
    phones: await knownPhones(db, workspaceId, entries, data),
  };
}

/** Writes the planned campaigns (after the templates and contacts they name) through create-campaign's rules. */
export async function importCampaigns(deps: Deps, workspaceId: string, plans: CampaignPlan[]): Promise<CampaignCounts> {
  const { db, newId } = deps;
  const counts: CampaignCounts = { created: 0, updated: 0, skipped: 0 };
  for (const plan of plans) {
    if (plan.action === 'skip') {
      counts.skipped += 1;
      continue;
    }
    const definition = await campaignDefinition(db, workspaceId, await createInput(db, workspaceId, plan.entry));
    // Not woken: the import runs in the CLI's process; the server's scheduler polls for new jobs every second.
    if (plan.action === 'create') {
      const campaign = { id: newId(), workspaceId, name: plan.entry.name.trim() };
      await db.transaction().execute((trx) => insertScheduledCampaign(trx, deps, campaign, definition));
      counts.created += 1;
    } else if (sameDefinition(plan.stored, definition)) {
      counts.updated += 1; // already as the document says: no write, so its dispatch job is left as it is
    } else {
      const campaign = { id: plan.stored.id, workspaceId };
      const replaced = await db
        .transaction()
        .execute((trx) => replaceScheduledCampaign(trx, deps, campaign, definition));
      counts[replaced ? 'updated' : 'skipped'] += 1;
    }
  }
  return counts;
}

/** Every campaign of the workspace but resends, oldest first; counts belong to the messages and are not exported. */
export async function exportCampaigns(db: Db, workspaceId: string): Promise<CampaignEntry[]> {
  const rows = await db
    .selectFrom('campaigns as k')
    .leftJoin('templates as t', 't.id', 'k.template_id')
    .select([
      'k.name',
      't.name as template_name',
      'k.language',
      'k.variables',
      'k.audience',
      'k.scheduled_at',
      'k.status',
      'k.over_limit',
    ])
    .where('k.workspace_id', '=', workspaceId)
    // A resend's audience is another campaign's recipients (not_read_of), which a document cannot carry.
    .where('k.resend_of', 'is', null)
    .orderBy('k.created_at')
    .orderBy('k.id')
    .execute();
  const audiences = rows.map((row) => JSON.parse(row.audience) as Audience);
  const ids = audiences.flatMap((audience) => ('contact_ids' in audience ? audience.contact_ids : []));
  const phonesById = await contactsBy(db, workspaceId, 'id', [...new Set(ids)]);
  return rows.map((row, i) => ({
    name: row.name,
    template_name: row.template_name,
    language: row.language,
    variables: storedVariables(row.variables),
    audience: documentAudience(audiences[i]!, phonesById),
    scheduled_at: formatTimestamp(row.scheduled_at),
    status: row.status as CampaignStatus,
    over_limit: row.over_limit,
  }));
}

/** create-campaign's input for a document campaign: its template and contacts by this workspace's ids. */
async function createInput(db: Db, workspaceId: string, entry: CampaignEntry) {
  const template = await templateRepository(db).findByName(workspaceId, entry.template_name ?? '');
  // Checked before the first write; only a concurrent change could get here.
  if (!template) throw errors.notFound('template', 'template_name');
  const idsByPhone = await contactsBy(db, workspaceId, 'phone', audiencePhones(entry));
  return {
    template_id: template.id,
    language: entry.language ?? undefined,
    variables: entry.variables,
    audience: storedAudience(entry.audience, idsByPhone),
    scheduled_at: entry.scheduled_at ?? undefined,
    over_limit: entry.over_limit,
  };
}

/** Whether a still-scheduled campaign already has this definition (JSON compared as values: jsonb reorders keys). */
function sameDefinition(stored: StoredCampaign, definition: CampaignDefinition): boolean {
  return (
    stored.template_id === definition.template_id &&
    stored.language === definition.language &&
    stored.scheduled_at === definition.scheduled_at &&
    stored.over_limit === definition.over_limit &&
    isDeepStrictEqual(JSON.parse(stored.variables ?? '[]'), JSON.parse(definition.variables)) &&
    isDeepStrictEqual(JSON.parse(stored.audience), JSON.parse(definition.audience))
  );
}

/** The template as the import leaves it: stored translations, then the document's upserted by language. */
async function templateAfterImport(db: Db, workspaceId: string, name: string, documentTemplates: TemplateInput[]) {
  const templates = templateRepository(db);
  const stored = await templates.findByName(workspaceId, name);
  let translations: TranslationRow[] = stored ? await templates.translations([stored.id]) : [];
  for (const input of documentTemplates.filter((t) => t.name === name).flatMap((t) => t.translations)) {
    const row = translationRow(input);
    const known = translations.some((t) => t.language === input.language);
    translations = known ? translations.map((t) => (t.language === input.language ? row : t)) : [...translations, row];
  }
  if (translations.length === 0) return null;
  const template: TemplateRow = stored ?? {
    id: '',
    workspace_id: workspaceId,
    name,
    category: '',
    category_notice: null,
    message_send_ttl_seconds: null,
    created_at: '',
    updated_at: '',
  };
  return { template, translations };
}

/** A document translation in the shape the send checks read (only its content fields matter). */
function translationRow(t: TranslationInput): TranslationRow {
  return {
    id: '',
    template_id: '',
    language: t.language,
    status: t.status,
    body: t.body,
    header_type: t.header_type ?? null,
    header_content: t.header_content ?? null,
    footer: t.footer ?? null,
    buttons: JSON.stringify(t.buttons ?? []),
    parameter_format: t.parameter_format ?? 'POSITIONAL',
    other_components: JSON.stringify(t.other_components ?? []),
    add_security_recommendation: null,
    code_expiration_minutes: null,
    library_template_name: null,
    meta_template_id: null,
    examples: null,
    rejection_reason: null,
    quality_score: null,
    created_at: '',
    updated_at: '',
  };
}

function audienceTags({ audience }: CampaignEntry): string[] {
  const tag = 'tag' in audience ? audience.tag : 'search' in audience ? audience.search.tag : undefined;
  return tag?.trim() ? [tag] : [];
}

/** The audience's phones in E.164; one that does not parse is reported by the checks, not looked up. */
function audiencePhones({ audience }: CampaignEntry): string[] {
  if (!('contact_phones' in audience)) return [];
  return audience.contact_phones.flatMap((phone) => validOrNull(() => parsePhone(phone)) ?? []);
}

/** The audiences' tags that the document defines or the workspace has. */
async function knownTagKeys(db: Db, workspaceId: string, entries: CampaignEntry[], data: WorkspaceData) {
  const documentTags = [...(data.tags ?? []).map((t) => t.name), ...(data.contacts ?? []).flatMap((c) => c.tags ?? [])];
  const named = [...new Set(entries.flatMap(audienceTags).map(tagKey))];
  return new Set([...documentTags.map(tagKey), ...(await storedTagKeys(db, workspaceId, named))]);
}

/** The audiences' phones that are contacts of the document or of the workspace. */
async function knownPhones(db: Db, workspaceId: string, entries: CampaignEntry[], data: WorkspaceData) {
  const named = [...new Set(entries.flatMap(audiencePhones))];
  const stored = await contactsBy(db, workspaceId, 'phone', named);
  return new Set([...(data.contacts ?? []).map((c) => parsePhone(c.phone)), ...stored.keys()]);
}

async function storedTagKeys(db: Db, workspaceId: string, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('tags')
    .select('name_key')
    .where('workspace_id', '=', workspaceId)
    .where('name_key', 'in', keys)
    .execute();
  return rows.map((row) => row.name_key);
}

/** Contacts' ids by phone or phones by id: an import's recipients in, an export's out. */
async function contactsBy(db: Db, workspaceId: string, key: 'id' | 'phone', values: string[]) {
  const other = key === 'id' ? 'phone' : 'id';
  const found = new Map<string, string>();
  for (let start = 0; start < values.length; start += CHUNK) {
    const rows = await db
      .selectFrom('contacts')
      .select(['id', 'phone'])
      .where('workspace_id', '=', workspaceId)
      .where(key, 'in', values.slice(start, start + CHUNK))
      .execute();
    for (const row of rows) found.set(row[key], row[other]);
  }
  return found;
}
