import { readErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import { reportResponse, sendReport, type CsvCell } from './report-response.js';
import { VOLUME_MEASURES, VolumeQuery, VolumeReport } from './volume.schema.js';
import type { VolumeReportService } from './volume.service.js';

/** GET /api/v1/reports/volume: the day-by-day and hour-of-week volume (public API, MCP and the Reports page). */
export function registerVolumeRoutes(app: Api, volume: VolumeReportService): void {
  app.addSchema(VolumeReport);
  app.get(
    '/api/v1/reports/volume',
    {
      config: { access: 'read', permission: 'reports' },
      schema: {
        operationId: 'getVolumeReport',
        tags: ['Reports'],
        summary: 'Conversations and messages per day and by hour of the week',
        description:
          'For each day of the range (the workspace’s time zone, every day, zeros included): conversations opened and closed, messages received and sent; the same for the previous period of the same length, with totals and their change; and the messages customers sent in each of the week’s 168 hours. Narrowed by `phone_number_id`, `team_id` and `label` like every report. `format=csv` answers a CSV file: the days (`table=days`) or the hour-of-week cells (`table=hours`).',
        querystring: VolumeQuery,
        response: { 200: reportResponse(VolumeReport), ...readErrors(403) },
      },
    },
    async (request, reply) => {
      const { format, table, ...query } = request.query;
      const { filter, report } = await volume.report(principalOf(request), query);
      const name = table === 'hours' ? 'volume-hours' : 'volume';
      return sendReport(reply, { format, name, filter }, report, table === 'hours' ? hourRows : dayRows);
    },
  );
}

function dayRows(report: VolumeReport): CsvCell[][] {
  const rows = (period: string, days: VolumeReport['days']) =>
    days.map((day) => [period, day.day, ...VOLUME_MEASURES.map((measure) => day[measure])]);
  return [
    ['period', 'day', ...VOLUME_MEASURES],
    ...rows('current', report.days),
    ...rows('previous', report.previous_days),
  ];
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function hourRows(report: VolumeReport): CsvCell[][] {
  return [
    ['weekday', 'hour', 'messages_received'],
    ...report.hours_of_week.map((cell) => [WEEKDAYS[cell.weekday]!, cell.hour, cell.messages_received]),
  ];
}
