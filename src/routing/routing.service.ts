import type { Kysely } from 'kysely';
import { can } from '../access/roles.js';
import type { Database } from '../db/schema.js';
import type { EventHub } from '../inbox/index.js';
import type { NotificationService } from '../notifications/index.js';
import type { ReceivedMessage } from '../messages/index.js';
import { emitWebhookEvents } from '../outgoing/index.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { cutPage, type CursorCodec, type Page, type PageRequest } from '../shared/cursor.js';
import { errors } from '../shared/errors.js';
import { commonProblems } from '../shared/common.problems.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { assignmentRepository, type Waiting } from './assignment.repository.js';
import { assignWaiting } from './auto-assign.js';
import { routingProblems } from './routing.problems.js';
import { teamOf } from './rules.js';
import { teamKey, teamRepository, type TeamRow } from './team.repository.js';
import {
  TEAM_LIST_CAP,
  type AssignmentInput,
  type AssignmentResult,
  type RoutingSettings,
  type RoutingSettingsUpdate,
  type Team,
} from './routing.schema.js';

type Db = Kysely<Database>;

/** Whom to assign many conversations to; `team_id` undefined keeps each conversation's team. */
export interface AssignManyInput {
  assignee_id: string | null;
  team_id?: string | null | undefined;
}

