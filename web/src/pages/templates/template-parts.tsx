import type { ComponentChildren } from 'preact';
import type { DashboardAnswer } from '../../api/client';
import type { PublicSchema } from '../../api/public';
import { neededExamples } from '../../../../src/templates/meta-components';
import { extractPlaceholders } from '../../../../src/templates/placeholders';
import { formatDisplayName } from '../../i18n/format';
import { t } from '../../i18n/i18n';

export { extractPlaceholders, neededExamples };

/** The mark before a button's label in the preview; a reply button's is the default. */
const BUTTON_ICONS: Record<string, string> = { URL: '↗ ', PHONE_NUMBER: '☎ ', VOICE_CALL: '📞 ' };

/** Meta's limit on a template footer. */
export const FOOTER_MAX = 60;
export const CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
/** The categories of Meta's Template Library. */
export const LIBRARY_CATEGORIES = ['UTILITY', 'AUTHENTICATION'] as const;
export const HEADER_TYPES = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'VOICE_CALL', 'FLOW'] as const;
/** Every button type a template may have: the editor adds the first four; Meta's authentication templates the rest. */
export const ALL_BUTTON_TYPES = [...BUTTON_TYPES, 'COPY_CODE', 'OTP'] as const;

/**
 * `value` as one of the API's choices. The form holds them as text, and only ever one of them (its selects
 * offer them, the API sent them), so another value is a bug.
 */
export function oneOf<T extends string>(choices: readonly T[], value: string): T {
  const found = choices.find((choice) => choice === value);
  if (found === undefined) throw new Error(`${value} is not one of ${choices.join(', ')}`);
  return found;
}

/** list-templates' item (the public API's Template). */
export type TemplateSummary = PublicSchema<'Template'>;
/** A template with every translation in full (GET /api/dashboard/templates/{id}). */
export type TemplateDetail = DashboardAnswer<'/api/dashboard/templates/{id}'>;
/** One translation in full. */
export type TranslationDetail = TemplateDetail['translations'][number];
type TemplateButton = TranslationDetail['buttons'][number];

/** An API value in words when no catalog names it: "PENDING_DELETION" → "Pending deletion". */
function humanised(value: string): string {
  const words = value.toLowerCase().replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

type Catalog = typeof import('../../locales/en/templates.json');

/** A translation's review status (Meta's APPROVED, PENDING…) in the person's language. */
export const statusLabel = (status: string): string =>
  t(`templates:status.${status as keyof Catalog['status']}`, { defaultValue: humanised(status) });

/** A status in words, coloured as a second cue (never the only one). */
export function StatusBadge({ status }: { status: string }) {
  const tone = status === 'APPROVED' ? 'ok' : status === 'PENDING' || status === 'IN_APPEAL' ? 'wait' : 'bad';
  return <span class={`status-badge ${tone}`}>{statusLabel(status)}</span>;
}

/** A category (MARKETING, UTILITY, AUTHENTICATION) in words. */
export const categoryLabel = (category: string): string =>
  t(`templates:category.${category as keyof Catalog['category']}`, { defaultValue: humanised(category) });

/** A header's kind (TEXT, IMAGE…) in words. */
export const headerTypeLabel = (type: string): string =>
  t(`templates:headerType.${type as keyof Catalog['headerType']}`, { defaultValue: humanised(type) });

/** A button type in words. */
export const buttonLabel = (type: string): string =>
  t(`templates:buttonType.${type as keyof Catalog['buttonType']}`, { defaultValue: humanised(type) });

/** An OTP button's kind (COPY_CODE, ONE_TAP, ZERO_TAP) in words: copy code, one-tap autofill, zero-tap. */
export const otpTypeLabel = (otpType: string): string =>
  t(`templates:otpType.${otpType as keyof Catalog['otpType']}`, { defaultValue: humanised(otpType) });

/** Meta's quality score (GREEN, YELLOW, RED, UNKNOWN) in words. */
export const qualityLabel = (score: string): string =>
  t(`templates:quality.${score as keyof Catalog['quality']}`, { defaultValue: humanised(score) });

/** Meta's rejection reason (INVALID_FORMAT…) in words. */
export const rejectionLabel = (reason: string): string =>
  t(`templates:rejection.${reason as keyof Catalog['rejection']}`, { defaultValue: humanised(reason) });

/** A template language (Meta's `en_US`, `pt_BR`) named in the person's language, its code beside it. */
export const languageLabel = (code: string): string => formatDisplayName(code, 'language');

/** The body with each `{{n}}` replaced by its sample when one is given; unfilled ones stay visible. */
export function fillPlaceholders(text: string, samples: Record<string, string>): ComponentChildren[] {
  const parts: ComponentChildren[] = [];
  let last = 0;
  for (const match of text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) {
    parts.push(...formatted(text.slice(last, match.index)));
    const sample = samples[match[1]!.replace(/^0+(?=\d)/, '')]?.trim();
    parts.push(sample ? <mark class="sample">{sample}</mark> : <span class="placeholder">{match[0]}</span>);
    last = match.index + match[0].length;
  }
  parts.push(...formatted(text.slice(last)));
  return parts;
}

/** WhatsApp's *bold*, _italic_ and ~strike~ markup as elements (never as HTML). */
function formatted(text: string): ComponentChildren[] {
  return text.split(/(\*[^*\n]+\*|_[^_\n]+_|~[^~\n]+~)/).map((part, i) => {
    if (i % 2 === 0) return part;
    const inner = part.slice(1, -1);
    if (part.startsWith('*')) return <strong>{inner}</strong>;
    if (part.startsWith('_')) return <em>{inner}</em>;
    return <s>{inner}</s>;
  });
}

export interface PreviewContent {
  header_type: string | null;
  header_content: string;
  body: string;
  footer: string;
  buttons: TemplateButton[];
}

/** How the message looks in WhatsApp: a chat bubble with header, body, footer and buttons. */
export function TemplatePreview(props: { content: PreviewContent; samples?: Record<string, string>; label?: string }) {
  const { content } = props;
  const samples = props.samples ?? {};
  return (
    <figure class="wa-preview" aria-label={props.label ?? t('templates:preview.label')}>
      <div class="wa-bubble" data-testid="template-preview">
        {content.header_type === 'TEXT' && content.header_content && (
          <p class="wa-header">{fillPlaceholders(content.header_content, samples)}</p>
        )}
        {content.header_type && content.header_type !== 'TEXT' && (
          <p class="wa-media">
            <span class="wa-media-type">{headerTypeLabel(content.header_type)}</span>
            {content.header_content && <span class="wa-media-url">{content.header_content}</span>}
          </p>
        )}
        <p class="wa-body">
          {content.body ? (
            fillPlaceholders(content.body, samples)
          ) : (
            <span class="muted">{t('templates:preview.noBody')}</span>
          )}
        </p>
        {content.footer && <p class="wa-footer">{content.footer}</p>}
      </div>
      {content.buttons.length > 0 && (
        <ul class="wa-buttons" aria-label={t('templates:preview.buttons')}>
          {content.buttons.map((b, i) => (
            <li key={i}>
              <span aria-hidden="true">{BUTTON_ICONS[b.type] ?? '↩ '}</span>
              {b.text || <span class="muted">{t('templates:preview.buttonText')}</span>}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
