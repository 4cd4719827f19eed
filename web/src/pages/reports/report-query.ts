import type { ReportQuery } from '../../../../src/reports/report-filter';

/** The Reports page's filter bar, as every report endpoint takes it (src/reports/report-filter.ts). */
export type ReportQueryState = ReportQuery;

/** A report endpoint's address with the filter (and `format=csv` for the download link). */
export function reportUrl(report: string, query: ReportQueryState, format?: 'csv'): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, format })) if (value) params.set(key, value);
  const search = params.toString();
  return `/api/v1/reports/${report}${search ? `?${search}` : ''}`;
}
