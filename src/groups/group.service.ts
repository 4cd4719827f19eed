import type { Selectable } from 'kysely';
import type { ChannelService, GroupEvent, GroupParticipant, InboundMessageEvent } from '../channels/index.js';
import type { Deps } from '../db/deps.js';
import type { GroupState, GroupTable } from '../db/schema.js';
import {
  groupMessagePosition,
  groupMessages,
  groupThread,
  type GroupContentInput,
  type MessageEvents,
  type MessageService,
  type ReceiveOutcome,
  presentGroupMessages,
} from '../messages/index.js';
import type { Caller } from '../shared/context.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { groupRepository } from './group.repository.js';
import type { CreateGroupInput, Group, GroupMessage, ListGroupMessagesInput } from './group.schema.js';

type GroupRow = Selectable<GroupTable>;

/**
 * WhatsApp groups (Meta's Groups API) on the workspace's numbers: their state as Meta's group webhooks
 * tell it, their conversations (each message with its author, apart from every contact's thread), and
 * what the business does with them: create one, get its invite link (the only way people join), write
 * to it through the one outbound path.
 */
export function createGroupService(
  deps: Deps,
  channels: ChannelService,
  messages: MessageService,
  /** Wakes the workers a committed transaction queued work for (webhook deliveries of group messages). */
  wakeFor: (work: QueuedWork) => void,
  /** Tells open dashboards a group's conversation or state changed. */
  live: MessageEvents,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /** The group Meta names on this channel, made now if Parley did not know it (created before, elsewhere). */
  async function groupNamed(trx: Deps['db'], caller: Caller, channelId: string, waGroupId: string): Promise<GroupRow> {
    const groups = groupRepository(trx);
    const known = await groups.findByMeta(caller.workspaceId, waGroupId, null);
    if (known) return known;
    const at = now();
    await groups.insertIfAbsent({
      id: newId(),
      workspace_id: caller.workspaceId,
      channel_id: channelId,
      wa_group_id: waGroupId,
      request_id: null,
      subject: '',
      description: null,
      invite_link: null,
      participants: '[]',
      state: 'active',
      created_at: at,
      updated_at: at,
    });
    return (await groups.findByMeta(caller.workspaceId, waGroupId, null))!;
  }

  /** Tells open dashboards these groups changed (their page and the list reload). */
  function announce(caller: Caller, groupIds: string[]): Promise<void> {
    return live.publish(
      caller.workspaceId,
      groupIds.map((id) => ({ type: 'group', group_id: id })),
    );
  }

  /** A group the caller's workspace has that can take messages now. */
  async function writableGroup(caller: Caller, groupId: string) {
    const group = await groupRepository(db).findById(caller.workspaceId, groupId);
    if (!group) throw errors.notFound('group', 'group_id');
    if (group.state !== 'active' || group.wa_group_id === null) {
      throw errors.conflict(`The group is ${group.state}: it takes no messages now`, { state: group.state });
    }
    return { ...group, wa_group_id: group.wa_group_id };
  }

  return {
    /** Stores messages written in groups (each once, by wamid) in their groups' conversations. */
    async receiveMessages(caller: Caller, channelId: string, events: InboundMessageEvent[]): Promise<ReceiveOutcome[]> {
      const changedGroups = new Set<string>();
      const [outcomes, queued] = await db.transaction().execute(async (trx) => {
        const outcomes: ReceiveOutcome[] = [];
        for (const event of events) {
          const group = await groupNamed(trx, caller, channelId, event.groupId!);
          const conversation = { workspaceId: caller.workspaceId, groupId: group.id, channelId };
          const [outcome] = await groupMessages(deps).record(trx, conversation, [event]);
          if (outcome !== 'duplicate') changedGroups.add(group.id);
          if (outcome === 'stored' && !event.amends) {
            await groupRepository(trx).noteLastMessage(group.id, toStoredTimestamp(event.timestamp));
          }
          outcomes.push(outcome!);
        }
        return [outcomes, queuedIn(trx)] as const;
      });
      wakeFor(queued);
      await announce(caller, [...changedGroups]);
      return outcomes;
    },

    /** Applies what a group webhook says of the group's state; false when it names no group Parley can keep. */
    async applyChange(caller: Caller, channelId: string, event: GroupEvent): Promise<boolean> {
      const changed = await db.transaction().execute(async (trx) => {
        const groups = groupRepository(trx);
        const asked = await groups.findByMeta(caller.workspaceId, event.groupId, event.requestId);
        if (!asked && event.groupId === null) return null;
        const group = asked ?? (await groupNamed(trx, caller, channelId, event.groupId!));
        await groups.update(group.id, { ...changeOf(group, event), updated_at: now() });
        return group.id;
      });
      if (changed) await announce(caller, [changed]);
      return changed !== null;
    },

    async list(caller: Caller): Promise<Group[]> {
      return (await groupRepository(db).list(caller.workspaceId)).map(presentGroup);
    },

    async get(caller: Caller, groupId: string): Promise<Group> {
      const group = await groupRepository(db).findById(caller.workspaceId, groupId);
      if (!group) throw errors.notFound('group', 'group_id');
      return presentGroup(group);
    },

    /**
     * Asks Meta to create a group on the number (the default one unless named); it is `creating` until
     * Meta's lifecycle webhook gives its id and invite link (or says it failed).
     */
    async create(caller: Caller, input: CreateGroupInput): Promise<Group> {
      const channelId = input.from_phone_number_id
        ? await channels.channelIdOf(caller.workspaceId, input.from_phone_number_id)
        : null;
      // The named number, else the default; none (the simulator) cannot have groups.
      const channel = await channels.sendingChannel(caller.workspaceId, channelId, null);
      if (!channel?.channelId) throw errors.conflict('Groups need a WhatsApp Cloud number: connect one first');
      const subject = input.subject.trim();
      if (subject === '') throw errors.validation('subject', 'must not be blank');
      const requestId = await channel.provider.createGroup({
        subject,
        description: input.description?.trim() || null,
        joinApproval: input.join_approval ?? false,
      });
      const at = now();
      const row = {
        id: newId(),
        workspace_id: caller.workspaceId,
        channel_id: channel.channelId,
        wa_group_id: null,
        request_id: requestId,
        subject,
        description: input.description?.trim() || null,
        invite_link: null,
        participants: '[]',
        state: 'creating' as const,
        last_message_at: null,
        created_at: at,
        updated_at: at,
      };
      await groupRepository(db).insertIfAbsent(row);
      return presentGroup(row);
    },

    /** Asks Meta for the group's invite link now (it may have been reset), and keeps it. */
    async inviteLink(caller: Caller, groupId: string): Promise<{ invite_link: string }> {
      const group = await writableGroup(caller, groupId);
      const provider = await channels.providerOf(caller.workspaceId, group.channel_id);
      const link = await provider.groupInviteLink(group.wa_group_id);
      await groupRepository(db).update(group.id, { invite_link: link, updated_at: now() });
      return { invite_link: link };
    },

    /** The group's conversation, newest first; `before_message_id` pages back. */
    async messages(caller: Caller, input: ListGroupMessagesInput): Promise<GroupMessage[]> {
      const group = await groupRepository(db).findById(caller.workspaceId, input.group_id);
      if (!group) throw errors.notFound('group', 'group_id');
      const before = input.before_message_id ? await positionOf(caller, group.id, input.before_message_id) : null;
      const rows = await groupThread(db, caller.workspaceId, group.id, before, input.limit ?? 50);
      return presentGroupMessages(db, caller.workspaceId, group.id, rows);
    },

    /** Sends to the group through the one outbound path; answers the message as queued. */
    async send(caller: Caller, groupId: string, input: GroupContentInput): Promise<GroupMessage> {
      const group = await writableGroup(caller, groupId);
      const content = await messages.groupContent(caller, input);
      const row = await messages.sendToGroup(caller, group, content);
      await groupRepository(db).noteLastMessage(group.id, row.created_at);
      const sent = { ...row, direction: 'outbound' as const, sent_at: null, revoked_at: null };
      const [presented] = await presentGroupMessages(db, caller.workspaceId, group.id, [sent]);
      return presented!;
    },
  };

  async function positionOf(caller: Caller, groupId: string, messageId: string) {
    const position = await groupMessagePosition(db, caller.workspaceId, groupId, messageId);
    if (!position) throw errors.notFound('message', 'before_message_id');
    return position;
  }
}

