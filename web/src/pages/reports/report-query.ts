import type { operations } from '../../api/public';

/** The Reports page's filter bar, as every report endpoint takes it (`format` aside: the page asks for JSON). */
export type ReportQueryState = Omit<NonNullable<operations['getAgentReport']['parameters']['query']>, 'format'>;

/** A report endpoint's address with the filter (and `format=csv` for the download link). */
export function reportUrl(
  report: string,
  query: ReportQueryState & Record<string, string | undefined>,
  format?: 'csv',
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, format })) if (value) params.set(key, value);
  const search = params.toString();
  return `/api/v1/reports/${report}${search ? `?${search}` : ''}`;
}

const FIELDS = ['from', 'to', 'phone_number_id', 'team_id', 'label'] as const;

/** The filter a Reports address carries (`/reports?from=…&team_id=…`); empty values are left out. */
export function queryOf(params: URLSearchParams): ReportQueryState {
  const query: ReportQueryState = {};
  for (const field of FIELDS) {
    const value = params.get(field);
    if (value) query[field] = value;
  }
  return query;
}

/** The Reports page's address for a filter. */
export function reportsPath(query: ReportQueryState): string {
  const params = new URLSearchParams();
  for (const field of FIELDS) if (query[field]) params.set(field, query[field]);
  const search = params.toString();
  return `/reports${search ? `?${search}` : ''}`;
}
