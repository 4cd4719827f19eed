import type { ReportQueryState } from './report-query';

/** The Reports page's campaign funnel (issue 30 §1; built in the reports-campaigns branch). */
export function CampaignOutcomes(_props: { query: ReportQueryState }) {
  return null;
}
