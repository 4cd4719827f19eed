import { useState } from 'preact/hooks';
import { action, v1, type PublicAnswer } from '../../api/client';
import { formatDateTime, formatList, formatMoney, formatNumber, formatPercent } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { Link } from '../../router';
import { can, useSession } from '../../session';
import { ConfirmButton, ErrorNote, useAsync } from '../../ui';
import { reportUrl, type ReportQueryState } from './report-query';

type CampaignReport = PublicAnswer<'/v1/reports/campaigns'>;
type CampaignOutcome = CampaignReport['campaigns'][number];

const STAGES = ['sent', 'delivered', 'read', 'replied', 'opted_out', 'failed'] as const;

/** The Reports page's campaign section: each campaign's funnel, why messages failed, its cost, and a resend. */
export function CampaignOutcomes({ query }: { query: ReportQueryState }) {
  const url = reportUrl('campaigns', query);
  const report = useAsync(() => v1.get('/v1/reports/campaigns', { query }), [url]);
  const data = report.data;
  return (
    <section aria-labelledby="campaign-outcomes-title" class="campaign-outcomes">
      <div class="section-head">
        <h2 id="campaign-outcomes-title">{t('campaign-report:title')}</h2>
        <a href={reportUrl('campaigns', query, 'csv')} download>
          {t('campaign-report:download')}
        </a>
      </div>
      <ErrorNote error={report.error} />
      {!data && !report.error && <p class="muted">{t('campaign-report:loading')}</p>}
      {data && <Outcomes report={data} onResent={report.reload} />}
    </section>
  );
}

function Outcomes({ report, onResent }: { report: CampaignReport; onResent: () => void }) {
  if (report.campaigns.length === 0) return <p class="muted">{t('campaign-report:empty')}</p>;
  return (
    <>
      <p>{t('campaign-report:total', { amount: formatMoney(report.total_cost, report.currency) })}</p>
      <PricingNote report={report} />
      {report.campaigns.map((campaign) => (
        <CampaignCard key={campaign.id} campaign={campaign} currency={report.currency} onResent={onResent} />
      ))}
    </>
  );
}

/** Which rates priced the costs: the workspace's own, Meta's rate card, or (in another currency) only the workspace's. */
function PricingNote({ report }: { report: CampaignReport }) {
  const { workspace_rates: own, rate_card: card, rate_card_verified: verified } = report.pricing;
  return (
    <p class="muted">
      {card ? t('campaign-report:pricing.card') : t('campaign-report:pricing.ownOnly')}{' '}
      {own.length > 0 && t('campaign-report:pricing.own', { categories: formatList(own) })}{' '}
      {card && !verified && t('campaign-report:pricing.unverified')}
    </p>
  );
}

function CampaignCard(props: { campaign: CampaignOutcome; currency: string; onResent: () => void }) {
  const { campaign, currency } = props;
  const titleId = `campaign-${campaign.id}`;
  return (
    <article aria-labelledby={titleId} class="campaign-outcome">
      <h3 id={titleId}>{campaign.name}</h3>
      <p class="muted">
        {t('campaign-report:dispatched', { date: formatDateTime(campaign.dispatched_at) })}
        {campaign.template_name && ` · ${t('campaign-report:template', { name: campaign.template_name })}`}
      </p>
      <Funnel campaign={campaign} />
      <FailureReasons campaign={campaign} />
      <Cost cost={campaign.cost} currency={currency} />
      <Resend campaign={campaign} onResent={props.onResent} />
    </article>
  );
}

/** The funnel as a table (the figures in words for everyone) with a bar per stage, as a share of those sent. */
function Funnel({ campaign }: { campaign: CampaignOutcome }) {
  const { funnel } = campaign;
  const base = Math.max(funnel.sent + funnel.failed, 1);
  return (
    <div class="table-wrap">
      <table class="funnel">
        <caption>{t('campaign-report:funnel.caption', { name: campaign.name })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('campaign-report:funnel.stage')}</th>
            <th scope="col">{t('campaign-report:funnel.messages')}</th>
            <th scope="col">{t('campaign-report:funnel.share')}</th>
          </tr>
        </thead>
        <tbody>
          {STAGES.map((stage) => (
            <tr key={stage}>
              <th scope="row">{t(`campaign-report:stages.${stage}`)}</th>
              <td>{formatNumber(funnel[stage])}</td>
              <td>
                <span class="funnel-bar" aria-hidden="true">
                  <span class={`funnel-fill ${stage}`} style={{ inlineSize: `${(funnel[stage] / base) * 100}%` }} />
                </span>
                {formatPercent(funnel[stage] / base)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FailureReasons({ campaign }: { campaign: CampaignOutcome }) {
  if (campaign.failure_reasons.length === 0) return null;
  return (
    <>
      <h4>{t('campaign-report:failures.title')}</h4>
      <ul class="failure-reasons">
        {campaign.failure_reasons.map((failure) => (
          <li key={String(failure.code)}>
            <strong>{t('campaign-report:failures.count', { count: failure.count })}</strong>
            {failure.code !== null && ` (${t('campaign-report:failures.code', { code: failure.code })})`}
            {': '}
            {failure.reason}
          </li>
        ))}
      </ul>
    </>
  );
}

function Cost({ cost, currency }: { cost: CampaignOutcome['cost']; currency: string }) {
  return (
    <p>
      {t('campaign-report:cost.amount', { amount: formatMoney(cost.amount, currency), count: cost.billable })}
      {cost.unpriced > 0 && ` ${t('campaign-report:cost.unpriced', { count: cost.unpriced })}`}
    </p>
  );
}

/** Resend to those who did not read: asks first, then links to the new campaign (or the one already made). */
function Resend({ campaign, onResent }: { campaign: CampaignOutcome; onResent: () => void }) {
  const { user } = useSession();
  const [made, setMade] = useState<string | null>(null);
  const resend = made ?? campaign.resent_as;
  if (resend) {
    return (
      <p role="status">
        {t('campaign-report:resend.done')} <Link href={`/campaigns/${resend}`}>{t('campaign-report:resend.view')}</Link>
      </p>
    );
  }
  if (!can(user, 'campaigns') || campaign.status !== 'sent' || campaign.not_read === 0) return null;
  return (
    <ConfirmButton
      label={t('campaign-report:resend.button', { count: campaign.not_read })}
      question={t('campaign-report:resend.question', { count: campaign.not_read, name: campaign.name })}
      confirmLabel={t('campaign-report:resend.confirm')}
      onConfirm={async () => {
        const created = await action('resend-campaign', { campaign_id: campaign.id });
        setMade(created.id);
        onResent();
      }}
    />
  );
}
