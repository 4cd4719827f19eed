import type { Deps } from '../db/deps.js';
import { pricingInfo, tallyCost } from './cost-tally.js';
import { costLedgerRows, ledgerNames, type LedgerGrouping, type LedgerRow } from './cost-ledger.repository.js';
import type { CostLedger } from './cost.schema.js';
import { loadPricing } from './pricing.js';
import type { ReportFilter } from './report-filter.js';
import type { CsvCell } from './report-response.js';

/**
 * The cost ledger (GET /api/v1/reports/costs): what the workspace's charged messages of the range cost,
 * by day, number or campaign. Computed when asked, from the pricing Meta's status webhooks stored on
 * each message, by the one rule (pricing.ts): nothing is written as messages go out or statuses come
 * in, so sending and webhooks pay nothing for it, and a card imported later prices past messages too.
 */
export async function costLedger(deps: Deps, filter: ReportFilter, grouping: LedgerGrouping): Promise<CostLedger> {
  const pricing = await loadPricing(deps.reads, filter.workspaceId, filter.timeZone);
  const [rows, names] = await Promise.all([
    costLedgerRows(deps.reads, deps.dialect, filter, pricing, grouping),
    ledgerNames(deps.reads, filter.workspaceId, grouping),
  ]);
  const byGroup = new Map<string | null, LedgerRow[]>(grouping === 'day' ? filter.days.map((day) => [day, []]) : []);
  for (const row of rows) byGroup.set(row.grp, [...(byGroup.get(row.grp) ?? []), row]);
  const groups = [...byGroup].map(([group, own]) => {
    const named = group === null ? undefined : names.get(group);
    return { key: named?.key ?? group, name: named?.name ?? null, cost: tallyCost(pricing, own) };
  });
  if (grouping !== 'day') groups.sort((a, b) => b.cost.amount - a.cost.amount || b.cost.billable - a.cost.billable);
  return {
    range: { from: filter.from, to: filter.to, time_zone: filter.timeZone },
    group_by: grouping,
    currency: pricing.currency,
    pricing: pricingInfo(pricing),
    total: tallyCost(pricing, rows),
    groups: grouping === 'day' ? groups : groups.filter((group) => group.cost.billable > 0),
  };
}

/** The ledger as CSV: a header, then one row per group. */
export function costLedgerCsv(ledger: CostLedger): CsvCell[][] {
  const header = [ledger.group_by, 'name', 'billable', 'unpriced', `cost_${ledger.currency.toLowerCase()}`];
  return [header, ...ledger.groups.map((g) => [g.key, g.name, g.cost.billable, g.cost.unpriced, g.cost.amount])];
}
