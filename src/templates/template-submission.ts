import type { Kysely } from 'kysely';
import { scheduleJob, type Job, type JobHandler } from '../automation/scheduler.js';
import type { ChannelService, ChannelProvider, TemplateOutcome, TemplateSubmission } from '../channels/index.js';
import type { Database } from '../db/schema.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors, type FieldError } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { metaComponents } from './meta-components.js';
import { templateProblems } from './template.problems.js';
import { templateRepository } from './template.repository.js';
import { templateInputs } from './template-sync.js';
import {
  TTL_RANGES,
  type CreateTemplateInput,
  type DeleteTemplateInput,
  type LibraryTemplateRequest,
  type SubmittedTranslation,
  type Template,
  type UpdateTemplateInput,
} from './template.schema.js';
import { checkTranslations, writeTemplate, type SubmittedFields, type TemplateService } from './template.service.js';

type Accepted = Extract<TemplateOutcome, { outcome: 'accepted' }>;

/** A time-to-live out of Meta's range for the template's category is a 400 naming the field. */
function checkTtl({
  category,
  message_send_ttl_seconds: ttl,
}: Pick<CreateTemplateInput, 'category' | 'message_send_ttl_seconds'>) {
  if (ttl === undefined) return;
  const { min, max } = TTL_RANGES[category as keyof typeof TTL_RANGES];
  if (ttl < min || ttl > max) {
    throw errors.invalid(templateProblems.problem('message_send_ttl_seconds', 'ttl_range', { min, max, category }));
  }
}

/** A template written here: its translations, each submitted with its components. */
type ComposedTemplate = Pick<CreateTemplateInput, 'name' | 'category' | 'message_send_ttl_seconds'> & {
  translations: SubmittedTranslation[];
};

/**
 * Templates written in Parley and submitted to the workspace's channel for review (WhatsApp Cloud:
 * the WABA; the simulator approves them itself after a while). Each translation is one submission;
 * what the channel accepted is saved with its id, so Parley and Meta never disagree about what exists.
 */
