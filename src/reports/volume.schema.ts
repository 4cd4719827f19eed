import { Type, type Static } from '@sinclair/typebox';
import { ReportFormat } from './report-response.js';
import { ReportQuery } from './report-filter.js';

/** The four daily measures of the volume report. */
export const VOLUME_MEASURES = [
  'conversations_opened',
  'conversations_closed',
  'messages_received',
  'messages_sent',
] as const;
export type VolumeMeasure = (typeof VOLUME_MEASURES)[number];

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Measures = {
  conversations_opened: Count('Conversations that opened (the customer wrote with none open)'),
  conversations_closed: Count('Conversations marked done'),
  messages_received: Count('Messages customers sent'),
  messages_sent: Count('Messages to customers (by people, the API and automations), whatever their delivery'),
};

const VolumeDay = Type.Object({
  day: Type.String({ description: 'YYYY-MM-DD in the workspace’s time zone' }),
  ...Measures,
});

const Total = Type.Object({
  current: Type.Integer({ minimum: 0 }),
  previous: Type.Integer({ minimum: 0, description: 'The same number of days just before the range' }),
  change: Type.Integer({ description: 'current − previous' }),
  change_ratio: Type.Union([Type.Number(), Type.Null()], {
    description: 'change ÷ previous (0.25 = 25 % more); null when the previous period had none',
  }),
});

/** The volume report's answer (GET /api/v1/reports/volume). */
export const VolumeReport = Type.Object(
  {
    range: Type.Object({
      from: Type.String(),
      to: Type.String(),
      time_zone: Type.String(),
      previous_from: Type.String({ description: 'First day of the previous period' }),
      previous_to: Type.String({ description: 'Last day of the previous period' }),
    }),
    days: Type.Array(VolumeDay, { description: 'Every day of the range, zeros included' }),
    previous_days: Type.Array(VolumeDay, { description: 'Every day of the previous period, in the same order' }),
    hours_of_week: Type.Array(
      Type.Object({
        weekday: Type.Integer({ minimum: 0, maximum: 6, description: '0 = Sunday … 6 = Saturday' }),
        hour: Type.Integer({ minimum: 0, maximum: 23, description: 'Local hour the message arrived in' }),
        messages_received: Type.Integer({ minimum: 0 }),
      }),
      { description: '168 cells (7 days × 24 hours, workspace’s zone): messages customers sent in the range' },
    ),
    totals: Type.Object({
      conversations_opened: Total,
      conversations_closed: Total,
      messages_received: Total,
      messages_sent: Total,
    }),
  },
  { $id: 'VolumeReport' },
);
export type VolumeReport = Static<typeof VolumeReport>;
export type VolumeDay = Static<typeof VolumeDay>;

/** The report's query: the common filter, the format, and which table a CSV holds. */
export const VolumeQuery = Type.Object({
  ...ReportQuery.properties,
  ...ReportFormat.properties,
  table: Type.Optional(
    Type.Union([Type.Literal('days'), Type.Literal('hours')], {
      description:
        'With format=csv: days (the default; one row per day of the range and of the previous period) or hours (the 168 hour-of-week cells)',
    }),
  ),
});