/** What a group webhook changes: its state by Meta's type, its subject and link when given, who joined or left. */
function changeOf(group: GroupRow, event: GroupEvent) {
  const created = event.type === 'group_create';
  if (created && event.failed) return { state: 'failed' as const };
  const participants = movedParticipants(JSON.parse(group.participants) as GroupParticipant[], event);
  return {
    state: stateAfter(group.state, event.type),
    ...(event.groupId !== null && { wa_group_id: event.groupId }),
    ...(event.subject !== null && { subject: event.subject }),
    ...(event.description !== null && { description: event.description }),
    ...(event.inviteLink !== null && { invite_link: event.inviteLink }),
    participants: JSON.stringify(participants),
  };
}

function stateAfter(state: GroupState, type: string): GroupState {
  if (type === 'group_create' || type === 'group_suspend_cleared') return 'active';
  if (type === 'group_delete') return 'deleted';
  if (type === 'group_suspend') return 'suspended';
  return state;
}

const sameParticipant = (a: GroupParticipant, b: GroupParticipant) =>
  (a.wa_id !== null && a.wa_id === b.wa_id) || (a.user_id !== null && a.user_id === b.user_id);

function movedParticipants(current: GroupParticipant[], event: GroupEvent): GroupParticipant[] {
  const stayed = current.filter((person) => !event.left.some((gone) => sameParticipant(person, gone)));
  const joined = event.joined.filter((person) => !stayed.some((member) => sameParticipant(member, person)));
  return [...stayed, ...joined];
}

function presentGroup(row: GroupRow): Group {
  return {
    id: row.id,
    channel_id: row.channel_id,
    wa_group_id: row.wa_group_id,
    subject: row.subject,
    description: row.description,
    invite_link: row.invite_link,
    participants: JSON.parse(row.participants) as GroupParticipant[],
    state: row.state,
    last_message_at: formatTimestamp(row.last_message_at),
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}

export type GroupService = ReturnType<typeof createGroupService>;
