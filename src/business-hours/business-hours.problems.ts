import { fieldProblems } from '../shared/field-problems.js';

/** Business hours and the away reply: what their fields can break (wordings, see field-problems.ts). */
export const businessHoursProblems = fieldProblems('business_hours', {
  time_zone: 'must be an IANA time zone such as Europe/Berlin',
  not_a_date: '{{date}} is not a date',
  closes_before_opening: 'opens at {{opens}} but closes at {{closes}}',
  intervals_overlap: '{{opens}}–{{closes}} overlaps {{next_opens}}',
  away_message_empty: 'is empty: write what customers read outside business hours',
});
