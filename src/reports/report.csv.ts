import { stringify } from 'csv-stringify/sync';
import type { Report } from './report.types.js';

/** The Reports page's tables, each downloadable as CSV. */
export const REPORT_TABLES = [
  'conversations',
  'response-times',
  'satisfaction',
  'messages',
  'campaigns',
  'costs',
] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

type Cell = string | number | null;

/** Header and rows of one table, in the words the page uses. */
function tableOf(report: Report, table: ReportTable): Cell[][] {
  switch (table) {
    case 'conversations':
      return [['Day', 'Opened', 'Closed'], ...report.conversations.map((row) => [row.day, row.opened, row.closed])];
    case 'response-times':
      return [
        [
          'Agent',
          'Conversations closed',
          'Answered first',
          'First response median (s)',
          'First response p90 (s)',
          'Resolution median (s)',
          'Resolution p90 (s)',
        ],
        ...report.response_times.map((row) => [
          row.agent?.name ?? 'Everyone',
          row.conversations,
          row.answered,
          row.first_response.median_seconds,
          row.first_response.p90_seconds,
          row.resolution.median_seconds,
          row.resolution.p90_seconds,
        ]),
      ];
    case 'satisfaction':
      return [
        ['Agent', 'Ratings', 'Average rating (1–5)'],
        ...report.satisfaction.map((row) => [row.agent?.name ?? 'Everyone', row.ratings, row.average]),
      ];
    case 'messages':
      return [
        ['Direction', 'Status', 'Messages'],
        ...report.messages.map((row) => [row.direction, row.status, row.count]),
      ];
    case 'campaigns':
      return [
        [
          'Campaign',
          'Sent at',
          'Sent',
          'Delivered',
          'Read',
          'Replied',
          'Failed',
          'Failure reasons',
          `Cost (${report.costs.currency})`,
        ],
        ...report.campaigns.map((row) => [
          row.name,
          row.sent_at,
          row.sent,
          row.delivered,
          row.read,
          row.replied,
          row.failed,
          row.failure_reasons.map((reason) => `${reason.reason} (${reason.count})`).join('; '),
          row.cost,
        ]),
      ];
    case 'costs':
      return [
        ['Category', 'Billable messages', `Rate (${report.costs.currency})`, `Cost (${report.costs.currency})`],
        ...report.costs.categories.map((row) => [row.category, row.billable, row.rate, row.cost]),
        ['Total', null, null, report.costs.total],
      ];
  }
}

/**
 * One table as CSV, with a byte-order mark so spreadsheet apps read it as UTF-8. A text cell a
 * spreadsheet would run as a formula (a campaign named "=HYPERLINK(…)") is written with a leading `'`.
 */
export function reportCsv(report: Report, table: ReportTable): string {
  const rows = tableOf(report, table).map((row) => row.map((cell) => (typeof cell === 'string' ? inert(cell) : cell)));
  return `\uFEFF${stringify(rows)}`;
}

const inert = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
