import { campaignTemplateCheck, type Audience } from '../campaigns/index.js';
import { parsePhone } from '../contacts/index.js';
import type { TemplateRow, TranslationRow } from '../templates/index.js';
import { AppError, type FieldError } from '../shared/errors.js';
import { tagKey } from '../tags/index.js';
import { importProblems } from './portability.problems.js';
import type { CampaignEntry } from './workspace-data.schema.js';

/** A campaign of the workspace as the import compares it with the document. */
export interface StoredCampaign {
  id: string;
  name: string;
  status: string;
  template_id: string | null;
  language: string | null;
  variables: string | null;
  audience: string;
  scheduled_at: string | null;
  over_limit: 'send' | 'wait';
}

/** What the import does with one document campaign. */
export type CampaignPlan =
  | { action: 'skip' }
  | { action: 'create'; entry: CampaignEntry }
  | { action: 'replace'; entry: CampaignEntry; stored: StoredCampaign };

/** What the checks need to know of the workspace as it will be once the rest of the document is in. */
export interface CampaignContext {
  templates: Map<string, { template: TemplateRow; translations: TranslationRow[] }>;
  tagKeys: Set<string>;
  phones: Set<string>;
}

/**
 * Pairs document campaigns with the workspace's by name. Names are not unique, so a scheduled entry
 * takes the oldest campaign of its name that no earlier entry took: a re-import pairs each campaign
 * with the one it created, and two of one name stay two. History entries take none, since they
 * were never created here. A match that is no longer scheduled already went out (or was stopped):
 * it is never touched, and the entry is skipped rather than sent again.
 */
export function planCampaigns(entries: CampaignEntry[], stored: StoredCampaign[]): CampaignPlan[] {
  const byName = new Map<string, StoredCampaign[]>();
  for (const campaign of stored) byName.set(campaign.name, [...(byName.get(campaign.name) ?? []), campaign]);
  return entries.map((entry): CampaignPlan => {
    if (entry.status !== 'scheduled') return { action: 'skip' };
    const match = byName.get(entry.name.trim())?.shift();
    if (!match) return { action: 'create', entry };
    return match.status === 'scheduled' ? { action: 'replace', entry, stored: match } : { action: 'skip' };
  });
}

/** Every problem of the campaigns the import will write, by JSON Pointer, before anything is written. */
export function campaignProblems(plans: CampaignPlan[], context: CampaignContext): FieldError[] {
  return plans.flatMap((plan, i) =>
    plan.action === 'skip'
      ? []
      : [...templateProblems(plan.entry, `/campaigns/${i}`, context), ...audienceProblems(plan.entry, i, context)],
  );
}

/** create-campaign's template checks, against the template as the document leaves it. */
function templateProblems(entry: CampaignEntry, path: string, context: CampaignContext): FieldError[] {
  if (entry.template_name === null) {
    return [importProblems.problem(`${path}/template_name`, 'campaign_without_template')];
  }
  const found = context.templates.get(entry.template_name);
  if (!found) {
    return [importProblems.problem(`${path}/template_name`, 'unknown_template')];
  }
  try {
    campaignTemplateCheck(found.template, found.translations, {
      ...(entry.language != null && { language: entry.language }),
      ...(entry.variables && { variables: entry.variables }),
    });
    return [];
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return error.fieldErrors.map((problem): FieldError => {
      const { field } = problem;
      // The service names its own fields; a media header has no field of the campaign, so the template is named.
      const own = `${path}/${field === 'language' || field === 'variables' ? field : 'template_name'}`;
      const message = error.message.startsWith(`${field}: `) ? error.message.slice(field.length + 2) : error.message;
      // A rule's problem keeps its code where its own words are the ones said; other refusals say the whole detail.
      return message === problem.message ? { ...problem, field: own } : { field: own, message };
    });
  }
}

/** Tags and contacts the audience names must exist, or the campaign would silently reach no one. */
function audienceProblems(entry: CampaignEntry, i: number, context: CampaignContext): FieldError[] {
  const path = `/campaigns/${i}/audience`;
  const { audience } = entry;
  const unknownTag = (name: string | undefined, at: string): FieldError[] =>
    name?.trim() && !context.tagKeys.has(tagKey(name)) ? [importProblems.problem(at, 'unknown_tag')] : [];
  if ('tag' in audience) return unknownTag(audience.tag, `${path}/tag`);
  if ('search' in audience) return unknownTag(audience.search.tag, `${path}/search/tag`);
  return audience.contact_phones.flatMap((phone, j): FieldError[] => {
    const field = `${path}/contact_phones/${j}`;
    try {
      if (context.phones.has(parsePhone(phone, field))) return [];
      return [importProblems.problem(field, 'unknown_contact')];
    } catch (error) {
      if (error instanceof AppError) return error.fieldErrors;
      throw error;
    }
  });
}

/** The document's audience as create-campaign takes it: phones become this workspace's contact ids. */
export function storedAudience(audience: CampaignEntry['audience'], idsByPhone: Map<string, string>): Audience {
  if (!('contact_phones' in audience)) return audience;
  // Every phone was checked against the workspace and the document, whose contacts are imported first.
  return { contact_ids: audience.contact_phones.map((phone) => idsByPhone.get(parsePhone(phone))!) };
}

/** The stored audience as the document writes it: contacts by phone, never by internal id. */
export function documentAudience(audience: Audience, phonesById: Map<string, string>): CampaignEntry['audience'] {
  if (!('contact_ids' in audience)) return audience;
  // Contacts are never deleted one by one, so every id has its phone; one that did not would be left out.
  const phones = audience.contact_ids.flatMap((id) => phonesById.get(id) ?? []);
  return { contact_phones: phones };
}
