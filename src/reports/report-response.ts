import { Type, type TSchema } from '@sinclair/typebox';
import { stringify } from 'csv-stringify/sync';
import type { FastifyReply } from 'fastify';
import { neutraliseCell } from '../shared/csv-cell.js';
import type { ReportFilter } from './report-filter.js';

/** Every report answers JSON, or the same figures as a CSV file with `format=csv` (a spreadsheet's download). */
export const ReportFormat = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv')], {
      description: 'json (the default), or csv: the same figures as a CSV file, one row per line of the report',
    }),
  ),
});

/** A report's 200 response: its JSON schema, and text/csv for `format=csv`. */
export function reportResponse(schema: TSchema) {
  return {
    description: 'The report (JSON), or with `format=csv` the same figures as CSV',
    content: {
      'application/json': { schema },
      'text/csv': { schema: Type.String({ description: 'A header row, then one row per line of the report' }) },
    },
  };
}

export type CsvCell = string | number | boolean | null;

/**
 * Answers a report as JSON, or as a CSV download named after the report and its days
 * (`agents-2026-03-01-2026-03-31.csv`) when the query asked for `format=csv`: with a byte-order mark, so
 * spreadsheet apps read it as UTF-8, and a text cell a spreadsheet would run as a formula (an agent
 * named "=HYPERLINK(…)") written with a leading `'`.
 */
export function sendReport<T>(
  reply: FastifyReply,
  request: { format?: 'json' | 'csv' | undefined; name: string; filter: ReportFilter },
  report: T,
  table: (report: T) => CsvCell[][],
): FastifyReply | T {
  if (request.format !== 'csv') return report;
  const { name, filter } = request;
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${filter.from}-${filter.to}.csv"`)
    .header('cache-control', 'no-store')
    .send(
      `\uFEFF${stringify(table(report).map((row) => row.map((cell) => (typeof cell === 'string' ? neutraliseCell(cell) : cell))))}`,
    );
}