/** Teams, availability, the routing rules and who handles each conversation; the inbox and the API call it. */
export function createRoutingService(
  deps: Deps,
  cursors: CursorCodec,
  hub: EventHub,
  wakeFor: (work: QueuedWork) => void,
  notifier: Pick<NotificationService, 'assigned' | 'wake'>,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /**
   * Runs a change in a transaction, announces the conversations whose assignment it changed
   * (webhook `conversation-assigned` in the transaction, the live inbox after the commit), then gives
   * the queue to whoever has room now.
   */
  async function change<T>(workspaceId: string, work: (trx: Db) => Promise<{ result: T; changed: string[] }>) {
    const [{ result, changed }, queued] = await db.transaction().execute(async (trx) => {
      const outcome = await work(trx);
      await announceIn(trx, workspaceId, outcome.changed);
      return [outcome, queuedIn(trx)] as const;
    });
    wakeFor(queued);
    await publish(workspaceId, changed);
    await drain(workspaceId);
    return result;
  }

  const announceIn = (trx: Db, workspaceId: string, contactIds: string[]) =>
    emitWebhookEvents(
      trx,
      deps,
      'conversation-assigned',
      contactIds.map((id) => ({ workspaceId, id })),
    );

  const publish = (workspaceId: string, contactIds: string[]) =>
    contactIds.length === 0
      ? Promise.resolve()
      : hub.publish(
          workspaceId,
          contactIds.map((id) => ({ type: 'conversation' as const, contact_id: id })),
        );

  /** Assigns the waiting conversations people have room for (after capacity was freed or added). */
  async function drain(workspaceId: string): Promise<void> {
    const [assigned, queued] = await db.transaction().execute(async (trx) => {
      const contactIds = await assignWaiting(trx, deps, workspaceId, 'queue');
      await announceIn(trx, workspaceId, contactIds);
      return [contactIds, queuedIn(trx)] as const;
    });
    wakeFor(queued);
    await publish(workspaceId, assigned);
  }

  async function existingTeam(caller: Caller, teamId: string, field = 'team_id'): Promise<TeamRow> {
    const team = await teamRepository(db).byId(caller.workspaceId, teamId);
    if (!team) throw errors.notFound('team', field);
    return team;
  }

  async function present(workspaceId: string, rows: TeamRow[]): Promise<Team[]> {
    const members = await teamRepository(db).members(
      workspaceId,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      members: members
        .filter((member) => member.team_id === row.id)
        .map((member) => ({
          id: member.id,
          name: member.name,
          email: member.email,
          available: (member.available ?? 1) === 1,
        })),
      created_at: formatTimestamp(row.created_at),
    }));
  }

  async function requirePeople(caller: Caller, userIds: string[]): Promise<void> {
    const known = await teamRepository(db).peopleAmong(caller.workspaceId, userIds);
    const unknown = userIds.findIndex((id) => !known.has(id));
    if (unknown >= 0) throw errors.notFound('user', `member_ids/${unknown}`);
  }

  async function uniqueName(caller: Caller, name: string, teamId: string | null): Promise<string> {
    const trimmed = name.trim();
    if (!trimmed) throw errors.invalid(commonProblems.problem('name', 'required'));
    const holder = await teamRepository(db).byName(caller.workspaceId, trimmed);
    if (holder && holder.id !== teamId) throw errors.taken(routingProblems.problem('name', 'team_name_taken'));
    return trimmed;
  }

  /**
   * The person to assign, checked: of the workspace, able to handle conversations, in the team if one
   * is given. `field`: the body's name for the person (`user_id` in the bulk action).
   */
  async function checkAssignee(caller: Caller, assigneeId: string, teamId: string | null, field: string) {
    const person = await teamRepository(db).person(caller.workspaceId, assigneeId);
    if (!person) throw errors.notFound('user', field);
    if (!can(person.role, 'conversations')) {
      throw errors.invalid(routingProblems.problem(field, 'role_without_conversations', { role: person.role }));
    }
    if (teamId !== null && !(await teamRepository(db).isMember(teamId, assigneeId))) {
      throw errors.invalid(routingProblems.problem(field, 'not_team_member'));
    }
  }

  /**
   * A person given without a team keeps each conversation's team: they must be a member of every team
   * the conversations are in (else a 400 naming it), as when team and person are given together.
   */
  async function checkKeptTeams(caller: Caller, assigneeId: string, teamIds: (string | null)[], field: string) {
    for (const teamId of new Set(teamIds)) {
      if (teamId === null || (await teamRepository(db).isMember(teamId, assigneeId))) continue;
      const team = await existingTeam(caller, teamId);
      throw errors.invalid(routingProblems.problem(field, 'not_member_of_kept_team', { team: team.name }));
    }
  }

  /**
   * The one assignment rule, for one conversation or many (the bulk action): checks the team and the
   * person once, then saves, tells each new assignee and announces every conversation in one transaction.
   * `team_id` undefined keeps each conversation's team (see checkKeptTeams).
   */
  async function assignAll(caller: Caller, contactIds: string[], input: AssignManyInput, field: string) {
    const teamId = input.team_id;
    if (teamId != null) await existingTeam(caller, teamId);
    if (input.assignee_id !== null) await checkAssignee(caller, input.assignee_id, teamId ?? null, field);
    const before = new Map(
      (await assignmentRepository(db).states(caller.workspaceId, contactIds)).map((row) => [row.contact_id, row]),
    );
    if (teamId === undefined && input.assignee_id !== null) {
      const teams = contactIds.map((id) => before.get(id)?.team_id ?? null);
      await checkKeptTeams(caller, input.assignee_id, teams, field);
    }
    const fields =
      teamId === undefined ? { assignee_id: input.assignee_id } : { team_id: teamId, assignee_id: input.assignee_id };
    await change(caller.workspaceId, async (trx) => {
      await assignmentRepository(trx).saveMany(caller.workspaceId, contactIds, fields, now());
      // Assigning it again to the same person is no news.
      for (const contactId of contactIds.filter((id) => input.assignee_id !== (before.get(id)?.assignee_id ?? null))) {
        const assignment = { workspaceId: caller.workspaceId, contactId, actorId: caller.userId ?? null };
        await notifier.assigned(trx, { ...assignment, assigneeId: input.assignee_id });
      }
      return { result: null, changed: contactIds };
    });
    notifier.wake();
  }

  /** The workspace's routing: automatic assignment, the per-person limit and the rules. */
  async function settings(caller: Caller): Promise<RoutingSettings> {
    const saved = await teamRepository(db).settings(caller.workspaceId);
    const rules = await teamRepository(db).rules(caller.workspaceId);
    return {
      auto_assign: saved?.auto_assign === 1,
      agent_limit: saved?.agent_limit ?? null,
      rules: rules.map(({ kind, value, team_id }) => ({ kind, value, team_id })),
    };
  }

  return {
    drain,

    /** list-teams: every team, alphabetical, with its members. */
    async list(caller: Caller): Promise<Team[]> {
      const rows = await teamRepository(db).list(caller.workspaceId, null);
      return present(caller.workspaceId, rows.slice(0, TEAM_LIST_CAP));
    },

    /** list-teams with `paginate=cursor`: in id (creation) order, a page at a time. */
    async listPage(caller: Caller, page: PageRequest): Promise<Page<Team>> {
      const scope = { workspaceId: caller.workspaceId, endpoint: 'list-teams', filters: {} };
      const afterId = page.cursor === undefined ? null : cursors.decode(scope, page.cursor)[0]!;
      const rows = await teamRepository(db).list(caller.workspaceId, { afterId, limit: page.limit + 1 });
      const { rows: shown, next_cursor } = cutPage(rows, page.limit, (row) => cursors.encode(scope, [row.id]));
      return { data: await present(caller.workspaceId, shown), next_cursor };
    },

    /** create-team: a team with a unique name and, optionally, its first members. */
    async create(caller: Caller, input: { name: string; member_ids?: string[] | undefined }): Promise<Team> {
      const name = await uniqueName(caller, input.name, null);
      const memberIds = input.member_ids ?? [];
      await requirePeople(caller, memberIds);
      const team = { id: newId(), workspace_id: caller.workspaceId, name, name_key: teamKey(name), created_at: now() };
      await change(caller.workspaceId, async (trx) => {
        await teamRepository(trx).insert(team);
        await teamRepository(trx).setMembers(caller.workspaceId, team.id, memberIds);
        return { result: null, changed: [] };
      });
      return (await present(caller.workspaceId, [team]))[0]!;
    },

    /** update-team: renames it (conversations and rules follow: they hold its id). */
    async rename(caller: Caller, input: { team_id: string; name: string }): Promise<Team> {
      const team = await existingTeam(caller, input.team_id);
      const name = await uniqueName(caller, input.name, team.id);
      await teamRepository(db).rename(caller.workspaceId, team.id, name);
      return (await present(caller.workspaceId, [{ ...team, name }]))[0]!;
    },

    /** delete-team: its rules go; its conversations keep their person and leave the team's queue. */
    async remove(caller: Caller, input: { team_id: string }) {
      const team = await existingTeam(caller, input.team_id);
      await change(caller.workspaceId, async (trx) => {
        // Read first: deleting the team clears their team_id (ON DELETE SET NULL), which is an assignment change.
        const changed = await assignmentRepository(trx).ofTeam(caller.workspaceId, team.id);
        await teamRepository(trx).remove(caller.workspaceId, team.id);
        return { result: null, changed };
      });
      return { id: team.id, name: team.name, deleted: true as const };
    },

    /** set-team-members: replaces the members; those who left give back the team's open conversations. */
    async setMembers(caller: Caller, input: { team_id: string; member_ids: string[] }): Promise<Team> {
      const team = await existingTeam(caller, input.team_id);
      await requirePeople(caller, input.member_ids);
      await change(caller.workspaceId, async (trx) => {
        const left = await teamRepository(trx).setMembers(caller.workspaceId, team.id, input.member_ids);
        const changed: string[] = [];
        for (const userId of left) {
          changed.push(...(await assignmentRepository(trx).release(caller.workspaceId, userId, team.id, now())));
        }
        return { result: null, changed };
      });
      return (await present(caller.workspaceId, [team]))[0]!;
    },

    /**
     * After a person was removed or given another role: one who can no longer handle conversations
     * gives back their open ones (a removed person's lost their assignee already); the queue drains.
     */
    async personChanged(workspaceId: string, userId: string): Promise<void> {
      const person = await teamRepository(db).person(workspaceId, userId);
      if (!person || can(person.role, 'conversations')) return drain(workspaceId);
      await change(workspaceId, async (trx) => ({
        result: null,
        changed: await assignmentRepository(trx).release(workspaceId, userId, null, now()),
      }));
    },

    /** The caller's availability. */
    async availability(caller: Caller & { userId: string }) {
      return { user_id: caller.userId, available: await teamRepository(db).available(caller.userId) };
    },

    /** Sets the caller available or away; going away gives their open conversations back to the queue. */
    async setAvailability(caller: Caller & { userId: string }, available: boolean) {
      await change(caller.workspaceId, async (trx) => {
        await teamRepository(trx).setAvailable(caller.workspaceId, caller.userId, available, now());
        const changed = available
          ? []
          : await assignmentRepository(trx).release(caller.workspaceId, caller.userId, null, now());
        return { result: null, changed };
      });
      return { user_id: caller.userId, available };
    },

    settings,

    /** Changes the routing settings (rules are replaced whole); a raised limit or auto-assignment turned on drains the queue. */
    async updateSettings(caller: Caller, input: RoutingSettingsUpdate): Promise<RoutingSettings> {
      const current = await settings(caller);
      const rules = input.rules ?? current.rules;
      for (const [index, rule] of rules.entries()) {
        if (!(await teamRepository(db).byId(caller.workspaceId, rule.team_id))) {
          throw errors.notFound('team', `rules/${index}/team_id`);
        }
      }
      const next = {
        auto_assign: input.auto_assign ?? current.auto_assign,
        agent_limit: input.agent_limit === undefined ? current.agent_limit : input.agent_limit,
        rules: rules.map((rule) => ({ ...rule, value: rule.value.trim() })),
      };
      await change(caller.workspaceId, async (trx) => {
        const fields = { auto_assign: next.auto_assign ? 1 : 0, agent_limit: next.agent_limit };
        await teamRepository(trx).saveSettings(caller.workspaceId, fields, now());
        const rows = next.rules.map((rule, position) => ({
          id: newId(),
          workspace_id: caller.workspaceId,
          position,
          ...rule,
        }));
        if (input.rules) await teamRepository(trx).replaceRules(caller.workspaceId, rows);
        return { result: null, changed: [] };
      });
      return next;
    },

    /**
     * Sets who handles a conversation: a team, a person (a member of the team when both are given), or
     * neither. A team without a person puts the conversation in the team's queue, where automatic
     * assignment (when on) gives it to the next available member.
     */
    async assign(caller: Caller, contactId: string, input: AssignmentInput): Promise<AssignmentResult> {
      const contact = await assignmentRepository(db).contact(caller.workspaceId, contactId);
      if (!contact) throw errors.notFound('contact', 'contact_id');
      await assignAll(caller, [contact.id], input, 'assignee_id');
      const [state] = await assignmentRepository(db).states(caller.workspaceId, [contact.id]);
      return { contact_id: contact.id, team_id: state?.team_id ?? null, assignee_id: state?.assignee_id ?? null };
    },

    /**
     * The bulk action "assign": the same rule on many conversations of the workspace (unknown ids are
     * refused). Without `team_id` each keeps its team, so the person must be in it.
     */
    async assignMany(caller: Caller, contactIds: string[], input: AssignManyInput) {
      const unique = [...new Set(contactIds)];
      const known = await assignmentRepository(db).contacts(caller.workspaceId, unique);
      if (known.size < unique.length) throw errors.notFound('contact', 'contact_ids');
      await assignAll(caller, unique, input, 'user_id');
      return { matched: unique.length, changed: unique.length };
    },

    /**
     * In the transaction storing inbound messages, before the inbox reopens done conversations: a
     * conversation that opens (new, or done until now) gets the team of the first matching rule; one
     * returning from done keeps its person only if they are available and still in its team; then every
     * conversation of these messages without a person is assigned automatically (when on).
     */
    async onInbound(trx: Db, workspaceId: string, received: ReceivedMessage[]): Promise<void> {
      const changed: string[] = [];
      const assigned = await assignWaiting(trx, deps, workspaceId, async () => {
        const opened = await openConversations(trx, workspaceId, received, now());
        changed.push(...opened.changed);
        return opened.waiting;
      });
      await announceIn(trx, workspaceId, [...new Set([...changed, ...assigned])]);
    },
  };
}

