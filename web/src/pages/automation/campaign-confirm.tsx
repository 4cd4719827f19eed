import { useId } from 'preact/hooks';
import type { DashboardAnswer, DashboardOptions } from '../../api/client';
import { Link } from '../../router';
import { formatDateTime, formatMoney, formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { pricingCategoryName } from '../pricing-category';
import { TemplatePreview } from '../templates/template-parts';

type Reviewed = DashboardAnswer<'/api/dashboard/campaigns/review', 'post'>;
/** Who a campaign goes to, as campaigns/review and create-campaign take it. */
export type Audience = DashboardOptions<'/api/dashboard/campaigns/review', 'post'>['body']['audience'];
/** The message as one recipient sees it. */
type MessagePreview = NonNullable<Reviewed['preview']>;

/** The confirm step's facts: who it reaches, what the first of them sees, and what it would cost. */
export type Review = Reviewed & { audience: Audience };
/** What create-campaign does with recipients past the portfolio's room (its `over_limit`). */
export type OverLimit = 'send' | 'wait';
const OVER_LIMIT_CHOICES: OverLimit[] = ['send', 'wait'];

/** A datetime-local value ("2025-06-01T09:30") as ISO 8601 with the viewer's own offset. */
export function localToIso(local: string): string {
  const date = new Date(local);
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.abs(Math.trunc(n))).padStart(2, '0');
  const seconds = local.length === 16 ? ':00' : '';
  return `${local}${seconds}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

const contacts = (count: number) => t('automation:confirm.contacts', { count });

/** The last step: whom it reaches, the message as the first recipient will see it, its cost; then send or go back. */
export function ConfirmSend(props: {
  review: Review;
  name: string;
  at: string | null;
  busy: boolean;
  overLimit: OverLimit;
  onOverLimit: (choice: OverLimit) => void;
  onConfirm: (event: Event) => void;
  onBack: () => void;
}) {
  const { opted_out, preview, cost } = props.review;
  const reached = props.review.contacts - opted_out;
  const when = props.at
    ? t('automation:confirm.on', { date: formatDateTime(localToIso(props.at)) })
    : t('automation:confirm.now');
  const skipped = opted_out > 0 ? t('automation:confirm.skipped', { count: opted_out }) : '';
  return (
    <section class="confirm-send" aria-labelledby="confirm-send-title" data-testid="confirm-send">
      <h2 id="confirm-send-title">{t('automation:confirm.title')}</h2>
      {reached === 0 ? (
        <p role="alert">
          {props.review.contacts === 0 ? t('automation:confirm.nobodyEmpty') : t('automation:confirm.nobodyOptedOut')}
        </p>
      ) : (
        <p role="status">
          {t('automation:confirm.goesTo', { name: props.name.trim() })} <strong>{contacts(reached)}</strong>{' '}
          {t('automation:confirm.rest', { when, skipped })}
        </p>
      )}
      {preview && <FirstMessage preview={preview} />}
      {reached > 0 && !preview && <p role="alert">{t('automation:confirm.nobodyPlaceholder')}</p>}
      {reached > 0 && <CostLine cost={cost} />}
      {reached > 0 && <LimitLine cost={cost} choice={props.overLimit} onChoice={props.onOverLimit} />}
      <div class="form-actions">
        <button type="button" onClick={props.onBack}>
          {t('automation:confirm.changeSomething')}
        </button>
        {reached > 0 && preview && (
          <button type="button" class="primary" disabled={props.busy} onClick={props.onConfirm}>
            {props.at
              ? t('automation:confirm.scheduleFor', { count: reached })
              : t('automation:confirm.sendTo', { count: reached })}
          </button>
        )}
      </div>
    </section>
  );
}

/** The template filled for the first recipient, drawn as WhatsApp shows it. */
function FirstMessage({ preview }: { preview: MessagePreview }) {
  const who = preview.contact_name ? `${preview.contact_name} (${preview.contact_phone})` : preview.contact_phone;
  const media = preview.header_media;
  const content = {
    header_type: media ? media.type.toUpperCase() : preview.header_text ? 'TEXT' : null,
    header_content: media?.link ?? preview.header_text ?? '',
    body: preview.text,
    footer: preview.footer ?? '',
    buttons: preview.buttons,
  };
  return (
    <div class="confirm-preview">
      <p>{t('automation:confirm.firstRecipient', { who })}</p>
      <TemplatePreview content={content} label={t('automation:confirm.previewLabel')} />
    </div>
  );
}

/**
 * The estimated cost (estimate-campaign's: by the recipients' markets at the rates in effect now), by
 * market when there are several, saying which part no rate prices.
 */
function CostLine({ cost }: { cost: Review['cost'] }) {
  const category = pricingCategoryName(cost.category);
  const money = (amount: number) => formatMoney(amount, cost.currency);
  if (cost.unpriced === cost.messages) {
    return (
      <p data-testid="campaign-cost">
        {t('automation:confirm.costUnknownBefore', { category })}{' '}
        <Link href="/reports">{t('automation:confirm.costUnknownLink')}</Link>
        {t('automation:confirm.costUnknownAfter')}
      </p>
    );
  }
  // formatMoney keeps the fractions of a cent that per-message rates have.
  const messages = t('automation:confirm.costMessages', { count: cost.messages, category });
  const [only] = cost.markets;
  const detail =
    cost.markets.length === 1 && only?.rate != null
      ? t('automation:confirm.costDetail', { messages, rate: money(only.rate) })
      : t('automation:confirm.costSummary', { messages });
  return (
    <div data-testid="campaign-cost">
      <p>
        {t('automation:confirm.costEstimated')} <strong>{money(cost.amount)}</strong> {detail}
      </p>
      {cost.markets.length > 1 && (
        <ul data-testid="campaign-cost-markets">
          {cost.markets.map((market) => (
            <li key={market.market}>
              {market.rate === null || market.amount === null
                ? t('automation:confirm.costMarketNoRate', { market: market.market, count: market.messages })
                : t('automation:confirm.costMarket', {
                    market: market.market,
                    count: market.messages,
                    rate: money(market.rate),
                    amount: money(market.amount),
                  })}
            </li>
          ))}
        </ul>
      )}
      {cost.unpriced > 0 && (
        <p>
          {t('automation:confirm.costPartlyUnknownBefore')}{' '}
          <Link href="/reports">{t('automation:confirm.costUnknownLink')}</Link>
          {t('automation:confirm.costUnknownAfter')}
        </p>
      )}
    </div>
  );
}

/**
 * The business portfolio's messaging limit (customers per moving 24 hours), what it used and the room
 * left; past the room, the person chooses to send all now (Meta refuses the excess) or to wait for room.
 */
function LimitLine(props: { cost: Review['cost']; choice: OverLimit; onChoice: (choice: OverLimit) => void }) {
  const { messaging_limit: limit, past_room: past } = props.cost;
  const id = useId();
  if (!limit) return null;
  const fact =
    limit.customers_per_24h === 'unlimited' || limit.room === null
      ? t('automation:confirm.limitUnlimited', { used: formatNumber(limit.used) })
      : t('automation:confirm.limit', {
          limit: formatNumber(limit.customers_per_24h),
          used: formatNumber(limit.used),
          room: formatNumber(limit.room),
        });
  return (
    <div data-testid="campaign-limit">
      <p>{fact}</p>
      {past > 0 && (
        <fieldset class="group">
          <legend class="warning" role="alert">
            {t('automation:confirm.pastRoom', { count: past })}
          </legend>
          {OVER_LIMIT_CHOICES.map((choice) => (
            <label class="check" key={choice}>
              <input
                type="radio"
                name={`${id}-over-limit`}
                checked={props.choice === choice}
                onChange={() => props.onChoice(choice)}
              />
              {choice === 'send' ? t('automation:confirm.overLimitSend') : t('automation:confirm.overLimitWait')}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}
