import type { FieldLabels } from '../../api';
import { CheckField, TextField } from '../../ui';
import { t } from '../../i18n/i18n';
import {
  codeOptionsInput,
  codeOptionsLabels,
  CodeOptionsFields,
  emptyCodeOptions,
  emptyOtp,
  otpInput,
  otpLabels,
  OtpFields,
  under,
  type CodeOptionsDraft,
  type OtpDraft,
} from './authentication-fields';

/** A library template Meta's docs use as their example, shown under the name field. */
const LIBRARY_NAME_EXAMPLE = 'appointment_reminder';
/** A language code as Meta writes them, shown in the empty language field. */
const LANGUAGE_EXAMPLE = 'en_US';

/** The optional parts of a utility library template's text, as Meta names them (`library_template_body_inputs`). */
const UTILITY_BODY_INPUTS = ['add_contact_number', 'add_learn_more_link', 'add_track_package_link'] as const;
type UtilityBodyInput = (typeof UTILITY_BODY_INPUTS)[number];

/** A template of Meta's Template Library and the inputs Meta makes it with. */
export interface LibraryDraft {
  library_template_name: string;
  language: string;
  base_url: string;
  url_suffix_example: string;
  phone_number: string;
  otp: OtpDraft;
  body: Record<UtilityBodyInput, boolean> & CodeOptionsDraft;
}

export const emptyLibrary = (): LibraryDraft => ({
  library_template_name: '',
  language: '',
  base_url: '',
  url_suffix_example: '',
  phone_number: '',
  otp: emptyOtp(),
  body: { add_contact_number: false, add_learn_more_link: false, add_track_package_link: false, ...emptyCodeOptions() },
});

const authentication = (category: string) => category === 'AUTHENTICATION';

/**
 * What the library template's buttons take, in the order sent: an authentication template's code button; a
 * utility template's URL and phone buttons, each only when given (Meta fits them to the template's buttons).
 */
function buttonInputs(draft: LibraryDraft, category: string) {
  if (authentication(category)) return [{ type: 'OTP', ...otpInput(draft.otp) }];
  const url = draft.base_url.trim() && {
    type: 'URL',
    url: {
      base_url: draft.base_url.trim(),
      ...(draft.url_suffix_example.trim() && { url_suffix_example: draft.url_suffix_example.trim() }),
    },
  };
  const phone = draft.phone_number.trim() && { type: 'PHONE_NUMBER', phone_number: draft.phone_number.trim() };
  return [url, phone].filter((input) => !!input);
}

/** Where the button input of this type is in the request, or null when it is not sent. */
function buttonPath(draft: LibraryDraft, category: string, type: string): string | null {
  const index = buttonInputs(draft, category).findIndex((input) => input.type === type);
  return index < 0 ? null : `library_template_button_inputs.${index}`;
}

/** The optional parts of its text: the utility ones checked, or an authentication template's options. */
function bodyInputs(draft: LibraryDraft, category: string) {
  if (authentication(category)) return codeOptionsInput(draft.body);
  return Object.fromEntries(UTILITY_BODY_INPUTS.filter((input) => draft.body[input]).map((input) => [input, true]));
}

/** create-template's fields for a Template Library template (instead of translations). */
export function libraryInput(draft: LibraryDraft, category: string) {
  const buttons = buttonInputs(draft, category);
  const body = bodyInputs(draft, category);
  return {
    library_template_name: draft.library_template_name.trim(),
    language: draft.language.trim(),
    ...(buttons.length > 0 && { library_template_button_inputs: buttons }),
    ...(Object.keys(body).length > 0 && { library_template_body_inputs: body }),
  };
}

/** A utility library template's button inputs. */
const buttonLabels = () => ({
  base_url: t('templates:library.baseUrl'),
  url_suffix_example: t('templates:library.urlExample'),
  phone_number: t('templates:library.phoneNumber'),
});

const utilityBodyLabels = (): Record<UtilityBodyInput, string> => ({
  add_contact_number: t('templates:library.addContactNumber'),
  add_learn_more_link: t('templates:library.addLearnMoreLink'),
  add_track_package_link: t('templates:library.addTrackPackageLink'),
});

/** Every input's label by the API field it fills, so the server's problems name them. */
export function libraryLabels(draft: LibraryDraft, category: string): FieldLabels {
  const path = (type: string) => buttonPath(draft, category, type);
  const url = path('URL');
  const phone = path('PHONE_NUMBER');
  const otp = path('OTP');
  const buttons = buttonLabels();
  return {
    library_template_name: t('templates:library.name'),
    language: t('templates:translation.language'),
    ...(url && {
      [`${url}.url.base_url`]: buttons.base_url,
      [`${url}.url.url_suffix_example`]: buttons.url_suffix_example,
    }),
    ...(phone && { [`${phone}.phone_number`]: buttons.phone_number }),
    ...(otp && under(otp, otpLabels(draft.otp, false))),
    ...under('library_template_body_inputs', authentication(category) ? codeOptionsLabels() : utilityBodyLabels()),
  };
}

