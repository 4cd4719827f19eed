/**
 * What Meta's `account_update` webhooks say about a WhatsApp Business Account beyond its connection
 * (https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/account_update):
 * the latest word on each subject, kept on the account's numbers so people see it where the number is shown.
 */

/** One subject's latest word from Meta: its event, when Meta reported it, and Meta's details, whole. */
export interface AccountFact {
  event: string;
  at: string;
  /** Meta's details object (e.g. `violation_info`) as sent; null when the event carries none. */
  info: unknown;
}

/** The subjects Parley keeps, each from one account_update event and the field of Meta's details it carries. */
const SUBJECTS = {
  violation: { event: 'ACCOUNT_VIOLATION', details: 'violation_info' },
  restriction: { event: 'ACCOUNT_RESTRICTION', details: 'restriction_info' },
  ban: { event: 'DISABLED_UPDATE', details: 'ban_info' },
  pricing_tier: { event: 'VOLUME_BASED_PRICING_TIER_UPDATE', details: 'volume_tier_info' },
  auth_international_eligibility: {
    event: 'AUTH_INTL_PRICE_ELIGIBILITY_UPDATE',
    details: 'auth_international_rate_eligibility',
  },
  verified: { event: 'VERIFIED_ACCOUNT', details: null },
  business_verification: {
    event: 'PARTNER_CLIENT_CERTIFICATION_STATUS_UPDATE',
    details: 'partner_client_certification_info',
  },
} as const;

export type AccountSubject = keyof typeof SUBJECTS;
export const ACCOUNT_SUBJECTS = Object.keys(SUBJECTS) as AccountSubject[];

/** The account's latest word from Meta on each subject it has spoken of. */
export type AccountStatus = Partial<Record<AccountSubject, AccountFact>>;

/** The subject and fact an account_update value tells, or null for an event Parley keeps no state of. */
export function accountFactOf(
  value: Record<string, unknown>,
  at: string,
): { subject: AccountSubject; fact: AccountFact } | null {
  const subject = ACCOUNT_SUBJECTS.find((name) => SUBJECTS[name].event === value.event);
  if (subject === undefined) return null;
  const details = SUBJECTS[subject].details;
  return { subject, fact: { event: SUBJECTS[subject].event, at, info: (details && value[details]) ?? null } };
}

/** The status with the fact in, unless the subject already holds a later word (webhooks may come out of order). */
export function withAccountFact(status: AccountStatus, subject: AccountSubject, fact: AccountFact): AccountStatus {
  const held = status[subject];
  return held && held.at > fact.at ? status : { ...status, [subject]: fact };
}
