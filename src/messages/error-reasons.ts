/**
 * What Meta's error codes mean for a business, in plain words (Meta's "Error codes" reference for the
 * Cloud API). Only the words live here; whether a code is retried is the provider's classification.
 */
const REASONS: Record<number, string> = {
  0: 'Meta could not authenticate the request; reconnect the WhatsApp channel.',
  190: 'The access token expired or was revoked; reconnect the WhatsApp channel with a new token.',
  10: 'The access token lacks a permission Meta requires; check the app permissions.',
  200: 'The access token lacks a permission Meta requires; check the app permissions.',
  4: 'The app made too many calls to Meta; sending resumes once the limit resets.',
  80007: 'The WhatsApp Business Account reached its rate limit; sending resumes once the limit resets.',
  130429: 'More messages were sent than this number’s throughput allows; they are retried after a pause.',
  130472: 'Meta held the message back because the recipient’s number is part of an experiment.',
  131000: 'Something went wrong at Meta; the send can be tried again.',
  131005: 'The access token is not allowed to send for this number.',
  131008: 'The message was missing something Meta requires.',
  131009: 'A value in the message is not one Meta accepts.',
  131016: 'WhatsApp was temporarily unavailable.',
  131021: 'The recipient is the business number itself.',
  131026:
    'The message could not be delivered: the number may not be on WhatsApp, use an old app version or not have accepted the latest terms.',
  131031: 'The business account is locked by Meta (for example for a policy violation).',
  131042: 'The business account has a payment problem; check the payment method in Meta Business Manager.',
  131045: 'The phone number is not registered correctly (certificate problem).',
  131047:
    'More than 24 hours have passed since the customer last wrote; only a template message can reopen the conversation.',
  131048: 'Meta limited this number because too many of its messages were reported as spam.',
  131049:
    'Meta chose not to deliver this marketing message to keep the recipient’s experience healthy; try again later.',
  131050: 'The recipient has stopped marketing messages from this business.',
  131051: 'WhatsApp does not support this kind of message.',
  131052: 'The customer’s media could not be downloaded.',
  131053: 'The media could not be uploaded; check its type and size.',
  131056: 'Too many messages were sent to this one recipient in a short time; they are retried after a pause.',
  131057: 'The business account is in maintenance.',
  132000: 'The number of template variables does not match the template.',
  132001: 'The template does not exist in this language, or is not approved yet.',
  132005: 'The template text with its variables is too long.',
  132007: 'The template text breaks WhatsApp’s formatting policy.',
  132012: 'A template variable has the wrong format.',
  132015: 'The template is paused because of low quality.',
  132016: 'The template is disabled because of low quality.',
  133010: 'The phone number is not registered with the WhatsApp Cloud API.',
  368: 'The business account is temporarily blocked for a policy violation.',
};

/**
 * A plain-language reason for Meta's error code; a general one for codes Meta added since. Null for
 * Parley's own errors (no code, e.g. "campaign cancelled"): their title is already written for people.
 */
export function plainReason(code: number | null): string | null {
  if (code === null) return null;
  return REASONS[code] ?? 'Meta reported an error; see its title and details.';
}
