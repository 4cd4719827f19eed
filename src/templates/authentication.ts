/**
 * Meta's "Authentication templates": a one-time code with an OTP button, whose body and footer Meta writes
 * itself in the template's language from two options (the security sentence, the code's expiry). Shared by
 * the API's checks and the dashboard's form.
 */

/** An OTP button's kinds: the code copied on tap, autofilled in an app on tap, or handed to the app unseen. */
export const OTP_TYPES = ['COPY_CODE', 'ONE_TAP', 'ZERO_TAP'] as const;

/** The kinds that hand the code to an Android app, which the button must name (`supported_apps`). */
export const APP_OTP_TYPES: readonly string[] = ['ONE_TAP', 'ZERO_TAP'];

/** Meta's limit on the Android apps one OTP button names. */
export const SUPPORTED_APPS_MAX = 5;

/** Meta's 1–90 minutes an authentication template's footer says the code lasts. */
export const CODE_EXPIRATION_MINUTES = { minimum: 1, maximum: 90 } as const;

/**
 * Meta's English words for an authentication template with these options, as its documentation gives them:
 * Parley keeps them as the translation's text (the code is `{{1}}`, which a send fills) until a sync brings
 * Meta's words in the template's own language.
 */
export function authenticationCopy(options: {
  add_security_recommendation: boolean;
  code_expiration_minutes: number | null;
}): { body: string; footer: string | null } {
  const security = options.add_security_recommendation ? ' For your security, do not share this code.' : '';
  const minutes = options.code_expiration_minutes;
  return {
    body: `*{{1}}* is your verification code.${security}`,
    footer: minutes === null ? null : `This code expires in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  };
}