/**
 * Applies the rules to the conversations of these messages that open and settles who keeps them;
 * returns those whose team or person changed and those now waiting for a person.
 */
async function openConversations(trx: Db, workspaceId: string, received: ReceivedMessage[], at: string) {
  const repository = assignmentRepository(trx);
  const contactIds = [...new Set(received.map((message) => message.contactId))];
  const states = new Map((await repository.states(workspaceId, contactIds)).map((row) => [row.contact_id, row]));
  const rules = await teamRepository(trx).rules(workspaceId);
  const tags = rules.some((rule) => rule.kind === 'tag')
    ? await repository.tagsOf(contactIds)
    : new Map<string, Set<string>>();
  const changed: string[] = [];
  const waiting: Waiting[] = [];
  for (const contactId of contactIds) {
    const state = states.get(contactId);
    const opens = !state || state.done_at !== null;
    const messages = received.filter((message) => message.contactId === contactId);
    const teamId =
      (opens && teamOf(rules, messages, tags.get(contactId) ?? new Set<string>())) || (state?.team_id ?? null);
    let assigneeId = state?.assignee_id ?? null;
    if (opens && assigneeId !== null && !(await stillTheirs(trx, assigneeId, teamId))) assigneeId = null;
    if (!state || teamId !== state.team_id || assigneeId !== state.assignee_id) {
      await repository.save(workspaceId, contactId, { team_id: teamId, assignee_id: assigneeId }, at);
      if (teamId !== (state?.team_id ?? null) || assigneeId !== (state?.assignee_id ?? null)) changed.push(contactId);
    }
    if (assigneeId === null) waiting.push({ contact_id: contactId, team_id: teamId });
  }
  return { changed, waiting };
}

/** Whether a conversation returning from done stays with its person: available, and in its team if it has one. */
async function stillTheirs(trx: Db, userId: string, teamId: string | null): Promise<boolean> {
  const teams = teamRepository(trx);
  return (await teams.available(userId)) && (teamId === null || (await teams.isMember(teamId, userId)));
}

export type RoutingService = ReturnType<typeof createRoutingService>;
