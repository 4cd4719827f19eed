import type { PublicSchema } from '../api/public';
import { t } from '../i18n/i18n';
import { formatDateTime, formatDisplayName, formatList } from '../i18n/format';

type AccountStatus = PublicSchema<'Channel'>['account_status'];

/** Meta's details are Meta's JSON, kept whole: read them field by field, without trusting their shape. */
type Details = Record<string, unknown>;
const detailsOf = (info: unknown): Details => (typeof info === 'object' && info !== null ? (info as Details) : {});
const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
/** Meta's Unix seconds, as the reader's date and time. */
const dateOf = (seconds: unknown) =>
  typeof seconds === 'number' ? formatDateTime(new Date(seconds * 1000).toISOString()) : '';

/** What Meta's account_update webhooks last said of the number's account, in the reader's words. */
export function accountStatusFacts(status: AccountStatus): string[] {
  const { violation, restriction, ban, pricing_tier, auth_international_eligibility, verified } = status;
  const verification = status.business_verification;
  return [
    violation &&
      t('channel:account.violation', {
        type: text(detailsOf(violation.info).violation_type),
        when: formatDateTime(violation.at),
      }),
    restriction && restrictionFact(restriction.info),
    ban && t('channel:account.ban', { state: formatList([detailsOf(ban.info).waba_ban_state].flat().map(text)) }),
    pricing_tier && pricingTierFact(detailsOf(pricing_tier.info)),
    auth_international_eligibility && authInternationalFact(detailsOf(auth_international_eligibility.info)),
    verified && t('channel:account.verified'),
    verification && t('channel:account.businessVerification', { status: text(detailsOf(verification.info).status) }),
  ].filter((fact): fact is string => Boolean(fact));
}

/** Meta's restrictions (`restriction_info`), each until its expiration; none left: no fact. */
function restrictionFact(info: unknown): string | null {
  const restrictions = (Array.isArray(info) ? info : [info]).map(detailsOf).filter((r) => r.restriction_type);
  if (restrictions.length === 0) return null;
  const each = restrictions.map((r) =>
    r.expiration
      ? t('channel:account.restrictionUntil', { type: text(r.restriction_type), until: dateOf(r.expiration) })
      : text(r.restriction_type),
  );
  return t('channel:account.restricted', { restrictions: formatList(each) });
}

function pricingTierFact(info: Details): string {
  return t('channel:account.pricingTier', {
    tier: text(info.tier),
    category: text(info.pricing_category),
    region: text(info.region),
    month: text(info.effective_month),
  });
}

/** Eligible from a start time; markets Meta names apart (`exception_countries`) from their own. */
function authInternationalFact(info: Details): string {
  const exceptions = (Array.isArray(info.exception_countries) ? info.exception_countries : []).map(detailsOf);
  const from = t('channel:account.authInternational', { from: dateOf(info.start_time) });
  if (exceptions.length === 0) return from;
  const each = exceptions.map((country) =>
    t('channel:account.authInternationalCountry', {
      country: formatDisplayName(text(country.country_code), 'region'),
      from: dateOf(country.start_time),
    }),
  );
  return `${from} (${formatList(each)})`;
}
