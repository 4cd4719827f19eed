import { Value } from '@sinclair/typebox/value';
import type {
  ChannelService,
  ChannelTemplate,
  TemplateCategoryEvent,
  TemplateComponent,
  TemplateQualityEvent,
  TemplateStatusEvent,
} from '../channels/index.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { templateRepository } from './template.repository.js';
import {
  BUTTON_TYPES,
  HEADER_TYPES,
  TemplateInputSchema,
  type TemplateInput,
  type TranslationInput,
} from './template.schema.js';
import type { TemplateService } from './template.service.js';

export interface SyncResult {
  templates: number;
  translations: number;
  /** Translations Parley cannot represent (e.g. a location header), with the reason. */
  skipped: { name: string; language: string; reason: string }[];
}

/** Templates from the WhatsApp Business Account: pulled on demand, statuses pushed by Meta's webhook. */
export function createTemplateSyncService({ db, clock }: Deps, templates: TemplateService, channels: ChannelService) {
  return {
    /** `parley templates sync`: every template of the WABA, upserted by name and language. */
    async sync(caller: Caller): Promise<SyncResult> {
      const entries: ChannelTemplate[] = [];
      for await (const entry of (await channels.providerOf(caller.workspaceId)).syncTemplates()) entries.push(entry);
      const { inputs, skipped } = templateInputs(entries);
      for (const input of inputs) await templates.upsert(caller, input);
      await templateRepository(db).recordMetaIds(caller.workspaceId, entries);
      const translations = inputs.reduce((sum, input) => sum + input.translations.length, 0);
      return { templates: inputs.length, translations, skipped };
    },

    /**
     * Meta's message_template_status_update (status, with the rejection or pause reason) and
     * message_template_quality_update, for the translation in every workspace on that WABA: found by
     * Meta's id, or by name and language when Parley never learnt the id (a template made in WhatsApp Manager).
     */
    async applyReview(event: TemplateStatusEvent | TemplateQualityEvent): Promise<number> {
      const workspaces = await channels.workspacesOfWaba(event.wabaId);
      if (workspaces.length === 0) return 0;
      const change =
        event.kind === 'template_quality'
          ? { quality_score: event.quality }
          : { status: event.status, rejection_reason: event.status === 'APPROVED' ? null : event.reason };
      const result = await db
        .updateTable('template_translations')
        .set({ ...change, updated_at: toStoredTimestamp(clock.now()) })
        .where('template_id', 'in', (eb) =>
          eb.selectFrom('templates').select('id').where('workspace_id', 'in', workspaces),
        )
        .where((eb) =>
          eb.or([
            eb('meta_template_id', '=', event.templateId),
            eb.and([
              eb('language', '=', event.language),
              eb('template_id', 'in', eb.selectFrom('templates').select('id').where('name', '=', event.templateName)),
            ]),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /**
     * Meta's template_category_update, for the template in every workspace on that WABA (found by Meta's
     * id of a translation, or by name): its category now, and the change Meta announces, if any.
     */
    async applyCategory(event: TemplateCategoryEvent): Promise<number> {
      const workspaces = await channels.workspacesOfWaba(event.wabaId);
      if (workspaces.length === 0) return 0;
      const notice = event.upcoming && {
        category: event.upcoming.category,
        effective_at: formatTimestamp(toStoredTimestamp(event.upcoming.at)),
      };
      const result = await db
        .updateTable('templates')
        .set({
          category: event.category,
          category_notice: notice && JSON.stringify(notice),
          updated_at: toStoredTimestamp(clock.now()),
        })
        .where('workspace_id', 'in', workspaces)
        .where((eb) =>
          eb.or([
            eb('name', '=', event.templateName),
            eb(
              'id',
              'in',
              eb
                .selectFrom('template_translations')
                .select('template_id')
                .where('meta_template_id', '=', event.templateId),
            ),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

/** Meta lists one entry per name and language; Parley keeps one template per name with its translations. */
export function templateInputs(entries: ChannelTemplate[]): {
  inputs: TemplateInput[];
  skipped: SyncResult['skipped'];
} {
  const byName = new Map<string, TemplateInput>();
  const skipped: SyncResult['skipped'] = [];
  for (const entry of entries) {
    const input = { name: entry.name, category: entry.category, translations: [translationOf(entry)] };
    const problem = [...Value.Errors(TemplateInputSchema, input)][0];
    if (problem) {
      const reason = unsupportedKind(input.translations[0]!) ?? `${problem.path || '/'}: ${problem.message}`;
      skipped.push({ name: entry.name, language: entry.language, reason });
      continue;
    }
    const template = byName.get(entry.name);
    if (template) template.translations.push(...input.translations);
    else byName.set(entry.name, input);
  }
  return { inputs: [...byName.values()], skipped };
}

/** A kind of header or button Parley has no model for, named as Meta names it. */
function unsupportedKind(translation: TranslationInput): string | null {
  const known = (values: readonly string[], value: string) => values.includes(value);
  if (translation.header_type && !known(HEADER_TYPES, translation.header_type)) {
    return `Parley does not support ${translation.header_type} headers yet`;
  }
  const button = translation.buttons?.find((b) => !known(BUTTON_TYPES, b.type));
  return button ? `Parley does not support ${button.type} buttons yet` : null;
}

/** The components a translation models; any other (a carousel, a limited-time offer) is kept whole. */
const MODELLED = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS'];

/** Meta's fixed label of a button Meta may list without text. */
const DEFAULT_BUTTON_TEXT: Record<string, string> = {
  COPY_CODE: 'Copy offer code',
  OTP: 'Copy code',
  VOICE_CALL: 'Call Now',
};

function translationOf(entry: ChannelTemplate): TranslationInput {
  const part = (type: string): TemplateComponent | undefined => entry.components.find((c) => c.type === type);
  const header = part('HEADER');
  const body = part('BODY');
  const footer = part('FOOTER');
  const buttons = part('BUTTONS')?.buttons ?? [];
  const others = entry.components.filter((c) => !MODELLED.includes(c.type.toUpperCase()));
  return {
    language: entry.language,
    status: entry.status,
    body: body?.text ?? '',
    header_type: header?.format ?? null,
    header_content: header ? (header.text ?? mediaExample(header)) : null,
    footer: footer?.text ?? null,
    buttons: buttons.map((b) => ({
      type: b.type,
      text: b.text ?? DEFAULT_BUTTON_TEXT[b.type] ?? '',
      ...(b.url !== undefined && { url: b.url }),
      ...(b.phone_number !== undefined && { phone_number: b.phone_number }),
      ...(b.otp_type !== undefined && { otp_type: b.otp_type }),
      ...(b.supported_apps !== undefined && { supported_apps: b.supported_apps }),
      ...(b.zero_tap_terms_accepted !== undefined && { zero_tap_terms_accepted: b.zero_tap_terms_accepted }),
      // Meta lists a FLOW button's Flow by id (a number in its JSON) and how it opens.
      ...(b.flow_id !== undefined && { flow_id: String(b.flow_id) }),
      ...(b.flow_name !== undefined && { flow_name: b.flow_name }),
      ...(b.flow_action !== undefined && { flow_action: b.flow_action as 'navigate' | 'data_exchange' }),
      ...(b.navigate_screen !== undefined && { navigate_screen: b.navigate_screen }),
    })),
    parameter_format: entry.parameter_format?.toUpperCase() === 'NAMED' ? 'NAMED' : 'POSITIONAL',
    ...(others.length > 0 && { other_components: others }),
    // Meta's "Authentication templates" options, and the "Template Library" template it was made from.
    ...(body?.add_security_recommendation !== undefined && {
      add_security_recommendation: body.add_security_recommendation,
    }),
    ...(footer?.code_expiration_minutes !== undefined && { code_expiration_minutes: footer.code_expiration_minutes }),
    ...(entry.library_template_name !== undefined && { library_template_name: entry.library_template_name }),
  };
}

/** A media header's sample (Meta's `example.header_handle`), which Parley keeps as its header content. */
function mediaExample(header: TemplateComponent): string | null {
  const handles = (header.example as { header_handle?: unknown[] } | undefined)?.header_handle;
  return typeof handles?.[0] === 'string' ? handles[0] : null;
}

export type TemplateSyncService = ReturnType<typeof createTemplateSyncService>;
