import { Type, type Static } from '@sinclair/typebox';
import { WEEKDAYS } from './business-hours.rules.js';

/** Meta's longest text message body: the away reply is one. */
const AWAY_MESSAGE_MAX_LENGTH = 4096;

const Time = (description: string) =>
  Type.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', description, examples: ['09:00'] });

const IntervalSchema = Type.Object(
  { opens: Time('Local time the business opens, "HH:MM"'), closes: Time('Local time it closes; "24:00" is midnight') },
  { additionalProperties: false },
);

const Weekly = Type.Object(
  Object.fromEntries(
    WEEKDAYS.map((day) => [
      day,
      Type.Array(IntervalSchema, { maxItems: 6, description: `Open intervals on ${day}; none: closed all day` }),
    ]),
  ) as Record<(typeof WEEKDAYS)[number], ReturnType<typeof Type.Array<typeof IntervalSchema>>>,
  { additionalProperties: false, description: 'Each weekday’s open intervals, in the time zone’s local time' },
);

const Holidays = Type.Array(
  Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'A local date, YYYY-MM-DD' }),
  {
    maxItems: 366,
    uniqueItems: true,
    description: 'Dates closed all day, whatever the weekly hours say',
  },
);

const ENABLED =
  'When true, a customer who writes outside the hours gets the away message, once per conversation opening (not once per message).';

/** A workspace's business hours and away reply. */
export const BusinessHoursSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: ENABLED }),
    time_zone: Type.String({ description: 'IANA time zone the hours are in, e.g. Europe/Berlin' }),
    weekly: Weekly,
    holidays: Holidays,
    away_message: Type.String({
      description: 'Sent as a free-form service reply (never a template), inside the window the message opened',
    }),
    open_now: Type.Boolean({ description: 'Whether the hours say the business is open at this moment' }),
  },
  { $id: 'BusinessHours' },
);

export const UpdateBusinessHoursBody = Type.Object(
  {
    enabled: Type.Boolean({ description: ENABLED }),
    time_zone: Type.String({ maxLength: 100, description: 'IANA time zone, e.g. Europe/Berlin' }),
    weekly: Weekly,
    holidays: Holidays,
    away_message: Type.String({
      maxLength: AWAY_MESSAGE_MAX_LENGTH,
      description: 'What a customer who writes outside the hours is told (a free-form reply)',
    }),
  },
  { additionalProperties: false, description: 'The whole setting: it replaces what was saved.' },
);
export type UpdateBusinessHoursInput = Static<typeof UpdateBusinessHoursBody>;
