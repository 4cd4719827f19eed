import { deliveryCounts, plainReason } from '../messages/index.js';
import type { Deps } from '../db/deps.js';
import { formatTimestamp } from '../shared/time.js';
import { campaignReportRepository } from './campaign-report.repository.js';
import type { CampaignOutcome, CampaignReport } from './campaign-report.schema.js';
import { marketOf, cardRate, RATE_CARD } from './rate-card.js';
import type { ReportFilter } from './report-filter.js';
import type { CsvCell } from './report-response.js';
import { roundMoney } from './report.figures.js';
import { reportRepository } from './report.repository.js';

type Repository = ReturnType<typeof campaignReportRepository>;
type PricingRow = Awaited<ReturnType<Repository['statusAndPricing']>>[number];
type FailureRow = Awaited<ReturnType<Repository['failures']>>[number];
type Rates = { currency: string; rates: Record<string, number> };

/** A category's price per message for a recipient: the workspace's rate, else the card's (in USD only). */
type PriceOf = (category: string, phone: string) => number | null;

/**
 * Campaign outcomes (GET /api/v1/reports/campaigns): for each campaign dispatched in the range, how
 * far its messages got (sent → delivered → read → replied → opted out, and failed with Meta's
 * reasons) and what Meta charged for them, priced per message by the recipient's market.
 */
export async function campaignReport(deps: Deps, filter: ReportFilter): Promise<CampaignReport> {
  const repository = campaignReportRepository(deps.reads, deps.dialect);
  const rates = await workspaceRates(deps, filter.workspaceId);
  const useCard = rates.currency === RATE_CARD.currency;
  const priceOf: PriceOf = (category, phone) =>
    rates.rates[category] ?? (useCard ? cardRate(marketOf(phone), category) : null);
  const [campaigns, pricing, failures, responses] = await Promise.all([
    repository.campaigns(filter),
    repository.statusAndPricing(filter),
    repository.failures(filter),
    repository.responses(filter),
  ]);
  const outcomes = campaigns.map((campaign): CampaignOutcome => {
    const own = pricing.filter((row) => row.campaign_id === campaign.id);
    const counts = deliveryCounts(own.map((row) => ({ status: row.status, n: Number(row.n) })));
    const response = responses.find((row) => row.campaign_id === campaign.id);
    return {
      id: campaign.id,
      name: campaign.name,
      status: campaign.status,
      template_name: campaign.template_name,
      dispatched_at: formatTimestamp(campaign.dispatched_at),
      recipients: own.reduce((sum, row) => sum + Number(row.n), 0),
      funnel: {
        sent: counts.sent,
        delivered: counts.delivered,
        read: counts.read,
        replied: Number(response?.replied ?? 0),
        opted_out: Number(response?.opted_out ?? 0),
        failed: counts.failed,
      },
      not_read: counts.sent - counts.read,
      failure_reasons: failureReasons(failures.filter((row) => row.campaign_id === campaign.id)),
      cost: costOf(own, priceOf),
      resent_as: campaign.resent_as,
    };
  });
  return {
    range: { from: filter.from, to: filter.to, time_zone: filter.timeZone },
    currency: rates.currency,
    pricing: {
      workspace_rates: Object.keys(rates.rates).sort(),
      rate_card: useCard ? `${RATE_CARD.source} Effective ${RATE_CARD.effective}.` : null,
      rate_card_verified: RATE_CARD.verified,
    },
    total_cost: roundMoney(outcomes.reduce((sum, outcome) => sum + outcome.cost.amount, 0)),
    campaigns: outcomes,
  };
}

/** The workspace's own rates (Reports → Message rates); none set: no override, in the card's currency. */
async function workspaceRates(deps: Deps, workspaceId: string): Promise<Rates> {
  const row = await reportRepository(deps.reads).rates(workspaceId);
  if (!row) return { currency: RATE_CARD.currency, rates: {} };
  return { currency: row.currency, rates: JSON.parse(row.rates) as Record<string, number> };
}

/**
 * Whether Meta charges for a message. Since per-message pricing (July 2025) its status's `pricing.type`
 * says so: `regular` is charged, `free_customer_service` and `free_entry_point` are not. `billable` is
 * deprecated and may be absent; a status without a type (before July 2025) is read by it, as either
 * engine reads it out of JSON (true, 'true' or 1).
 */
function isCharged(row: PricingRow): boolean {
  if (row.pricing_type !== null) return row.pricing_type === 'regular';
  const billable: unknown = row.billable;
  return billable === true || billable === 1 || billable === 'true' || billable === '1';
}

/** The billable messages by category, each priced by its recipient's market. */
function costOf(rows: PricingRow[], priceOf: PriceOf): CampaignOutcome['cost'] {
  const categories = new Map<string, { category: string; billable: number; priced: number; amount: number }>();
  for (const row of rows) {
    if (!isCharged(row)) continue;
    const category = row.category ?? 'unknown';
    const entry = categories.get(category) ?? { category, billable: 0, priced: 0, amount: 0 };
    const n = Number(row.n);
    const rate = priceOf(category, String(row.phone));
    entry.billable += n;
    if (rate !== null) {
      entry.priced += n;
      entry.amount += n * rate;
    }
    categories.set(category, entry);
  }
  const list = [...categories.values()].map((entry) => ({ ...entry, amount: roundMoney(entry.amount) }));
  const billable = list.reduce((sum, entry) => sum + entry.billable, 0);
  const priced = list.reduce((sum, entry) => sum + entry.priced, 0);
  return {
    amount: roundMoney(list.reduce((sum, entry) => sum + entry.amount, 0)),
    billable,
    unpriced: billable - priced,
    categories: list.sort((a, b) => b.billable - a.billable || a.category.localeCompare(b.category)),
  };
}

/** Why messages failed, by error code, in plain words; the most frequent first. */
function failureReasons(rows: FailureRow[]): CampaignOutcome['failure_reasons'] {
  const byCode = new Map<string, CampaignOutcome['failure_reasons'][number]>();
  for (const row of rows) {
    const code = row.code === null ? null : Number(row.code);
    const title = row.title ?? 'No reason given';
    const entry = byCode.get(String(code)) ?? { code, title, reason: plainReason(code) ?? title, count: 0 };
    entry.count += Number(row.n);
    byCode.set(String(code), entry);
  }
  return [...byCode.values()].sort((a, b) => b.count - a.count);
}

/** The report as CSV: a header, then one row per campaign. */
export function campaignReportCsv(report: CampaignReport): CsvCell[][] {
  const header = [
    'campaign',
    'template',
    'dispatched_at',
    'recipients',
    'sent',
    'delivered',
    'read',
    'replied',
    'opted_out',
    'failed',
    'not_read',
    'billable',
    'unpriced',
    `cost_${report.currency.toLowerCase()}`,
    'failure_reasons',
  ];
  const rows = report.campaigns.map((campaign) => [
    campaign.name,
    campaign.template_name,
    campaign.dispatched_at,
    campaign.recipients,
    campaign.funnel.sent,
    campaign.funnel.delivered,
    campaign.funnel.read,
    campaign.funnel.replied,
    campaign.funnel.opted_out,
    campaign.funnel.failed,
    campaign.not_read,
    campaign.cost.billable,
    campaign.cost.unpriced,
    campaign.cost.amount,
    campaign.failure_reasons.map((reason) => `${reason.code ?? '-'} ${reason.title}: ${reason.count}`).join('; '),
  ]);
  return [header, ...rows];
}
