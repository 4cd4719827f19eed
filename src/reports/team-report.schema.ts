import { Type, type Static } from '@sinclair/typebox';
import { NullableField } from '../http/responses.js';

const Seconds = (description: string) => NullableField(Type.Integer({ minimum: 0, description }));

const Spread = (what: string, counted: string) =>
  Type.Object({
    conversations: Type.Integer({ minimum: 0, description: counted }),
    median_seconds: Seconds(`Median ${what} in seconds (nearest rank); null when nothing was measured`),
    p90_seconds: Seconds(`90th percentile ${what} in seconds: nine in ten were at most this long`),
  });

/** One row's figures: the same for a member, a team and everyone. */
export const TeamFiguresSchema = Type.Object({
  conversations_handled: Type.Integer({
    minimum: 0,
    description: 'Conversations answered first or closed within the range (each counted once)',
  }),
  messages_sent: Type.Integer({ minimum: 0, description: 'Messages members sent within the range (not automations)' }),
  first_response: Spread(
    'time from the customer’s opening message to the first reply',
    'Conversations first answered within the range, closed or still open',
  ),
  resolution: Spread('time from opening to closing', 'Conversations closed within the range'),
  backlog: Type.Object({
    open: Type.Integer({ minimum: 0, description: 'Conversations open now (not closed, not snoozed)' }),
    oldest_seconds: Seconds('How long the oldest open conversation has been waiting since it opened'),
    median_age_seconds: Seconds('Median age of the open conversations'),
  }),
  csat: Type.Object({
    ratings: Type.Integer({ minimum: 0, description: 'Satisfaction ratings (1–5) customers gave within the range' }),
    average: NullableField(Type.Number({ description: 'Average rating (1–5), to one decimal' })),
    satisfied_share: NullableField(
      Type.Number({ minimum: 0, maximum: 1, description: 'Share of ratings of 4 or 5 (0–1, to three decimals)' }),
    ),
  }),
});
export type TeamFigures = Static<typeof TeamFiguresSchema>;

const Range = {
  from: Type.String({ description: 'First day (YYYY-MM-DD, in the workspace’s time zone)' }),
  to: Type.String({ description: 'Last day, included' }),
  time_zone: Type.String({ description: 'The workspace’s time zone the days are in' }),
};

const Named = Type.Object({
  id: Type.String(),
  name: NullableField(Type.String({ description: 'null: a member removed since' })),
});

export const AgentReportSchema = Type.Object(
  {
    ...Range,
    everyone: TeamFiguresSchema,
    agents: Type.Array(
      Type.Composite([
        Type.Object({
          agent: Type.Union([Named, Type.Null()], {
            description: 'The member; null: no one (replies by API tokens, open conversations nobody is assigned to)',
          }),
        }),
        TeamFiguresSchema,
      ]),
    ),
  },
  { $id: 'AgentReport' },
);
export type AgentReport = Static<typeof AgentReportSchema>;

export const TeamReportSchema = Type.Object(
  {
    ...Range,
    everyone: TeamFiguresSchema,
    teams: Type.Array(
      Type.Composite([
        Type.Object({
          team: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()], {
            description: 'The team whose queue the conversations are in; null: conversations in no team’s queue',
          }),
        }),
        TeamFiguresSchema,
      ]),
    ),
  },
  { $id: 'TeamReport' },
);
export type TeamReport = Static<typeof TeamReportSchema>;