/**
 * A template from Meta's Template Library: its name there, the language, and the inputs Meta makes it with.
 * `fieldMessage` is the server's problem with an API field, named by its label.
 */
export function LibraryFields(props: {
  draft: LibraryDraft;
  category: string;
  onChange: (draft: LibraryDraft, fields: string[]) => void;
  fieldMessage: (field: string) => string | undefined;
}) {
  const { draft, category, onChange, fieldMessage } = props;
  const labels = libraryLabels(draft, category);
  const buttons = buttonLabels();
  const set = (patch: Partial<LibraryDraft>, fields: string[]) => onChange({ ...draft, ...patch }, fields);
  // An input given or cleared moves the ones after it: every button problem goes with the change.
  const setButtons = (patch: Partial<LibraryDraft>) => set(patch, ['library_template_button_inputs']);
  const url = buttonPath(draft, category, 'URL');
  const phone = buttonPath(draft, category, 'PHONE_NUMBER');
  const otp = buttonPath(draft, category, 'OTP');
  const setBody = (patch: Partial<LibraryDraft['body']>, fields: string[]) =>
    set(
      { body: { ...draft.body, ...patch } },
      fields.map((field) => `library_template_body_inputs.${field}`),
    );

  return (
    <fieldset class="library-editor">
      <legend>{t('templates:library.legend')}</legend>
      <div class="field-row">
        <TextField
          label={labels.library_template_name!}
          value={draft.library_template_name}
          onValue={(library_template_name) => set({ library_template_name }, ['library_template_name'])}
          required
          maxLength={512}
          hint={
            <>
              {t('templates:library.nameHint')} <code>{LIBRARY_NAME_EXAMPLE}</code>
            </>
          }
          error={fieldMessage('library_template_name')}
        />
        <TextField
          label={labels.language!}
          value={draft.language}
          onValue={(language) => set({ language }, ['language'])}
          required
          placeholder={LANGUAGE_EXAMPLE}
          hint={t('templates:translation.languageHint')}
          error={fieldMessage('language')}
        />
      </div>
      <fieldset>
        <legend>{t('templates:library.buttons')}</legend>
        {authentication(category) ? (
          <OtpFields
            value={draft.otp}
            onChange={(otp) => setButtons({ otp })}
            fieldMessage={(field) => (otp ? fieldMessage(`${otp}.${field}`) : undefined)}
          />
        ) : (
          <>
            <p class="hint">{t('templates:library.buttonsHint')}</p>
            <div class="field-row">
              <TextField
                label={buttons.base_url}
                type="url"
                value={draft.base_url}
                onValue={(base_url) => setButtons({ base_url })}
                maxLength={2000}
                hint={t('templates:library.baseUrlHint', { placeholder: '{{1}}' })}
                error={url ? fieldMessage(`${url}.url.base_url`) : undefined}
              />
              <TextField
                label={buttons.url_suffix_example}
                type="url"
                value={draft.url_suffix_example}
                onValue={(url_suffix_example) => setButtons({ url_suffix_example })}
                maxLength={2000}
                hint={t('templates:library.urlExampleHint', { placeholder: '{{1}}' })}
                error={url ? fieldMessage(`${url}.url.url_suffix_example`) : undefined}
              />
              <TextField
                label={buttons.phone_number}
                type="tel"
                value={draft.phone_number}
                onValue={(phone_number) => setButtons({ phone_number })}
                maxLength={20}
                error={phone ? fieldMessage(`${phone}.phone_number`) : undefined}
              />
            </div>
          </>
        )}
      </fieldset>
      <fieldset>
        <legend>{t('templates:library.body')}</legend>
        {authentication(category) ? (
          <CodeOptionsFields
            value={draft.body}
            onChange={(options, fields) => setBody(options, fields)}
            fieldMessage={(field) => fieldMessage(`library_template_body_inputs.${field}`)}
          />
        ) : (
          <UtilityBodyFields draft={draft} setBody={setBody} fieldMessage={fieldMessage} />
        )}
      </fieldset>
    </fieldset>
  );
}

/** The optional parts of a utility library template's text, each a checkbox. */
function UtilityBodyFields(props: {
  draft: LibraryDraft;
  setBody: (patch: Partial<LibraryDraft['body']>, fields: string[]) => void;
  fieldMessage: (field: string) => string | undefined;
}) {
  const labels = utilityBodyLabels();
  return (
    <div class="field-row">
      {UTILITY_BODY_INPUTS.map((input) => (
        <CheckField
          key={input}
          label={labels[input]}
          checked={props.draft.body[input]}
          onChecked={(checked) => props.setBody({ [input]: checked }, [input])}
          error={props.fieldMessage(`library_template_body_inputs.${input}`)}
        />
      ))}
    </div>
  );
}