export function createTemplateSubmissionService(deps: Deps, templates: TemplateService, channels: ChannelService) {
  const { db, clock } = deps;

  /** Meta's components of every translation, or a 422 naming each problem by its translation. */
  function componentsOf({ translations, category }: ComposedTemplate) {
    const problems: FieldError[] = [];
    const components = translations.map((t, i) => {
      const built = metaComponents(t, category);
      if ('problems' in built) {
        problems.push(...built.problems.map((p) => ({ ...p, field: `translations.${i}.${p.field}` })));
        return [];
      }
      return built.components;
    });
    if (problems.length > 0) throw errors.invalid(...problems);
    return components;
  }

  /**
   * Submits each translation (an edit when it already has Meta's id), stopping at the first refusal;
   * saves what was accepted, with a review job where the channel reviews no further; then reports the refusal.
   */
  async function submit(
    caller: Caller,
    input: ComposedTemplate,
    metaIds: Map<string, string | null>,
  ): Promise<string | null> {
    const components = componentsOf(input);
    const provider = await channels.providerOf(caller.workspaceId);
    const accepted: { index: number; outcome: Accepted }[] = [];
    let refusal: { index: number; reason: string } | null = null;
    for (const [index, t] of input.translations.entries()) {
      const submission = {
        name: input.name,
        language: t.language,
        category: input.category,
        ...(input.message_send_ttl_seconds !== undefined && {
          message_send_ttl_seconds: input.message_send_ttl_seconds,
        }),
        // Meta reads `{{first_name}}` as a named parameter only when the request says so.
        ...(t.parameter_format === 'NAMED' && { parameter_format: 'NAMED' as const }),
        components: components[index]!,
      };
      const outcome = await send(provider, submission, metaIds.get(t.language) ?? null);
      if (outcome.outcome === 'refused') {
        refusal = { index, reason: outcome.reason };
        break;
      }
      accepted.push({ index, outcome });
    }
    const templateId = accepted.length > 0 ? await save(caller, input, accepted) : null;
    if (refusal) throw refused(input, refusal, accepted.length);
    return templateId;
  }

  function send(provider: ChannelProvider, submission: TemplateSubmission, metaId: string | null) {
    return metaId ? provider.editTemplate(metaId, submission) : provider.submitTemplate(submission);
  }

  async function save(caller: Caller, input: ComposedTemplate, accepted: { index: number; outcome: Accepted }[]) {
    return db.transaction().execute(async (trx) => {
      const translations = accepted.map(({ index, outcome }) => ({
        ...input.translations[index]!,
        status: outcome.status,
      }));
      const submitted: SubmittedFields[] = accepted.map(({ index, outcome }) => ({
        meta_template_id: outcome.metaTemplateId,
        examples: JSON.stringify(input.translations[index]!.examples ?? {}),
        rejection_reason: null,
        quality_score: null,
      }));
      const saved = { ...input, translations };
      const templateId = await writeTemplate(trx, deps, caller, saved, submitted);
      for (const { outcome } of accepted) await scheduleReview(trx, caller, templateId, outcome);
      return templateId;
    });
  }

  /** The simulator's review, as a durable job: it outlives this process, and several processes run it once. */
  async function scheduleReview(trx: Kysely<Database>, caller: Caller, templateId: string, outcome: Accepted) {
    if (outcome.reviewsAfterMs === null) return;
    await scheduleJob(trx, deps, {
      workspaceId: caller.workspaceId,
      kind: 'template_review',
      subjectId: templateId,
      payload: { meta_template_id: outcome.metaTemplateId },
      dueAt: new Date(clock.now().getTime() + outcome.reviewsAfterMs),
    });
  }

  /** The 422 for Meta's refusal: the field its words point at, its words, and what was kept. */
  function refused(input: ComposedTemplate, refusal: { index: number; reason: string }, acceptedCount: number) {
    const named = fieldOfReason(refusal.reason);
    const field = named === 'name' || named === 'category' ? named : `translations.${refusal.index}.${named}`;
    const kept = acceptedCount > 0 ? `; the translations before it were submitted and saved` : '; nothing was saved';
    return errors.templateRefused(
      field,
      `Meta refused the ${input.translations[refusal.index]!.language} translation: ${refusal.reason}${kept}`,
    );
  }

  /**
   * Meta's "Template Library": Meta makes the translation from its library template with the business's
   * inputs and answers only its id and status, so Parley reads the template back and keeps it as a sync would.
   */
  async function createFromLibrary(caller: Caller, input: CreateTemplateInput, library: LibraryTemplateRequest) {
    const provider = await channels.providerOf(caller.workspaceId);
    const outcome = await provider.submitTemplate({ name: input.name, category: input.category, ...library });
    if (outcome.outcome === 'refused') {
      throw errors.templateRefused('library_template_name', `Meta refused the library template: ${outcome.reason}`);
    }
    const listed = await provider.template(outcome.metaTemplateId);
    const { inputs, skipped } = templateInputs([listed]);
    if (!inputs[0]) throw errors.conflict(`Meta made the template, but Parley cannot keep it: ${skipped[0]!.reason}`);
    const kept = {
      meta_template_id: outcome.metaTemplateId,
      examples: '{}',
      rejection_reason: null,
      quality_score: null,
    };
    return db.transaction().execute((trx) => writeTemplate(trx, deps, caller, inputs[0]!, [kept]));
  }

  return {
    /** create-template: a new name, every translation submitted for review, or a Template Library template. */
    async create(caller: Caller, input: CreateTemplateInput): Promise<Template> {
      const library = libraryRequest(input);
      if (input.translations) checkTranslations(input.translations);
      checkTtl(input);
      if (await templateRepository(db).findByName(caller.workspaceId, input.name)) {
        throw errors.invalid(templateProblems.problem('name', 'name_taken'));
      }
      const templateId = library
        ? await createFromLibrary(caller, input, library)
        : await submit(caller, { ...input, translations: input.translations! }, new Map());
      return templates.get(caller, templateId!);
    },

    /** update-template: each translation submitted again (Meta edits it by its id; a new language is created). */
    async update(caller: Caller, input: UpdateTemplateInput): Promise<Template> {
      const template = await templateRepository(db).findById(caller.workspaceId, input.template_id.toLowerCase());
      if (!template) throw errors.notFound('template', 'template_id');
      checkTranslations(input.translations);
      checkTtl(input);
      const existing = await templateRepository(db).translations([template.id]);
      const metaIds = new Map(existing.map((t) => [t.language, t.meta_template_id]));
      await submit(caller, { ...input, name: template.name }, metaIds);
      return templates.get(caller, template.id);
    },

    /** `parley templates push`: a template file submitted as new, or as an edit of the template of that name. */
    async push(caller: Caller, input: CreateTemplateInput): Promise<Template> {
      const existing = await templateRepository(db).findByName(caller.workspaceId, input.name);
      if (!existing || !input.translations) return this.create(caller, input);
      const { category, message_send_ttl_seconds, translations } = input;
      const ttl = message_send_ttl_seconds !== undefined && { message_send_ttl_seconds };
      return this.update(caller, { template_id: existing.id, category, translations, ...ttl });
    },

    /** delete-template: deleted at Meta first (by name, or one translation by its id), then in Parley. */
    async remove(caller: Caller, input: DeleteTemplateInput): Promise<{ deleted: string[] }> {
      const template = await templateRepository(db).findById(caller.workspaceId, input.template_id.toLowerCase());
      if (!template) throw errors.notFound('template', 'template_id');
      const translations = await templateRepository(db).translations([template.id]);
      const only = input.language === undefined ? null : translations.find((t) => t.language === input.language);
      if (only === undefined) throw errors.notFound('translation', 'language');
      const provider = await channels.providerOf(caller.workspaceId);
      const outcome = await provider.deleteTemplate(template.name, only?.meta_template_id ?? undefined);
      if (outcome.outcome === 'refused') {
        throw errors.templateRefused(
          only ? 'language' : 'template_id',
          `Meta refused to delete the template: ${outcome.reason}`,
        );
      }
      const deleted = only ? [only] : translations;
      await templateRepository(db).deleteTranslations(
        template.id,
        deleted.map((t) => t.language),
      );
      return { deleted: deleted.map((t) => t.language) };
    },

    /** The simulator's approval: the translation, if still pending under that id, becomes APPROVED. */
    reviewHandler: {
      async run(trx: Kysely<Database>, job: Job) {
        const at = toStoredTimestamp(clock.now());
        await templateRepository(trx).approvePending(job.subject_id, String(job.payload.meta_template_id), at);
      },
    } satisfies JobHandler,
  };
}

