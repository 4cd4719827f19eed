import { useId } from 'preact/hooks';
import type { ApiError } from '../../api';
import { TextField } from '../../ui';
import {
  BUTTON_TYPES,
  buttonLabel,
  FOOTER_MAX,
  HEADER_TYPES,
  headerTypeLabel,
  neededExamples,
  StatusBadge,
  TemplatePreview,
} from './template-parts';
import { FlowButtonFields } from './flow-button-fields';
import { AuthenticationFields, authenticationPreview, type AuthenticationDraft } from './authentication-fields';
import { formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';

export interface ButtonDraft {
  type: string;
  text: string;
  url: string;
  phone_number: string;
  /** A FLOW button's Flow (Meta's id), how it opens and the screen it opens on. */
  flow_id: string;
  flow_action: 'navigate' | 'data_exchange';
  navigate_screen: string;
}

/** A new button's fields, before any is filled. */
export const emptyButton = (): ButtonDraft => ({
  type: 'QUICK_REPLY',
  text: '',
  url: '',
  phone_number: '',
  flow_id: '',
  flow_action: 'navigate',
  navigate_screen: '',
});

/** A translation being edited; `saved` ones keep their language (translations are upserted by it). */
export interface TranslationDraft {
  key: number;
  saved: boolean;
  language: string;
  /** Meta's status of a saved translation (shown, never edited: Meta decides it). */
  status: string;
  header_type: string;
  header_content: string;
  body: string;
  footer: string;
  buttons: ButtonDraft[];
  /** Sample values by variable id ("1", "header_1", "button_0_1"): Meta reviews with them; the preview shows them. */
  samples: Record<string, string>;
  /** What an AUTHENTICATION template has instead of the text, header and buttons above (kept while another is chosen). */
  authentication: AuthenticationDraft;
}

/** The label of a variable's sample input, by its id. */
function sampleLabel(variable: string): string {
  if (variable === 'header_1') return t('templates:translation.sampleHeader', { placeholder: '{{1}}' });
  const button = /^button_(\d+)_1$/.exec(variable);
  if (button)
    return t('templates:translation.sampleButton', {
      number: formatNumber(Number(button[1]) + 1),
      placeholder: '{{1}}',
    });
  return t('templates:translation.sampleBody', { placeholder: `{{${variable}}}` });
}

const MAX_BUTTONS = 10;
/** A language code as Meta writes them, shown in the empty language field. */
const LANGUAGE_EXAMPLE = 'en_US';

type SetDraft = (patch: Partial<TranslationDraft>, fields?: string[]) => void;

/** One translation's inputs beside its live preview; an authentication template's are Meta's few options. */
export function TranslationFields(props: {
  index: number;
  draft: TranslationDraft;
  authentication: boolean;
  /** The changed draft, and the API fields the change touched (their problems go). */
  onChange: (draft: TranslationDraft, fields: string[]) => void;
  onRemove?: (() => void) | undefined;
  error: ApiError | null;
  /** The server's problem with a labelled API field, named by its label. */
  labelledMessage: (field: string) => string | undefined;
}) {
  const { index, draft, onChange } = props;
  const id = useId();
  const set: SetDraft = (patch, fields = Object.keys(patch)) => onChange({ ...draft, ...patch }, fields);
  const fieldMessage = (field: string) => props.error?.fieldMessage(`translations.${index}.${field}`);
  const preview = props.authentication
    ? { content: authenticationPreview(draft.authentication), samples: {} }
    : { content: { ...draft, header_type: draft.header_type || null }, samples: draft.samples };

  return (
    <fieldset class="translation-editor">
      <legend>
        {t('templates:translation.legend', { number: formatNumber(index + 1) })}
        {draft.language && (
          <>
            {' '}
            (<code>{draft.language}</code>)
          </>
        )}
      </legend>
      <div class="template-layout">
        <div>
          <div class="field-row">
            <TextField
              label={t('templates:translation.language')}
              value={draft.language}
              onValue={(language) => set({ language })}
              required
              readOnly={draft.saved}
              placeholder={LANGUAGE_EXAMPLE}
              hint={
                draft.saved ? t('templates:translation.languageHintSaved') : t('templates:translation.languageHint')
              }
              error={fieldMessage('language')}
            />
            {draft.saved && (
              <div class="field">
                <span class="field-label">{t('templates:translation.status')}</span>
                <StatusBadge status={draft.status} />
              </div>
            )}
          </div>
          {props.authentication ? (
            <AuthenticationFields
              value={draft.authentication}
              onChange={(authentication, fields) => set({ authentication }, fields)}
              fieldMessage={(field) => props.labelledMessage(`translations.${index}.${field}`)}
            />
          ) : (
            <ComposedFields id={id} draft={draft} set={set} fieldMessage={fieldMessage} />
          )}
          {props.onRemove && (
            <button type="button" class="danger" onClick={props.onRemove}>
              {t('templates:translation.remove', { number: formatNumber(index + 1) })}
            </button>
          )}
        </div>
        <div>
          <h2 class="preview-title">{t('templates:translation.livePreview')}</h2>
          <TemplatePreview
            content={preview.content}
            samples={preview.samples}
            label={t('templates:translation.livePreviewOf', { number: formatNumber(index + 1) })}
          />
        </div>
      </div>
    </fieldset>
  );
}

/** A template written here: header, body, samples, footer and buttons. */
function ComposedFields(props: {
  id: string;
  draft: TranslationDraft;
  set: SetDraft;
  fieldMessage: (field: string) => string | undefined;
}) {
  const { id, draft, set, fieldMessage } = props;
  const variables = neededExamples({ ...draft, header_type: draft.header_type || null });
  const setButton = (i: number, patch: Partial<ButtonDraft>) =>
    set(
      { buttons: draft.buttons.map((b, j) => (j === i ? { ...b, ...patch } : b)) },
      Object.keys(patch).map((key) => `buttons.${i}.${key}`),
    );
  return (
    <>
      <div class="field-row">
        <div class="field">
          <label for={`${id}-header-type`}>{t('templates:translation.header')}</label>
          <select
            id={`${id}-header-type`}
            value={draft.header_type}
            onChange={(e) => set({ header_type: e.currentTarget.value }, ['header_type', 'header_content'])}
          >
            <option value="">{t('templates:translation.noHeader')}</option>
            {HEADER_TYPES.map((h) => (
              <option key={h} value={h}>
                {headerTypeLabel(h)}
              </option>
            ))}
          </select>
        </div>
        {draft.header_type && (
          <TextField
            label={
              draft.header_type === 'TEXT'
                ? t('templates:translation.headerText')
                : t('templates:translation.headerMedia')
            }
            value={draft.header_content}
            onValue={(header_content) => set({ header_content })}
            required
            maxLength={2000}
            error={fieldMessage('header_content')}
          />
        )}
      </div>
      <TextArea
        id={`${id}-body`}
        label={t('templates:translation.body')}
        value={draft.body}
        onValue={(body) => set({ body })}
        hint={t('templates:translation.bodyHint', { placeholder: '{{1}}' })}
        error={fieldMessage('body')}
      />
      {variables.length > 0 && (
        <fieldset class="samples">
          <legend>{t('templates:translation.samples')}</legend>
          {variables.map((v) => (
            <TextField
              key={v}
              label={sampleLabel(v)}
              value={draft.samples[v] ?? ''}
              required
              onValue={(value) => set({ samples: { ...draft.samples, [v]: value } }, ['examples'])}
            />
          ))}
          {fieldMessage('examples') && <small class="error">{fieldMessage('examples')}</small>}
        </fieldset>
      )}
      <FooterField
        id={`${id}-footer`}
        value={draft.footer}
        onValue={(footer) => set({ footer })}
        error={fieldMessage('footer')}
      />
      <fieldset class="buttons-editor">
        <legend>{t('templates:translation.buttons')}</legend>
        {draft.buttons.map((b, i) => (
          <div class="field-row button-row" key={i}>
            <div class="field">
              <label for={`${id}-button-${i}-type`}>
                {t('templates:translation.buttonType', { number: formatNumber(i + 1) })}
              </label>
              <select
                id={`${id}-button-${i}-type`}
                value={b.type}
                onChange={(e) => setButton(i, { type: e.currentTarget.value })}
              >
                {BUTTON_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {buttonLabel(type)}
                  </option>
                ))}
              </select>
            </div>
            <TextField
              label={t('templates:translation.buttonText', { number: formatNumber(i + 1) })}
              value={b.text}
              maxLength={25}
              required
              onValue={(text) => setButton(i, { text })}
              error={fieldMessage(`buttons.${i}.text`)}
            />
            {b.type === 'URL' && (
              <TextField
                label={t('templates:translation.buttonUrl', { number: formatNumber(i + 1) })}
                type="url"
                value={b.url}
                onValue={(url) => setButton(i, { url })}
                error={fieldMessage(`buttons.${i}.url`)}
              />
            )}
            {b.type === 'PHONE_NUMBER' && (
              <TextField
                label={t('templates:translation.buttonPhone', { number: formatNumber(i + 1) })}
                type="tel"
                value={b.phone_number}
                maxLength={20}
                onValue={(phone_number) => setButton(i, { phone_number })}
                error={fieldMessage(`buttons.${i}.phone_number`)}
              />
            )}
            {b.type === 'FLOW' && (
              <FlowButtonFields
                id={id}
                index={i}
                button={b}
                onChange={(change) => setButton(i, change)}
                fieldMessage={fieldMessage}
              />
            )}
            <button type="button" onClick={() => set({ buttons: draft.buttons.filter((_, j) => j !== i) })}>
              {t('templates:translation.removeButton', { number: formatNumber(i + 1) })}
            </button>
          </div>
        ))}
        <button
          type="button"
          disabled={draft.buttons.length >= MAX_BUTTONS}
          onClick={() => set({ buttons: [...draft.buttons, emptyButton()] })}
        >
          {t('templates:translation.addButton')}
        </button>
      </fieldset>
    </>
  );
}

