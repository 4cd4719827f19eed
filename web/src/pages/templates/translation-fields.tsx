import { useId } from 'preact/hooks';
import type { ApiError } from '../../api';
import { TextField } from '../../ui';
import {
  BUTTON_TYPES,
  buttonLabel,
  FOOTER_MAX,
  HEADER_TYPES,
  neededExamples,
  StatusBadge,
  statusLabel,
  TemplatePreview,
} from './template-parts';

export interface ButtonDraft {
  type: string;
  text: string;
  url: string;
  phone_number: string;
}

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
}

/** The label of a variable's sample input, by its id. */
function sampleLabel(variable: string): string {
  if (variable === 'header_1') return 'Sample for the header’s {{1}}';
  const button = /^button_(\d+)_1$/.exec(variable);
  if (button) return `Sample for button ${Number(button[1]) + 1}’s {{1}}`;
  return `Sample for {{${variable}}}`;
}

const MAX_BUTTONS = 10;

/** One translation's inputs beside its live preview. */
export function TranslationFields(props: {
  index: number;
  draft: TranslationDraft;
  /** The changed draft, and the API fields the change touched (their problems go). */
  onChange: (draft: TranslationDraft, fields: string[]) => void;
  onRemove?: (() => void) | undefined;
  error: ApiError | null;
}) {
  const { index, draft, onChange } = props;
  const id = useId();
  const set = (patch: Partial<TranslationDraft>, fields: string[] = Object.keys(patch)) =>
    onChange({ ...draft, ...patch }, fields);
  const fieldError = (field: string) => props.error?.fieldMessage(`translations.${index}.${field}`);
  const variables = neededExamples({ ...draft, header_type: draft.header_type || null });
  const setButton = (i: number, patch: Partial<ButtonDraft>) =>
    set(
      { buttons: draft.buttons.map((b, j) => (j === i ? { ...b, ...patch } : b)) },
      Object.keys(patch).map((key) => `buttons.${i}.${key}`),
    );

  return (
    <fieldset class="translation-editor">
      <legend>
        Translation {index + 1}
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
              label="Language"
              value={draft.language}
              onValue={(language) => set({ language })}
              required
              readOnly={draft.saved}
              placeholder="en_US"
              hint={draft.saved ? 'A saved translation keeps its language.' : 'Meta’s code, e.g. en_US, de, pt_BR'}
              error={fieldError('language')}
            />
            {draft.saved && (
              <div class="field">
                <span class="field-label">Status</span>
                <StatusBadge status={draft.status} />
              </div>
            )}
          </div>
          <div class="field-row">
            <div class="field">
              <label for={`${id}-header-type`}>Header</label>
              <select
                id={`${id}-header-type`}
                value={draft.header_type}
                onChange={(e) => set({ header_type: e.currentTarget.value }, ['header_type', 'header_content'])}
              >
                <option value="">No header</option>
                {HEADER_TYPES.map((h) => (
                  <option key={h} value={h}>
                    {statusLabel(h)}
                  </option>
                ))}
              </select>
            </div>
            {draft.header_type && (
              <TextField
                label={draft.header_type === 'TEXT' ? 'Header text' : 'Header media URL'}
                value={draft.header_content}
                onValue={(header_content) => set({ header_content })}
                required
                maxLength={2000}
                error={fieldError('header_content')}
              />
            )}
          </div>
          <TextArea
            id={`${id}-body`}
            label="Body"
            value={draft.body}
            onValue={(body) => set({ body })}
            hint="Numbered placeholders such as {{1}} are filled in when the message is sent."
            error={fieldError('body')}
          />
          {variables.length > 0 && (
            <fieldset class="samples">
              <legend>Sample values (Meta reviews the template with them)</legend>
              {variables.map((v) => (
                <TextField
                  key={v}
                  label={sampleLabel(v)}
                  value={draft.samples[v] ?? ''}
                  required
                  onValue={(value) => set({ samples: { ...draft.samples, [v]: value } }, ['examples'])}
                />
              ))}
              {fieldError('examples') && <small class="error">{fieldError('examples')}</small>}
            </fieldset>
          )}
          <FooterField
            id={`${id}-footer`}
            value={draft.footer}
            onValue={(footer) => set({ footer })}
            error={fieldError('footer')}
          />
          <fieldset class="buttons-editor">
            <legend>Buttons</legend>
            {draft.buttons.map((b, i) => (
              <div class="field-row button-row" key={i}>
                <div class="field">
                  <label for={`${id}-button-${i}-type`}>Button {i + 1} type</label>
                  <select
                    id={`${id}-button-${i}-type`}
                    value={b.type}
                    onChange={(e) => setButton(i, { type: e.currentTarget.value })}
                  >
                    {BUTTON_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {buttonLabel(t)}
                      </option>
                    ))}
                  </select>
                </div>
                <TextField
                  label={`Button ${i + 1} text`}
                  value={b.text}
                  maxLength={25}
                  required
                  onValue={(text) => setButton(i, { text })}
                  error={fieldError(`buttons.${i}.text`)}
                />
                {b.type === 'URL' && (
                  <TextField
                    label={`Button ${i + 1} URL`}
                    type="url"
                    value={b.url}
                    onValue={(url) => setButton(i, { url })}
                    error={fieldError(`buttons.${i}.url`)}
                  />
                )}
                {b.type === 'PHONE_NUMBER' && (
                  <TextField
                    label={`Button ${i + 1} phone number`}
                    type="tel"
                    value={b.phone_number}
                    maxLength={20}
                    onValue={(phone_number) => setButton(i, { phone_number })}
                    error={fieldError(`buttons.${i}.phone_number`)}
                  />
                )}
                <button type="button" onClick={() => set({ buttons: draft.buttons.filter((_, j) => j !== i) })}>
                  Remove button {i + 1}
                </button>
              </div>
            ))}
            <button
              type="button"
              disabled={draft.buttons.length >= MAX_BUTTONS}
              onClick={() =>
                set({ buttons: [...draft.buttons, { type: 'QUICK_REPLY', text: '', url: '', phone_number: '' }] })
              }
            >
              Add button
            </button>
          </fieldset>
          {props.onRemove && (
            <button type="button" class="danger" onClick={props.onRemove}>
              Remove translation {index + 1}
            </button>
          )}
        </div>
        <div>
          <h2 class="preview-title">Live preview</h2>
          <TemplatePreview
            content={{ ...draft, header_type: draft.header_type || null }}
            samples={draft.samples}
            label={`Live preview of translation ${index + 1}`}
          />
        </div>
      </div>
    </fieldset>
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
      <label for={props.id}>Footer (optional)</label>
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
        {full && ' — the most a footer can hold'}
        {props.error && ` — ${props.error}`}
      </small>
    </div>
  );
}
