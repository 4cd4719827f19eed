import { useId } from 'preact/hooks';
import type { FieldLabels } from '../../api';
import { CheckField, TextField } from '../../ui';
import {
  APP_OTP_TYPES,
  authenticationCopy,
  CODE_EXPIRATION_MINUTES,
  OTP_TYPES,
  SUPPORTED_APPS_MAX,
} from '../../../../src/templates/authentication';
import { formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { otpTypeLabel, type PreviewContent, type TranslationDetail } from './template-parts';

type OtpType = (typeof OTP_TYPES)[number];

interface AppDraft {
  package_name: string;
  signature_hash: string;
}

/** An OTP button as the form holds it: its app rows stay while another kind is chosen, so nothing typed is lost. */
export interface OtpDraft {
  otp_type: OtpType;
  text: string;
  apps: AppDraft[];
  zero_tap_terms_accepted: boolean;
}

/** The two options Meta writes an authentication template's text from; the expiry as typed. */
export interface CodeOptionsDraft {
  add_security_recommendation: boolean;
  code_expiration_minutes: string;
}

export interface AuthenticationDraft extends CodeOptionsDraft {
  otp: OtpDraft;
}

/** A part of a form: its value, and its changes with the API fields they touch (their problems go). */
interface PartProps<T> {
  value: T;
  onChange: (value: T, fields: string[]) => void;
  /** The server's problem with a field (relative to this part), named by the field's label. */
  fieldMessage: (field: string) => string | undefined;
}

/** A part's labels, keyed by where the part sits in the request (`buttons.0` + `text`). */
export const under = (prefix: string, labels: FieldLabels): FieldLabels =>
  Object.fromEntries(Object.entries(labels).map(([field, label]) => [`${prefix}.${field}`, label]));

/** An Android package name as Meta's docs write them, shown in the empty field. */
const PACKAGE_EXAMPLE = 'com.example.app';

const emptyApp = (): AppDraft => ({ package_name: '', signature_hash: '' });

export const emptyOtp = (): OtpDraft => ({
  otp_type: 'COPY_CODE',
  text: '',
  apps: [emptyApp()],
  zero_tap_terms_accepted: false,
});

export const emptyCodeOptions = (): CodeOptionsDraft => ({
  add_security_recommendation: false,
  code_expiration_minutes: '',
});

export const emptyAuthentication = (): AuthenticationDraft => ({ otp: emptyOtp(), ...emptyCodeOptions() });

/** A saved authentication translation as the form holds it. */
export function authenticationDraftOf(tr: TranslationDetail): AuthenticationDraft {
  const otp = tr.buttons.find((b) => b.type === 'OTP');
  return {
    otp: otp
      ? {
          otp_type: OTP_TYPES.find((type) => type === otp.otp_type) ?? 'COPY_CODE',
          text: otp.text,
          apps: otp.supported_apps?.length ? otp.supported_apps : [emptyApp()],
          zero_tap_terms_accepted: otp.zero_tap_terms_accepted ?? false,
        }
      : emptyOtp(),
    add_security_recommendation: tr.add_security_recommendation ?? false,
    code_expiration_minutes: tr.code_expiration_minutes?.toString() ?? '',
  };
}

const namesApps = (otp: OtpDraft) => APP_OTP_TYPES.includes(otp.otp_type);

/**
 * The OTP button's kind, apps and terms as the API takes them. Rows are sent as typed (so a problem's index
 * is its row), except that rows all left blank name no app: the server then says the button needs one.
 */
export function otpInput(otp: OtpDraft) {
  const apps = otp.apps.map((app) => ({
    package_name: app.package_name.trim(),
    signature_hash: app.signature_hash.trim(),
  }));
  const named = apps.some((app) => app.package_name || app.signature_hash);
  return {
    otp_type: otp.otp_type,
    ...(namesApps(otp) && named && { supported_apps: apps }),
    ...(otp.otp_type === 'ZERO_TAP' && { zero_tap_terms_accepted: otp.zero_tap_terms_accepted }),
  };
}

/** The expiry as a number; empty is none (a value the API refuses is sent, so its answer names the field). */
const minutesOf = (typed: string): number | null => (typed.trim() === '' ? null : Number(typed));

export function codeOptionsInput(options: CodeOptionsDraft) {
  const minutes = minutesOf(options.code_expiration_minutes);
  return {
    add_security_recommendation: options.add_security_recommendation,
    ...(minutes !== null && { code_expiration_minutes: minutes }),
  };
}

/** Meta's text for these options (English, until a sync brings the template language's words). */
const copyOf = (draft: AuthenticationDraft) =>
  authenticationCopy({
    add_security_recommendation: draft.add_security_recommendation,
    code_expiration_minutes: minutesOf(draft.code_expiration_minutes),
  });

/** An authentication translation's parts as the API takes them: Meta's text, the OTP button and the options. */
export function authenticationInput(draft: AuthenticationDraft) {
  const { body, footer } = copyOf(draft);
  const button = { type: 'OTP' as const, text: draft.otp.text, ...otpInput(draft.otp) };
  return { body, footer, buttons: [button], ...codeOptionsInput(draft) };
}

/** How the authentication message looks, in Meta's words. */
export function authenticationPreview(draft: AuthenticationDraft): PreviewContent {
  const { body, footer } = copyOf(draft);
  return {
    header_type: null,
    header_content: '',
    body,
    footer: footer ?? '',
    buttons: [{ type: 'OTP', text: draft.otp.text }],
  };
}

/** The OTP inputs' labels by API field; `withText` when the button's text is written here. */
export function otpLabels(otp: OtpDraft, withText: boolean): FieldLabels {
  const apps = otp.apps.flatMap((_, i): [string, string][] => {
    const number = formatNumber(i + 1);
    return [
      [`supported_apps.${i}.package_name`, t('templates:authentication.packageName', { number })],
      [`supported_apps.${i}.signature_hash`, t('templates:authentication.signatureHash', { number })],
    ];
  });
  return {
    otp_type: t('templates:authentication.codeButton'),
    ...(withText && { text: t('templates:authentication.buttonText') }),
    supported_apps: t('templates:authentication.apps'),
    zero_tap_terms_accepted: t('templates:authentication.zeroTapTerms'),
    ...Object.fromEntries(apps),
  };
}

export const codeOptionsLabels = (): FieldLabels => ({
  add_security_recommendation: t('templates:authentication.securityRecommendation'),
  code_expiration_minutes: t('templates:authentication.codeExpiry'),
});

/** A hand-written authentication translation's labels: its one button is the OTP one. */
export const authenticationLabels = (draft: AuthenticationDraft): FieldLabels => ({
  ...under('buttons.0', otpLabels(draft.otp, true)),
  ...codeOptionsLabels(),
});

/** What an authentication template takes instead of free text, header and other buttons (as WhatsApp Manager asks). */
export function AuthenticationFields(props: PartProps<AuthenticationDraft>) {
  const { value, onChange, fieldMessage } = props;
  return (
    <>
      <p class="hint">{t('templates:authentication.metaWrites')}</p>
      <OtpFields
        value={value.otp}
        withText
        onChange={(otp, fields) =>
          onChange(
            { ...value, otp },
            fields.map((field) => `buttons.0.${field}`),
          )
        }
        fieldMessage={(field) => fieldMessage(`buttons.0.${field}`)}
      />
      <CodeOptionsFields
        value={value}
        onChange={(options, fields) => onChange({ ...value, ...options }, fields)}
        fieldMessage={fieldMessage}
      />
    </>
  );
}

/** The code button: its kind, its text, and for one-tap and zero-tap the Android apps (and zero-tap's terms). */
export function OtpFields(props: PartProps<OtpDraft> & { withText?: boolean }) {
  const { value: otp, onChange, fieldMessage } = props;
  const id = useId();
  const labels = otpLabels(otp, props.withText ?? false);
  const set = (patch: Partial<OtpDraft>, fields: string[] = Object.keys(patch)) =>
    onChange({ ...otp, ...patch }, fields);
  return (
    <>
      <div class="field-row">
        <div class="field">
          <label for={`${id}-kind`}>{labels.otp_type}</label>
          <select
            id={`${id}-kind`}
            value={otp.otp_type}
            onChange={(e) =>
              set({ otp_type: OTP_TYPES.find((type) => type === e.currentTarget.value) ?? 'COPY_CODE' }, [
                'otp_type',
                'supported_apps',
              ])
            }
          >
            {OTP_TYPES.map((type) => (
              <option key={type} value={type}>
                {otpTypeLabel(type)}
              </option>
            ))}
          </select>
        </div>
        {props.withText && (
          <TextField
            label={labels.text!}
            value={otp.text}
            onValue={(text) => set({ text })}
            maxLength={25}
            required
            hint={t('templates:authentication.buttonTextHint')}
            error={fieldMessage('text')}
          />
        )}
      </div>
      {namesApps(otp) && <AppRows otp={otp} labels={labels} set={set} fieldMessage={fieldMessage} />}
      {otp.otp_type === 'ZERO_TAP' && (
        <CheckField
          label={labels.zero_tap_terms_accepted!}
          hint={t('templates:authentication.zeroTapTermsHint')}
          checked={otp.zero_tap_terms_accepted}
          onChecked={(zero_tap_terms_accepted) => set({ zero_tap_terms_accepted })}
          error={fieldMessage('zero_tap_terms_accepted')}
        />
      )}
    </>
  );
}

/** The Android apps that take the code: at least one row, at most Meta's limit. */
function AppRows(props: {
  otp: OtpDraft;
  labels: FieldLabels;
  set: (patch: Partial<OtpDraft>, fields: string[]) => void;
  fieldMessage: (field: string) => string | undefined;
}) {
  const { otp, labels, set, fieldMessage } = props;
  const setApp = (i: number, patch: Partial<AppDraft>) =>
    set({ apps: otp.apps.map((app, j) => (j === i ? { ...app, ...patch } : app)) }, [
      'supported_apps',
      ...Object.keys(patch).map((key) => `supported_apps.${i}.${key}`),
    ]);
  return (
    <fieldset class="apps-editor">
      <legend>{labels.supported_apps}</legend>
      <p class="hint">{t('templates:authentication.appsHint', { max: formatNumber(SUPPORTED_APPS_MAX) })}</p>
      {otp.apps.map((app, i) => (
        <div class="field-row" key={i}>
          <TextField
            label={labels[`supported_apps.${i}.package_name`]!}
            value={app.package_name}
            onValue={(package_name) => setApp(i, { package_name })}
            maxLength={224}
            placeholder={PACKAGE_EXAMPLE}
            error={fieldMessage(`supported_apps.${i}.package_name`)}
          />
          <TextField
            label={labels[`supported_apps.${i}.signature_hash`]!}
            value={app.signature_hash}
            onValue={(signature_hash) => setApp(i, { signature_hash })}
            maxLength={11}
            error={fieldMessage(`supported_apps.${i}.signature_hash`)}
          />
          <button
            type="button"
            disabled={otp.apps.length === 1}
            onClick={() => set({ apps: otp.apps.filter((_, j) => j !== i) }, ['supported_apps'])}
          >
            {t('templates:authentication.removeApp', { number: formatNumber(i + 1) })}
          </button>
        </div>
      ))}
      {fieldMessage('supported_apps') && <small class="error">{fieldMessage('supported_apps')}</small>}
      <button
        type="button"
        disabled={otp.apps.length >= SUPPORTED_APPS_MAX}
        onClick={() => set({ apps: [...otp.apps, emptyApp()] }, ['supported_apps'])}
      >
        {t('templates:authentication.addApp')}
      </button>
    </fieldset>
  );
}

/** The security sentence and the code's expiry, which Meta turns into the body's last sentence and the footer. */
export function CodeOptionsFields(props: PartProps<CodeOptionsDraft>) {
  const { value, onChange, fieldMessage } = props;
  const labels = codeOptionsLabels();
  const { minimum, maximum } = CODE_EXPIRATION_MINUTES;
  const set = (patch: Partial<CodeOptionsDraft>) => onChange({ ...value, ...patch }, Object.keys(patch));
  return (
    <div class="field-row">
      <CheckField
        label={labels.add_security_recommendation!}
        hint={t('templates:authentication.securityRecommendationHint')}
        checked={value.add_security_recommendation}
        onChecked={(add_security_recommendation) => set({ add_security_recommendation })}
        error={fieldMessage('add_security_recommendation')}
      />
      <TextField
        label={labels.code_expiration_minutes!}
        type="number"
        inputMode="numeric"
        min={minimum}
        max={maximum}
        step={1}
        value={value.code_expiration_minutes}
        onValue={(code_expiration_minutes) => set({ code_expiration_minutes })}
        hint={t('templates:authentication.codeExpiryHint', { min: formatNumber(minimum), max: formatNumber(maximum) })}
        error={fieldMessage('code_expiration_minutes')}
      />
    </div>
  );
}
