import type { ReportQueryState } from './report-query';

/** The Reports page's per-agent and per-team figures (issue 30 §1; built in the reports-team branch). */
export function TeamFigures(_props: { query: ReportQueryState }) {
  return null;
}
