import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { cutPage, type CursorCodec, type Page, type PageRequest } from '../shared/cursor.js';
import { errors, type FieldError } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { templateProblems } from './template.problems.js';
import { presentTemplate, presentTemplateDetail, type TemplateDetail } from './template.presenter.js';
import {
  templateRepository,
  type TemplateFilter,
  type TemplateRow,
  type TranslationRow,
} from './template.repository.js';
import {
  TEMPLATE_LIST_CAP,
  TEMPLATE_STATUSES,
  type Template,
  type TemplateInput,
  type TranslationInput,
} from './template.schema.js';

/** Message templates and their translations. */
export function createTemplateService({ db, clock, newId }: Deps, cursors: CursorCodec) {
  async function withTranslations(templates: TemplateRow[]): Promise<Template[]> {
    const translations = await templateRepository(db).translations(templates.map((t) => t.id));
    const byTemplate = new Map<string, TranslationRow[]>();
    for (const translation of translations) {
      const list = byTemplate.get(translation.template_id) ?? [];
      list.push(translation);
      byTemplate.set(translation.template_id, list);
    }
    return templates.filter((t) => byTemplate.has(t.id)).map((t) => presentTemplate(t, byTemplate.get(t.id)!));
  }

  return {
    /** get-template: the template with its first approved translation (else any). */
    async get(caller: Caller, templateId: string): Promise<Template> {
      // Ids are stored lower-case; PostgreSQL's uuid type ignores case, SQLite's text does not.
      const template = await templateRepository(db).findById(caller.workspaceId, templateId.toLowerCase());
      const [presented] = template ? await withTranslations([template]) : [];
      if (!presented) throw errors.notFound('template', 'template_id');
      return presented;
    },

    /** list-templates: alphabetical, filtered by name substring and translation status. */
    async list(caller: Caller, input: TemplateFilter): Promise<Template[]> {
      const rows = await templateRepository(db).list(caller.workspaceId, listFilter(input), TEMPLATE_LIST_CAP);
      return withTranslations(rows);
    },

    /**
     * list-templates with `paginate=cursor`: the same filters, in id order, a page at a time. A
     * template without translations is left out, so a page may hold fewer than `limit`.
     */
    async listPage(caller: Caller, input: TemplateFilter, page: PageRequest): Promise<Page<Template>> {
      const filter = listFilter(input);
      const scope = { workspaceId: caller.workspaceId, endpoint: 'list-templates', filters: { ...filter } };
      const afterId = page.cursor === undefined ? null : cursors.decode(scope, page.cursor)[0]!;
      const rows = await templateRepository(db).listById(caller.workspaceId, filter, afterId, page.limit + 1);
      const { rows: shown, next_cursor } = cutPage(rows, page.limit, (row) => cursors.encode(scope, [row.id]));
      return { data: await withTranslations(shown), next_cursor };
    },

    /** Creates or updates a template by name; translations are upserted by language. */
    async upsert(caller: Caller, input: TemplateInput): Promise<Template> {
      const templateId = await db.transaction().execute((trx) => writeTemplate(trx, { clock, newId }, caller, input));
      return this.get(caller, templateId);
    },

    /** A template with every translation in full, for the dashboard's translation picker. */
    async detail(caller: Caller, templateId: string): Promise<TemplateDetail> {
      const template = await templateRepository(db).findById(caller.workspaceId, templateId.toLowerCase());
      const translations = template ? await templateRepository(db).translations([template.id]) : [];
      if (!template || translations.length === 0) throw errors.notFound('template', 'template_id');
      return presentTemplateDetail(template, translations);
    },

    /** Templates with every translation, for export. */
    async exportAll(caller: Caller): Promise<{ template: TemplateRow; translations: TranslationRow[] }[]> {
      const templates = await templateRepository(db).all(caller.workspaceId);
      const translations = await templateRepository(db).translations(templates.map((t) => t.id));
      return templates.map((template) => ({
        template,
        translations: translations.filter((t) => t.template_id === template.id),
      }));
    },
  };
}

/** A translation's header rule, as the problem of `field`: a header needs its content. */
export function headerContentProblem(
  t: Pick<TranslationInput, 'header_type' | 'header_content'>,
  field: string,
): FieldError | null {
  if (!t.header_type || t.header_content) return null;
  const kind = t.header_type.toLowerCase();
  const article = /^[aeiou]/.test(kind) ? 'an' : 'a';
  return templateProblems.problem(field, 'header_content_required', { article, kind });
}

