import { Type, type Static } from '@sinclair/typebox';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { DateTime } from 'luxon';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { daysOf } from './report.figures.js';
import { reportProblems } from './report.problems.js';

/** The longest range one report covers: a year and a day (a leap year's whole). */
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * What every report is narrowed by (the query of each `/api/v1/reports/…` endpoint and the Reports
 * page's filter bar): calendar days in the workspace's time zone, and optionally one number, one team
 * and one label.
 */
export const ReportQuery = Type.Object({
  from: Type.Optional(
    Type.String({
      maxLength: 10,
      description: 'First day (YYYY-MM-DD, in the workspace’s time zone); default: 29 days before `to`',
    }),
  ),
  to: Type.Optional(Type.String({ maxLength: 10, description: 'Last day, included (YYYY-MM-DD); default: today' })),
  phone_number_id: Type.Optional(
    Type.String({ maxLength: 64, description: 'Only the conversations and messages of this WhatsApp number' }),
  ),
  team_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only the conversations in this team’s queue' })),
  label: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Only the conversations with this label (case-insensitive)',
    }),
  ),
});
export type ReportQuery = Static<typeof ReportQuery>;

/** An instant range [start, end) in stored timestamp form. */
export interface Span {
  start: string;
  end: string;
}

/** A report's range and narrowing, resolved: ids checked against the workspace, days turned into instants. */
export interface ReportFilter {
  workspaceId: string;
  timeZone: string;
  /** The days asked for, both included, and every day between (a chart's x axis). */
  from: string;
  to: string;
  days: string[];
  span: Span;
  /** The same number of days just before `from`: the "compared with the previous period" figures. */
  previous: Span;
  /** The channel whose number was asked for (messages.channel_id, contacts.conversation_channel_id). */
  channelId: string | null;
  teamId: string | null;
  /** The label's id (conversation_label_links.label_id). */
  labelId: string | null;
}

/**
 * Resolves a report's query for a workspace. A malformed or backwards range, or a number, team or label
 * the workspace does not have, is a 400 naming the field (a typo must not read as "no activity").
 */
export async function resolveReportFilter(
  db: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  query: ReportQuery,
): Promise<ReportFilter> {
  const timeZone = await timeZoneOf(db, workspaceId);
  const today = DateTime.fromJSDate(clock.now(), { zone: timeZone }).toISODate()!;
  const to = dateOf('to', query.to, timeZone) ?? today;
  const from = dateOf('from', query.from, timeZone) ?? shiftDay(to, -(DEFAULT_DAYS - 1));
  if (from > to) throw errors.invalid(reportProblems.problem('from', 'from_after_to'));
  const days = daysOf(from, to);
  if (days.length > MAX_DAYS)
    throw errors.invalid(reportProblems.problem('from', 'period_too_long', { max: MAX_DAYS }));
  const instant = (day: string) => toStoredTimestamp(DateTime.fromISO(day, { zone: timeZone }).toJSDate());
  const span = { start: instant(from), end: instant(shiftDay(to, 1)) };
  const previous = { start: instant(shiftDay(from, -days.length)), end: span.start };
  return {
    workspaceId,
    timeZone,
    from,
    to,
    days,
    span,
    previous,
    channelId: await channelOf(db, workspaceId, query.phone_number_id),
    teamId: await teamOf(db, workspaceId, query.team_id),
    labelId: await labelOf(db, workspaceId, query.label),
  };
}

/** The workspace's time zone: its days are the reports' and its rate cards'. */
export async function timeZoneOf(db: Kysely<Database>, workspaceId: string): Promise<string> {
  const workspace = await db
    .selectFrom('workspaces')
    .select('time_zone')
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return workspace.time_zone;
}

const shiftDay = (day: string, by: number) => DateTime.fromISO(day).plus({ days: by }).toISODate()!;

/** A YYYY-MM-DD date the time zone has, or undefined when none was given; anything else is a 400 on the field. */
function dateOf(field: 'from' | 'to', value: string | undefined, timeZone: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!DATE.test(value) || !DateTime.fromISO(value, { zone: timeZone }).isValid) {
    throw errors.invalid(reportProblems.problem(field, 'date_format'));
  }
  return value;
}

async function channelOf(db: Kysely<Database>, workspaceId: string, phoneNumberId: string | undefined) {
  if (phoneNumberId === undefined) return null;
  const channel = await db
    .selectFrom('channels')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('phone_number_id', '=', phoneNumberId)
    .executeTakeFirst();
  if (!channel) throw errors.invalid(reportProblems.problem('phone_number_id', 'unknown_number'));
  return channel.id;
}

async function teamOf(db: Kysely<Database>, workspaceId: string, teamId: string | undefined) {
  if (teamId === undefined) return null;
  const team = await db
    .selectFrom('teams')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', teamId)
    .executeTakeFirst();
  if (!team) throw errors.invalid(reportProblems.problem('team_id', 'unknown_team'));
  return team.id;
}

async function labelOf(db: Kysely<Database>, workspaceId: string, name: string | undefined) {
  if (name === undefined) return null;
  const label = await db
    .selectFrom('conversation_labels')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('name_key', '=', name.trim().toLowerCase())
    .executeTakeFirst();
  if (!label) throw errors.invalid(reportProblems.problem('label', 'unknown_label'));
  return label.id;
}

/**
 * Whether a message (`alias`: its table's alias in the query) is on the filter's number: sent or received
 * on it, or queued for a conversation that continues on it — a queued message names its number only when
 * the outbox sends it. True for every message when the filter names no number.
 */
export function onNumber(filter: ReportFilter, alias: string): RawBuilder<boolean> {
  if (filter.channelId === null) return sql<boolean>`1 = 1`;
  const message = sql.table(alias);
  return sql<boolean>`(${message}.channel_id = ${filter.channelId}
    OR (${message}.channel_id IS NULL AND ${conversationOnNumber(filter, `${alias}.contact_id`)}))`;
}

/**
 * Whether a conversation (`contact`: the column holding its contact's id) continues on the filter's
 * number, the one its contact last wrote to (contacts.conversation_channel_id). True for every
 * conversation when the filter names no number.
 */
export function conversationOnNumber(filter: ReportFilter, contact: string): RawBuilder<boolean> {
  if (filter.channelId === null) return sql<boolean>`1 = 1`;
  return sql<boolean>`${sql.ref(contact)} IN (SELECT id FROM contacts
    WHERE workspace_id = ${filter.workspaceId} AND conversation_channel_id = ${filter.channelId})`;
}

/**
 * Whether a conversation (`contact`: the column holding its contact's id, or an expression of it) is,
 * now, in the filter's team queue and carries its label. True for every conversation when the filter
 * names neither.
 */
export function inTeamAndLabel(filter: ReportFilter, contact: string | RawBuilder<unknown>): RawBuilder<boolean> {
  const contactId = typeof contact === 'string' ? sql.ref(contact) : contact;
  const parts: RawBuilder<boolean>[] = [];
  if (filter.teamId !== null) {
    parts.push(sql`${contactId} IN (SELECT contact_id FROM conversations
      WHERE workspace_id = ${filter.workspaceId} AND team_id = ${filter.teamId})`);
  }
  if (filter.labelId !== null) {
    parts.push(sql`${contactId} IN (SELECT contact_id FROM conversation_label_links
      WHERE workspace_id = ${filter.workspaceId} AND label_id = ${filter.labelId})`);
  }
  return parts.length === 0 ? sql<boolean>`1 = 1` : sql<boolean>`(${sql.join(parts, sql` AND `)})`;
}
