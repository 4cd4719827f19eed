import type { Kysely, Selectable } from 'kysely';
import { render, type RenderScope } from '../automation/render.js';
import { given } from '../contacts/index.js';
import type { CampaignTable, Database } from '../db/schema.js';
import { fillVariables, mapVariables, variableValues, templateContent } from '../messages/index.js';
import type { TemplateContent } from '../content/template.js';
import { errors, validOrNull } from '../shared/errors.js';
import { templateRepository, type TemplateRow, type TranslationRow } from '../templates/index.js';
import type { Recipient } from './campaign.audience.js';
import type { CampaignVariables, CreateCampaignInput } from './campaign.schema.js';
import { campaignProblems } from './campaign.problems.js';

// What a campaign sends each recipient: its template, checked as a send would check it when the campaign
// is made, and filled in per recipient when it is dispatched (or previewed).

type Db = Kysely<Database>;

/** A contact with nothing to fill in: any placeholder a variable holds renders differently from itself. */
const BLANK_SCOPE: RenderScope = {
  contact: { name: null, phone: '', email: null, custom_attributes: '{}' },
  context: {},
};

const hasPlaceholder = (variable: string) => render(variable, BLANK_SCOPE) !== variable;

/** Finds the template and checks it as campaignTemplateCheck does; a foreign or unknown id is a 404. */
export async function checkTemplate(db: Db, workspaceId: string, input: Omit<CreateCampaignInput, 'name'>) {
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
