import type { Kysely } from 'kysely';
import { scheduleJob, type Job, type JobHandler } from '../automation/scheduler.js';
import type { ChannelService, ChannelProvider, TemplateOutcome } from '../channels/index.js';
import type { Database } from '../db/schema.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors, type FieldError } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { metaComponents } from './meta-components.js';
import { templateProblems } from './template.problems.js';
import { templateRepository } from './template.repository.js';
import {
  TTL_RANGES,
  type CreateTemplateInput,
  type DeleteTemplateInput,
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

/**
 * Templates written in Parley and submitted to the workspace's channel for review (WhatsApp Cloud:
 * the WABA; the simulator approves them itself after a while). Each translation is one submission;
 * what the channel accepted is saved with its id, so Parley and Meta never disagree about what exists.
 */
export function createTemplateSubmissionService(deps: Deps, templates: TemplateService, channels: ChannelService) {
  const { db, clock } = deps;

  /** Meta's components of every translation, or a 422 naming each problem by its translation. */
  function componentsOf(translations: SubmittedTranslation[]) {
    const problems: FieldError[] = [];
    const components = translations.map((t, i) => {
      const built = metaComponents(t);
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
    input: CreateTemplateInput,
    metaIds: Map<string, string | null>,
  ): Promise<string | null> {
    const components = componentsOf(input.translations);
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

  function send(
    provider: ChannelProvider,
    submission: Parameters<ChannelProvider['submitTemplate']>[0],
    metaId: string | null,
  ) {
    return metaId ? provider.editTemplate(metaId, submission) : provider.submitTemplate(submission);
  }

  async function save(caller: Caller, input: CreateTemplateInput, accepted: { index: number; outcome: Accepted }[]) {
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
  function refused(input: CreateTemplateInput, refusal: { index: number; reason: string }, acceptedCount: number) {
    const named = fieldOfReason(refusal.reason);
    const field = named === 'name' || named === 'category' ? named : `translations.${refusal.index}.${named}`;
    const kept = acceptedCount > 0 ? `; the translations before it were submitted and saved` : '; nothing was saved';
    return errors.templateRefused(
      field,
      `Meta refused the ${input.translations[refusal.index]!.language} translation: ${refusal.reason}${kept}`,
    );
  }

  return {
    /** create-template: a new name, every translation submitted for review. */
    async create(caller: Caller, input: CreateTemplateInput): Promise<Template> {
      checkTranslations(input.translations);
      checkTtl(input);
      if (await templateRepository(db).findByName(caller.workspaceId, input.name)) {
        throw errors.invalid(templateProblems.problem('name', 'name_taken'));
      }
      const templateId = await submit(caller, input, new Map());
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
      if (!existing) return this.create(caller, input);
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
