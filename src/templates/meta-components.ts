import type { MetaTemplateComponent } from '../channels/whatsapp-cloud.js';
import type { FieldError } from '../shared/errors.js';
import { extractPlaceholders } from './placeholders.js';
import type { Button } from './template.schema.js';

/**
 * Parley's translation → Meta's template components, for submitting a template to the WABA
 * (`POST /{waba_id}/message_templates`, "Create and manage templates" in Meta's docs). The reverse,
 * Meta → Parley, is template-sync's `translationOf`: the two stay symmetric (a media header's
 * `header_content` is its `example.header_handle[0]` both ways).
 *
 * Sample values (`examples`) are keyed by the variable ids the template-variables pick-list uses:
 * body placeholders "1", "2"…, the text header's "header_1", a URL button's "button_<index>_1".
 */
export interface SubmittableTranslation {
  body: string;
  header_type?: string | null | undefined;
  header_content?: string | null | undefined;
  footer?: string | null | undefined;
  buttons?: Button[] | undefined;
  examples?: Record<string, string> | undefined;
}

/** Meta's components for a translation, or the problems (field relative to the translation) that stop it. */
export function metaComponents(
  t: SubmittableTranslation,
): { components: MetaTemplateComponent[] } | { problems: FieldError[] } {
  const examples = t.examples ?? {};
  const needed = neededExamples(t);
  const missing = needed.filter((id) => !examples[id]?.trim());
  const unknown = Object.keys(examples).filter((id) => !needed.includes(id));
  const problems: FieldError[] = [];
  if (missing.length > 0) {
    problems.push({ field: 'examples', message: `Meta needs a sample value for ${missing.join(', ')}` });
  }
  if (unknown.length > 0) {
    const expected = needed.length > 0 ? `; the template's variables are ${needed.join(', ')}` : '';
    problems.push({ field: 'examples', message: `${unknown.join(', ')}: no such variable${expected}` });
  }
  if (problems.length > 0) return { problems };
  const sample = (id: string) => examples[id]!;
  const components: MetaTemplateComponent[] = [];
  const header = headerComponent(t, sample);
  if (header) components.push(header);
  const bodyIds = extractPlaceholders(t.body);
  components.push({
    type: 'BODY',
    text: t.body,
    ...(bodyIds.length > 0 && { example: { body_text: [bodyIds.map(sample)] } }),
  });
  if (t.footer) components.push({ type: 'FOOTER', text: t.footer });
  if (t.buttons?.length)
    components.push({ type: 'BUTTONS', buttons: t.buttons.map((b, i) => metaButton(b, i, sample)) });
  return { components };
}

/** The variable ids a translation needs samples for, in the pick-list's order. */
export function neededExamples(t: SubmittableTranslation): string[] {
  const header = t.header_type === 'TEXT' && hasPlaceholder(t.header_content) ? ['header_1'] : [];
  const buttons = (t.buttons ?? []).flatMap((b, i) =>
    b.type === 'URL' && hasPlaceholder(b.url) ? [`button_${i}_1`] : [],
  );
  return [...extractPlaceholders(t.body), ...header, ...buttons];
}

function hasPlaceholder(text: string | null | undefined): boolean {
  return text ? extractPlaceholders(text).length > 0 : false;
}

function headerComponent(t: SubmittableTranslation, sample: (id: string) => string): MetaTemplateComponent | null {
  if (!t.header_type || !t.header_content) return null;
  if (t.header_type !== 'TEXT') {
    // Meta takes a media header's sample as an uploaded asset handle, which Parley keeps as the header content.
    return { type: 'HEADER', format: t.header_type, example: { header_handle: [t.header_content] } };
  }
  return {
    type: 'HEADER',
    format: 'TEXT',
    text: t.header_content,
    ...(hasPlaceholder(t.header_content) && { example: { header_text: [sample('header_1')] } }),
  };
}

type MetaButton = NonNullable<MetaTemplateComponent['buttons']>[number];

function metaButton(b: Button, index: number, sample: (id: string) => string): MetaButton {
  if (b.type === 'PHONE_NUMBER') return { type: 'PHONE_NUMBER', text: b.text, phone_number: b.phone_number ?? '' };
  if (b.type !== 'URL') return { type: b.type, text: b.text };
  return {
    type: 'URL',
    text: b.text,
    url: b.url ?? '',
    // Meta's sample for a URL variable is the whole URL with the variable filled in.
    ...(hasPlaceholder(b.url) && { example: [fillFirst(b.url!, sample(`button_${index}_1`))] }),
  };
}

function fillFirst(url: string, value: string): string {
  return url.replace(/\{\{\s*1\s*\}\}/, value);
}
