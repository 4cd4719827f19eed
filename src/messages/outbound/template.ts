import { errors } from '../../shared/errors.js';
import { extractPlaceholders } from '../../templates/placeholders.js';
import { displayedTranslation } from '../../templates/template.presenter.js';
import type { TemplateRow, TranslationRow } from '../../templates/template.repository.js';
import type { Button } from '../../templates/template.schema.js';
import type { SendTemplateInput } from '../message.schema.js';

const MEDIA_HEADERS = ['IMAGE', 'VIDEO', 'DOCUMENT'];

/**
 * What a template message stores: enough to build Meta's request later without reading the
 * template again (it may change while the message waits), and the rendered text for people.
 */
export interface TemplateContent {
  template_id: string;
  template_name: string;
  /** Meta's category (MARKETING, UTILITY, AUTHENTICATION): contacts who opted out get no marketing. */
  category: string;
  language: string;
  body_parameters: string[];
  header: { type: 'image' | 'video' | 'document'; link: string } | null;
  url_button_parameters: { index: number; text: string }[];
  text: string;
}

/** Checks a send-template-message request against the template and renders what to store. */
export function templateContent(
  template: TemplateRow,
  translations: TranslationRow[],
  input: SendTemplateInput,
): TemplateContent {
  const translation = chooseTranslation(translations, input.language);
  if (translation.status !== 'APPROVED') {
    throw errors.templateNotApproved(translation.language, translation.status);
  }
  const placeholders = extractPlaceholders(translation.body);
  const bodyParameters = orderedVariables(input.variables, placeholders);
  return {
    template_id: template.id,
    template_name: template.name,
    category: template.category,
    language: translation.language,
    body_parameters: bodyParameters,
    header: mediaHeader(translation, input.header_media_url),
    url_button_parameters: urlButtonParameters(JSON.parse(translation.buttons) as Button[], input.button_variables),
    text: placeholders.reduce(
      (text, number, i) => text.replace(new RegExp(`\\{\\{\\s*0*${number}\\s*\\}\\}`, 'g'), bodyParameters[i]!),
      translation.body,
    ),
  };
}

function chooseTranslation(translations: TranslationRow[], language: string | undefined): TranslationRow {
  if (!language) return displayedTranslation(translations)!;
  const match = translations.find((t) => t.language.toLowerCase() === language.toLowerCase());
  if (!match) {
    throw errors.templateLanguageUnavailable(
      language,
      translations.map((t) => t.language),
    );
  }
  return match;
}

/** Variables as an array (in placeholder order) or an object keyed by placeholder number. */
function orderedVariables(variables: SendTemplateInput['variables'], placeholders: string[]): string[] {
  const values = Array.isArray(variables)
    ? variables
    : placeholders.map((n) => variables?.[n]).filter((v): v is string => v !== undefined);
  const given = Array.isArray(variables) ? variables.length : Object.keys(variables ?? {}).length;
  if (values.length !== placeholders.length || given !== placeholders.length) {
    throw errors.templateVariablesMismatch('variables', placeholders.length, given);
  }
  if (values.some((v) => v.trim() === '')) throw errors.validation('variables', 'must not be empty strings');
  return values;
}

function mediaHeader(translation: TranslationRow, url: string | undefined): TemplateContent['header'] {
  if (!translation.header_type || !MEDIA_HEADERS.includes(translation.header_type)) return null;
  if (!url) {
    throw errors.headerMediaRequired(translation.header_type);
  }
  if (!/^https:\/\/\S+$/.test(url)) throw errors.validation('header_media_url', 'must be an https URL');
  return { type: translation.header_type.toLowerCase() as 'image' | 'video' | 'document', link: url };
}

function urlButtonParameters(buttons: Button[], variables: string[] = []): TemplateContent['url_button_parameters'] {
  const dynamic = buttons
    .map((button, index) => ({ button, index }))
    .filter(({ button }) => button.type === 'URL' && /\{\{\s*\d+\s*\}\}/.test(button.url ?? ''));
  if (variables.length !== dynamic.length) {
    throw errors.templateVariablesMismatch('button_variables', dynamic.length, variables.length);
  }
  return dynamic.map(({ index }, i) => ({ index, text: variables[i]! }));
}
