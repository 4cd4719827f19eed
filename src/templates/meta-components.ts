import type { TemplateComponent } from '../channels/index.js';
import type { FieldError } from '../shared/errors.js';
import { APP_OTP_TYPES } from './authentication.js';
import { templateProblems } from './template.problems.js';
import { extractPlaceholders, type ParameterFormat } from './placeholders.js';
import { headerPlaceholders, variableSlots, type OtherComponent, type TranslationParts } from './template-variables.js';
import type { Button } from './template.schema.js';

/**
 * Parley's translation → Meta's template components, for submitting a template to the WABA
 * (`POST /{waba_id}/message_templates`, "Create and manage templates" in Meta's docs). The reverse,
 * Meta → Parley, is template-sync's `translationOf`: the two stay symmetric (a media header's
 * `header_content` is its `example.header_handle[0]` both ways; other components pass through whole).
 *
 * Sample values (`examples`) are keyed by the variable ids the template-variables pick-list uses
 * (`variableSlots`): body placeholders "1" or "first_name", "header_1", "button_<index>_1",
 * "button_<index>_coupon_code".
 */
export interface SubmittableTranslation {
  body: string;
  header_type?: string | null | undefined;
  header_content?: string | null | undefined;
  footer?: string | null | undefined;
  buttons?: Button[] | undefined;
  parameter_format?: string | undefined;
  other_components?: OtherComponent[] | undefined;
  examples?: Record<string, string> | undefined;
  add_security_recommendation?: boolean | undefined;
  code_expiration_minutes?: number | undefined;
}

type Sample = (id: string) => string;

/** Meta's components for a translation, or the problems (field relative to the translation) that stop it. */
export function metaComponents(
  t: SubmittableTranslation,
  category?: string,
): { components: TemplateComponent[] } | { problems: FieldError[] } {
  const examples = t.examples ?? {};
  const buttons = t.buttons ?? [];
  const problems = [
    ...sampleProblems(t, examples, category),
    ...otpAppProblems(buttons),
    ...flowButtonProblems(buttons),
  ];
  if (problems.length > 0) return { problems };
  const parts = partsOf(t);
  const sample: Sample = (id) => examples[id]!;
  const components: TemplateComponent[] =
    category === 'AUTHENTICATION' ? authenticationText(t) : composedText(t, parts, sample);
  components.push(...(parts.other_components as TemplateComponent[]));
  if (parts.buttons.length > 0) {
    components.push({ type: 'BUTTONS', buttons: parts.buttons.map((b, i) => metaButton(b, i, sample)) });
  }
  return { components };
}

/**
 * Samples missing or naming no variable. Meta writes an authentication template's body itself and takes no
 * sample of its code, so there a sample may be left out (one given must still name a variable).
 */
function sampleProblems(t: SubmittableTranslation, examples: Record<string, string>, category?: string) {
  const needed = neededExamples(t);
  const missing = category === 'AUTHENTICATION' ? [] : needed.filter((id) => !examples[id]?.trim());
  const unknown = Object.keys(examples).filter((id) => !needed.includes(id));
  const problems: FieldError[] = [];
  if (missing.length > 0) {
    problems.push(templateProblems.problem('examples', 'samples_missing', { variables: missing.join(', ') }));
  }
  if (unknown.length > 0) {
    const variables = unknown.join(', ');
    problems.push(
      needed.length > 0
        ? templateProblems.problem('examples', 'samples_unknown_listing', { variables, expected: needed.join(', ') })
        : templateProblems.problem('examples', 'samples_unknown', { variables }),
    );
  }
  return problems;
}

/** The header, body and footer of a template written here, with the samples of their variables. */
function composedText(t: SubmittableTranslation, parts: TranslationParts, sample: Sample): TemplateComponent[] {
  const header = headerComponent(parts, sample);
  const body = { type: 'BODY', text: t.body, ...textExample('body', t.body, parts.parameter_format, sample, '') };
  return [...(header ? [header] : []), body, ...(t.footer ? [{ type: 'FOOTER', text: t.footer }] : [])];
}

/**
 * Meta's "Authentication templates": Meta writes the body and footer in the template's language, so they
 * carry only the options (the body's security sentence, the footer's expiry); Parley's text is its copy
 * until the next sync brings Meta's words.
 */
function authenticationText(t: SubmittableTranslation): TemplateComponent[] {
  const body = {
    type: 'BODY',
    ...(t.add_security_recommendation !== undefined && { add_security_recommendation: t.add_security_recommendation }),
  };
  const expiry = t.code_expiration_minutes;
  return [body, ...(expiry !== undefined ? [{ type: 'FOOTER', code_expiration_minutes: expiry }] : [])];
}

/** Meta's OTP buttons that hand the code to an app (one-tap autofill, zero-tap) must name the app. */
function otpAppProblems(buttons: Button[]): FieldError[] {
  return buttons.flatMap((b, index) =>
    b.type === 'OTP' && APP_OTP_TYPES.includes(b.otp_type ?? '') && !b.supported_apps?.length
      ? [templateProblems.problem(`buttons.${index}.supported_apps`, 'otp_apps_required', { otp_type: b.otp_type! })]
      : [],
  );
}