function TextArea(props: {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint: string;
  error?: string | undefined;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <textarea
        id={props.id}
        value={props.value}
        required
        maxLength={1024}
        onInput={(e) => props.onValue(e.currentTarget.value)}
        aria-describedby={`${props.id}-note`}
        aria-invalid={props.error ? true : undefined}
      />
      <small id={`${props.id}-note`} class={props.error ? 'error' : 'hint'}>
        {props.error ?? props.hint}
      </small>
    </div>
  );
}

/** The footer with a live "n/60" count; input past the limit is refused, not silently sent. */
function FooterField(props: {
  id: string;
  value: string;
  onValue: (value: string) => void;
  error?: string | undefined;
}) {
  const full = props.value.length >= FOOTER_MAX;
  return (
    <div class="field">
      <label for={props.id}>{t('templates:translation.footer')}</label>
      <input
        id={props.id}
        value={props.value}
        maxLength={FOOTER_MAX}
        onInput={(e) => {
          const input = e.currentTarget;
          // maxLength stops typing; this also stops a script or an odd paste from getting past it.
          if (input.value.length > FOOTER_MAX) input.value = input.value.slice(0, FOOTER_MAX);
          props.onValue(input.value);
        }}
        aria-describedby={`${props.id}-count`}
        aria-invalid={props.error ? true : undefined}
      />
      <small id={`${props.id}-count`} class={props.error || full ? 'error counter' : 'hint counter'}>
        <span data-testid="footer-count">
          {props.value.length}/{FOOTER_MAX}
        </span>
        {full && t('templates:translation.footerFull')}
        {props.error && ` — ${props.error}`}
      </small>
    </div>
  );
}