/** The header rule's English words, for the import's up-front validation (portability). */
export function headerProblem(t: Pick<TranslationInput, 'header_type' | 'header_content'>): string | null {
  return headerContentProblem(t, 'header_content')?.message ?? null;
}

/** Problems upsert would meet, named by translation index so a form can show each beside its input. */
export function checkTranslations(
  translations: Pick<TranslationInput, 'language' | 'header_type' | 'header_content'>[],
): void {
  const problems: FieldError[] = [];
  const seen = new Set<string>();
  translations.forEach((t, i) => {
    const header = headerContentProblem(t, `translations.${i}.header_content`);
    if (header) problems.push(header);
    if (seen.has(t.language))
      problems.push(templateProblems.problem(`translations.${i}.language`, 'language_repeated'));
    seen.add(t.language);
  });
  if (problems.length > 0) throw errors.invalid(...problems);
}

/** list-templates' filters: trimmed (the name lower-cased, as it matches regardless of case), the status checked. */
function listFilter(input: TemplateFilter): TemplateFilter {
  const status = input.status?.trim().toUpperCase();
  if (status && !(TEMPLATE_STATUSES as readonly string[]).includes(status)) {
    throw errors.invalid(
      templateProblems.problem('status', 'status_unknown', { statuses: TEMPLATE_STATUSES.join(', ') }),
    );
  }
  return { name: input.name?.trim().toLowerCase() || undefined, status: status || undefined };
}

/** What Meta said to a translation Parley submitted (its id; the review starts afresh) and the samples sent. */
export interface SubmittedFields {
  meta_template_id: string;
  examples: string;
  rejection_reason: null;
  quality_score: null;
}

/**
 * Writes a template by name in the caller's transaction, its translations upserted by language
 * (`submitted[i]` records Meta's answer to translation i, when it was submitted); returns its id.
 */
export async function writeTemplate(
  trx: Kysely<Database>,
  { clock, newId }: Pick<Deps, 'clock' | 'newId'>,
  caller: Caller,
  input: TemplateInput & { message_send_ttl_seconds?: number | undefined },
  submitted: (SubmittedFields | undefined)[] = [],
): Promise<string> {
  const at = toStoredTimestamp(clock.now());
  const existing = await templateRepository(trx).findByName(caller.workspaceId, input.name);
  const id = existing?.id ?? newId();
  const ttl = input.message_send_ttl_seconds;
  if (existing) {
    await trx
      .updateTable('templates')
      .set({ category: input.category, ...(ttl !== undefined && { message_send_ttl_seconds: ttl }), updated_at: at })
      .where('id', '=', id)
      .execute();
  } else {
    await trx
      .insertInto('templates')
      .values({
        id,
        workspace_id: caller.workspaceId,
        name: input.name,
        category: input.category,
        message_send_ttl_seconds: ttl ?? null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  for (const [i, translation] of input.translations.entries()) {
    const fields = { ...translationFields(translation), ...submitted[i] };
    await trx
      .insertInto('template_translations')
      .values({
        id: newId(),
        template_id: id,
        language: translation.language,
        ...fields,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['template_id', 'language']).doUpdateSet({ ...fields, updated_at: at }))
      .execute();
  }
  return id;
}

function translationFields(t: TranslationInput) {
  const headerType = t.header_type ?? null;
  const problem = headerContentProblem(t, 'header_content');
  if (problem) throw errors.invalid(problem);
  return {
    status: t.status,
    body: t.body,
    header_type: headerType,
    header_content: headerType ? (t.header_content ?? null) : null,
    footer: t.footer ?? null,
    buttons: JSON.stringify(t.buttons ?? []),
    parameter_format: t.parameter_format ?? 'POSITIONAL',
    other_components: JSON.stringify(t.other_components ?? []),
    add_security_recommendation:
      t.add_security_recommendation === undefined ? null : Number(t.add_security_recommendation),
    code_expiration_minutes: t.code_expiration_minutes ?? null,
    library_template_name: t.library_template_name ?? null,
  };
}

export type TemplateService = ReturnType<typeof createTemplateService>;
