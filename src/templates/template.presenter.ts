import { formatTimestamp } from '../shared/time.js';
import { extractPlaceholders } from './placeholders.js';
import type { TemplateRow, TranslationRow } from './template.repository.js';
import type { Button, Template } from './template.schema.js';

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
    status: shown.status,
    language: shown.language,
    languages: translations.map((t) => t.language),
    body: shown.body,
    header_type: shown.header_type,
    header_content: shown.header_content ?? '',
    ...(shown.footer ? { footer: shown.footer } : {}),
    buttons: JSON.parse(shown.buttons) as Button[],
    placeholders: extractPlaceholders(shown.body),
    translations: translations.map((t) => ({ language: t.language, status: t.status })),
    created_at: formatTimestamp(template.created_at),
  };
}
