import { deliveryCounts, plainReason } from '../messages/index.js';
import type { Deps } from '../db/deps.js';
import { formatTimestamp } from '../shared/time.js';
import { campaignReportRepository } from './campaign-report.repository.js';
import type { CampaignOutcome, CampaignReport } from './campaign-report.schema.js';
import { pricingInfo, tallyCost } from './cost-tally.js';
import { loadPricing } from './pricing.js';
import { roundMoney } from './report.figures.js';
import type { ReportFilter } from './report-filter.js';
import type { CsvCell } from './report-response.js';

type Repository = ReturnType<typeof campaignReportRepository>;
type FailureRow = Awaited<ReturnType<Repository['failures']>>[number];

/**
 * Campaign outcomes (GET /api/v1/reports/campaigns): for each campaign dispatched in the range, how
 * far its messages got (sent → delivered → read → replied → opted out, and failed with Meta's
 * reasons) and what Meta charged for them, priced per message by the recipient's market.
 */
export async function campaignReport(deps: Deps, filter: ReportFilter): Promise<CampaignReport> {
  const pricing = await loadPricing(deps.reads, filter.workspaceId, filter.timeZone);
  const repository = campaignReportRepository(deps.reads, deps.dialect);
  const [campaigns, priced, failures, responses] = await Promise.all([
    repository.campaigns(filter),
    repository.statusAndPricing(filter, pricing),
    repository.failures(filter),
    repository.responses(filter),
  ]);
  const outcomes = campaigns.map((campaign): CampaignOutcome => {
    const own = priced.filter((row) => row.campaign_id === campaign.id);
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
      cost: tallyCost(pricing, own),
      resent_as: campaign.resent_as,
    };
  });
  return {
    range: { from: filter.from, to: filter.to, time_zone: filter.timeZone },
    currency: pricing.currency,
    pricing: pricingInfo(pricing),
    total_cost: roundMoney(outcomes.reduce((sum, outcome) => sum + outcome.cost.amount, 0)),
    campaigns: outcomes,
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
