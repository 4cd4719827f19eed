import { isTimeZone } from '../automation/schedule-time.js';
import type { Selectable, Transaction } from 'kysely';
import type { Database, UserTable, WorkspaceTable } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import { commonProblems } from '../shared/common.problems.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { hashPassword } from './password.js';
import { requirePasswordRule } from './password-rule.js';
import { workspaceProblems } from './workspace.problems.js';

export type Workspace = Selectable<WorkspaceTable>;
export type User = Omit<Selectable<UserTable>, 'password_hash' | 'language'>;

export interface WorkspaceSettings {
  name?: string;
  pollIntervalSeconds?: number;
  rateLimitPerMinute?: number;
  /** IANA time zone for sequence sending hours. */
  timeZone?: string;
  /** Keep media files this many days; null: forever. */
  mediaRetentionDays?: number | null;
}

/** Longest media retention: a hundred years is "forever" said as a number. */
const MAX_RETENTION_DAYS = 36_500;

/** Hears, in the updating transaction, that a workspace's media retention changed (the expiry job follows it). */
export type RetentionListener = (trx: Transaction<Database>, workspaceId: string, days: number | null) => Promise<void>;

/** Workspaces (the spec's tenants) and their users. */
export function createWorkspaceService({ db, clock, newId }: Deps, retentionChanged?: RetentionListener) {
  return {
    /**
     * Creates a workspace and its owner in one transaction. `claim`, when given, runs first in that
     * transaction and may refuse by throwing (the first-run set-up claims the installation there).
     */
    async setup(
      input: { name: string; email: string; password: string; ownerName?: string | undefined },
      claim?: (trx: Transaction<Database>) => Promise<void>,
    ): Promise<{ workspace: Workspace; user: User }> {
      const email = input.email.trim().toLowerCase();
      if (!input.name.trim()) throw errors.invalid(commonProblems.problem('workspace', 'must_not_be_empty'));
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
        throw errors.invalid(workspaceProblems.problem('email', 'email_address'));
      requirePasswordRule(input.password);
      const taken = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      if (taken) throw errors.conflict(`A user with email ${email} already exists`);
      const now = toStoredTimestamp(clock.now());
      const workspace: Workspace = {
        id: newId(),
        name: input.name.trim(),
        poll_interval_seconds: 30,
        rate_limit_per_minute: 120,
        time_zone: 'UTC',
        media_retention_days: null,
        created_at: now,
        updated_at: now,
      };
      const user: User = {
        id: newId(),
        workspace_id: workspace.id,
        email,
        // Optional for compatibility; without one the owner is known by their email until they set a name.
        name: input.ownerName?.trim() || email,
        role: 'owner',
        created_at: now,
      };
      const passwordHash = await hashPassword(input.password);
      await db.transaction().execute(async (trx) => {
        await claim?.(trx);
        await trx.insertInto('workspaces').values(workspace).execute();
        await trx
          .insertInto('users')
          .values({ ...user, password_hash: passwordHash })
          .execute();
      });
      return { workspace, user };
    },

    /** Returns a workspace or throws not_found. */
    async get(workspaceId: string): Promise<Workspace> {
      const workspace = await db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirst();
      if (!workspace) throw errors.notFound('workspace', 'workspace');
      return workspace;
    },

    /** Changes a workspace's name, polling interval ("raised rate limit"), request limit or time zone. */
    async update(workspaceId: string, settings: WorkspaceSettings): Promise<Workspace> {
      if (settings.name !== undefined && !settings.name.trim())
        throw errors.invalid(commonProblems.problem('name', 'must_not_be_empty'));
      if (settings.pollIntervalSeconds !== undefined && !isIntegerIn(settings.pollIntervalSeconds, 0, 86_400)) {
        throw errors.invalid(workspaceProblems.problem('poll_interval_seconds', 'poll_interval_range'));
      }
      if (settings.rateLimitPerMinute !== undefined && !isIntegerIn(settings.rateLimitPerMinute, 1, 10_000_000)) {
        throw errors.invalid(workspaceProblems.problem('rate_limit_per_minute', 'rate_limit_range'));
      }
      if (settings.timeZone !== undefined && !isTimeZone(settings.timeZone)) {
        throw errors.invalid(workspaceProblems.problem('time_zone', 'time_zone'));
      }
      const retention = settings.mediaRetentionDays;
      if (retention !== undefined && retention !== null && !isIntegerIn(retention, 1, MAX_RETENTION_DAYS)) {
        throw errors.invalid(
          workspaceProblems.problem('media_retention_days', 'media_retention_range', { max: MAX_RETENTION_DAYS }),
        );
      }
      await this.get(workspaceId);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('workspaces')
          .set({
            ...(settings.name !== undefined && { name: settings.name.trim() }),
            ...(settings.pollIntervalSeconds !== undefined && { poll_interval_seconds: settings.pollIntervalSeconds }),
            ...(settings.rateLimitPerMinute !== undefined && { rate_limit_per_minute: settings.rateLimitPerMinute }),
            ...(settings.timeZone !== undefined && { time_zone: settings.timeZone }),
            ...(retention !== undefined && { media_retention_days: retention }),
            updated_at: toStoredTimestamp(clock.now()),
          })
          .where('id', '=', workspaceId)
          .execute();
        if (retention !== undefined) await retentionChanged?.(trx, workspaceId, retention);
      });
      return this.get(workspaceId);
    },

    /** The workspace's owner: the user API tokens minted from the CLI belong to. */
    async owner(workspaceId: string): Promise<User> {
      const user = await db
        .selectFrom('users')
        .select(['id', 'workspace_id', 'email', 'name', 'role', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .where('role', '=', 'owner')
        .orderBy('created_at')
        .executeTakeFirst();
      if (!user) throw errors.notFound('workspace', 'workspace');
      return user;
    },

    /** A user of the workspace, by id. */
    async user(workspaceId: string, userId: string): Promise<User> {
      const user = await db
        .selectFrom('users')
        .select(['id', 'workspace_id', 'email', 'name', 'role', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user) throw errors.notFound('user');
      return user;
    },
  };
}

function isIntegerIn(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