/** Meta's FLOW button names one Flow (by id or by name), and a template has at most one. */
function flowButtonProblems(buttons: Button[]): FieldError[] {
  return buttons.flatMap((b, index) => {
    if (b.type !== 'FLOW') return [];
    if ((b.flow_id === undefined) === (b.flow_name === undefined)) {
      return [templateProblems.problem(`buttons.${index}.flow_id`, 'flow_button_flow_required')];
    }
    const first = buttons.findIndex((other) => other.type === 'FLOW');
    return first < index ? [templateProblems.problem(`buttons.${index}.type`, 'flow_button_repeated')] : [];
  });
}

/**
 * The variable ids a translation needs samples for, in the pick-list's order: every variable a send
 * fills, except a limited-time offer's expiry (a send-time value Meta takes no sample for).
 */
export function neededExamples(t: SubmittableTranslation): string[] {
  return variableSlots(partsOf(t))
    .filter((slot) => slot.part !== 'offer')
    .map((slot) => slot.id);
}

function partsOf(t: SubmittableTranslation): TranslationParts {
  return {
    body: t.body,
    header_type: t.header_type ?? null,
    header_content: t.header_content ?? null,
    buttons: t.buttons ?? [],
    parameter_format: t.parameter_format === 'NAMED' ? 'NAMED' : 'POSITIONAL',
    other_components: t.other_components ?? [],
  };
}

/**
 * Meta's `example` of a text's variables: `<part>_text` lists the numbered samples in order (the body's
 * nested once more); a NAMED template's `<part>_text_named_params` pairs each name with its sample.
 */
function textExample(part: 'body' | 'header', text: string, format: ParameterFormat, sample: Sample, prefix: string) {
  const placeholders = extractPlaceholders(text, format);
  if (placeholders.length === 0) return {};
  if (format === 'NAMED') {
    const params = placeholders.map((name) => ({ param_name: name, example: sample(prefix + name) }));
    return { example: { [`${part}_text_named_params`]: params } };
  }
  const samples = placeholders.map((p) => sample(prefix + p));
  return { example: { [`${part}_text`]: part === 'body' ? [samples] : samples } };
}

function headerComponent(parts: TranslationParts, sample: Sample): TemplateComponent | null {
  if (!parts.header_type || !parts.header_content) return null;
  if (parts.header_type !== 'TEXT') {
    // Meta takes a media header's sample as an uploaded asset handle, which Parley keeps as the header content.
    return { type: 'HEADER', format: parts.header_type, example: { header_handle: [parts.header_content] } };
  }
  const example = headerPlaceholders(parts).length > 0 ? textExample : () => ({});
  return {
    type: 'HEADER',
    format: 'TEXT',
    text: parts.header_content,
    ...example('header', parts.header_content, parts.parameter_format, sample, 'header_'),
  };
}

type MetaButton = NonNullable<TemplateComponent['buttons']>[number];

function metaButton(b: Button, index: number, sample: Sample): MetaButton {
  switch (b.type) {
    case 'PHONE_NUMBER':
      return { type: 'PHONE_NUMBER', text: b.text, phone_number: b.phone_number ?? '' };
    // Meta's "Copy code buttons": the sample coupon is a plain string.
    case 'COPY_CODE':
      return { type: 'COPY_CODE', example: sample(`button_${index}_coupon_code`) };
    // Meta's authentication templates: `{"type": "OTP", "otp_type": "COPY_CODE", "text": "Copy code"}`.
    // One-tap and zero-tap buttons name the Android apps that take the code (`supported_apps`).
    case 'OTP':
      return {
        type: 'OTP',
        otp_type: b.otp_type ?? 'COPY_CODE',
        text: b.text,
        ...(b.supported_apps && { supported_apps: b.supported_apps }),
        ...(b.zero_tap_terms_accepted !== undefined && { zero_tap_terms_accepted: b.zero_tap_terms_accepted }),
      };
    case 'URL':
      return {
        type: 'URL',
        text: b.text,
        url: b.url ?? '',
        // Meta's sample for a URL variable is the whole URL with the variable filled in.
        ...(extractPlaceholders(b.url ?? '').length > 0 && {
          example: [fillFirst(b.url!, sample(`button_${index}_1`))],
        }),
      };
    // Meta's "Sending a Flow": the Flow by id or name, and how it opens (navigate to a screen by default).
    case 'FLOW':
      return {
        type: 'FLOW',
        text: b.text,
        ...(b.flow_id !== undefined ? { flow_id: b.flow_id } : { flow_name: b.flow_name! }),
        flow_action: b.flow_action ?? 'navigate',
        ...(b.navigate_screen !== undefined && { navigate_screen: b.navigate_screen }),
      };
    default:
      return { type: b.type, text: b.text };
  }
}

function fillFirst(url: string, value: string): string {
  return url.replace(/\{\{\s*1\s*\}\}/, value);
}