/**
 * create-template's two forms: translations written here, or a Template Library template in one language;
 * null for the first. Either form alone, never both.
 */
function libraryRequest(input: CreateTemplateInput): LibraryTemplateRequest | null {
  const { library_template_name, language, translations } = input;
  if (library_template_name === undefined) {
    if (translations) return null;
    throw errors.invalid(templateProblems.problem('translations', 'translations_required'));
  }
  const problems: FieldError[] = [];
  if (translations) problems.push(templateProblems.problem('translations', 'library_content_given'));
  if (language === undefined) problems.push(templateProblems.problem('language', 'library_language_required'));
  if (problems.length > 0) throw errors.invalid(...problems);
  return {
    library_template_name,
    language: language!,
    ...(input.library_template_button_inputs && {
      library_template_button_inputs: input.library_template_button_inputs,
    }),
    ...(input.library_template_body_inputs && { library_template_body_inputs: input.library_template_body_inputs }),
  };
}

/**
 * The field a refusal most likely concerns, from Meta's own words (Meta names no field): the name,
 * language or category it mentions, a header, footer, button or sample, else the body.
 */
export function fieldOfReason(reason: string): string {
  const text = reason.toLowerCase();
  const fields: [RegExp, string][] = [
    [/\bname\b/, 'name'],
    [/\blanguage\b/, 'language'],
    [/\bcategory\b/, 'category'],
    [/\bheader\b/, 'header_content'],
    [/\bfooter\b/, 'footer'],
    [/\bbuttons?\b/, 'buttons'],
    [/\bexamples?\b|\bsample\b/, 'examples'],
  ];
  return fields.find(([pattern]) => pattern.test(text))?.[1] ?? 'body';
}

export type TemplateSubmissionService = ReturnType<typeof createTemplateSubmissionService>;
