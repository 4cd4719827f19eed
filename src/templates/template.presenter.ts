import { formatTimestamp } from '../shared/time.js';
import { extractPlaceholders } from './placeholders.js';
import {
  buttonPlaceholders,
  headerPlaceholders,
  missingCapabilities,
  translationParts,
  variableSlots,
} from './template-variables.js';
import type { TemplateRow, TranslationRow } from './template.repository.js';
import type { Button, CategoryNotice, Template } from './template.schema.js';

/** The translation the API shows: the first APPROVED one, else the first of any status. */
export function displayedTranslation(translations: TranslationRow[]): TranslationRow | undefined {
  return translations.find((t) => t.status === 'APPROVED') ?? translations[0];
}

/** The public form of a template; `translations` are its own, oldest first, never empty. */
export function presentTemplate(template: TemplateRow, translations: TranslationRow[]): Template {
  const shown = displayedTranslation(translations)!;
  return {
    id: template.id,
    name: template.name,
    category: template.category,
    category_notice:
      template.category_notice === null ? null : (JSON.parse(template.category_notice) as CategoryNotice),
    message_send_ttl_seconds: template.message_send_ttl_seconds,
    status: shown.status,
    language: shown.language,
    languages: translations.map((t) => t.language),
    body: shown.body,
    header_type: shown.header_type,
    header_content: shown.header_content ?? '',
    ...(shown.footer ? { footer: shown.footer } : {}),
    buttons: JSON.parse(shown.buttons) as Button[],
    ...variablesOf(shown),
    ...review(shown),
    translations: translations.map((t) => ({ language: t.language, status: t.status })),
    ...translationOptions(shown),
    created_at: formatTimestamp(template.created_at),
  };
}

/** What Meta builds a translation from besides its text: its authentication options, its library template. */
export function translationOptions(t: TranslationRow) {
  return {
    add_security_recommendation: t.add_security_recommendation === null ? null : t.add_security_recommendation === 1,
    code_expiration_minutes: t.code_expiration_minutes,
    library_template_name: t.library_template_name,
  };
}

/** What a send of this translation must give, in every form get-template shows. */
function variablesOf(row: TranslationRow) {
  const parts = translationParts(row);
  const format = parts.parameter_format;
  return {
    placeholders: extractPlaceholders(parts.body, format),
    parameter_format: format,
    header_placeholders: headerPlaceholders(parts),
    button_placeholders: buttonPlaceholders(parts.buttons, format).map(({ index, placeholder }) => ({
      index,
      placeholder,
    })),
    variables: variableSlots(parts).map(({ id, label }) => ({ id, label })),
    missing_capabilities: missingCapabilities(row),
  };
}

/** Where Meta's review of a translation stands, beyond its status. */
function review(t: TranslationRow) {
  return { meta_template_id: t.meta_template_id, rejection_reason: t.rejection_reason, quality_score: t.quality_score };
}

/** One translation in full: what the dashboard shows when a user picks it. */
export interface TranslationDetail {
  language: string;
  status: string;
  body: string;
  header_type: string | null;
  header_content: string;
  footer: string;
  buttons: Button[];
  placeholders: string[];
  meta_template_id: string | null;
  rejection_reason: string | null;
  quality_score: string | null;
  /** The sample values last submitted to Meta, keyed by variable id. */
  examples: Record<string, string>;
  add_security_recommendation: boolean | null;
  code_expiration_minutes: number | null;
  library_template_name: string | null;
}

/** A template with all its translations in full (dashboard only; the public API shows one). */
export interface TemplateDetail {
  id: string;
  name: string;
  category: string;
  category_notice: CategoryNotice | null;
  /** The language get-template shows, so the dashboard opens on the same one. */
  default_language: string;
  translations: TranslationDetail[];
  created_at: string;
}

/** Meta's announced recategorization, kept as JSON. */
const categoryNotice = (template: TemplateRow): CategoryNotice | null =>
  template.category_notice === null ? null : (JSON.parse(template.category_notice) as CategoryNotice);

/** The dashboard's form of a template: every translation, oldest first. */
export function presentTemplateDetail(template: TemplateRow, translations: TranslationRow[]): TemplateDetail {
  return {
    id: template.id,
    name: template.name,
    category: template.category,
    category_notice: categoryNotice(template),
    default_language: displayedTranslation(translations)!.language,
    translations: translations.map((t) => ({
      language: t.language,
      status: t.status,
      body: t.body,
      header_type: t.header_type,
      header_content: t.header_content ?? '',
      footer: t.footer ?? '',
      buttons: JSON.parse(t.buttons) as Button[],
      placeholders: extractPlaceholders(t.body, translationParts(t).parameter_format),
      ...review(t),
      examples: t.examples ? (JSON.parse(t.examples) as Record<string, string>) : {},
      ...translationOptions(t),
    })),
    created_at: formatTimestamp(template.created_at),
  };
}
