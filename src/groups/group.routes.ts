import { Type } from '@sinclair/typebox';
import { actionFamily } from '../http/action-family.js';
import type { Api } from '../http/types.js';
import {
  CreateGroupBody,
  GROUP_PARTICIPANTS_MAX,
  GroupIdBody,
  GroupMessageSchema,
  GroupSchema,
  ListGroupMessagesBody,
  SendGroupMediaBody,
  SendGroupTemplateBody,
  SendGroupTextBody,
} from './group.schema.js';
import type { GroupService } from './group.service.js';

const group = Type.Ref(GroupSchema);
const groupMessage = Type.Ref(GroupMessageSchema);
const ABOUT = `Groups are WhatsApp groups on a workspace number (Meta's Groups API): at most ${GROUP_PARTICIPANTS_MAX} participants, who join only by the group's invite link. A group's messages are its own conversation, never in a participant's one-to-one thread.`;

/** The groups actions: list, read, create, invite link, and the group's conversation (read and send). */
export function registerGroupRoutes(app: Api, groups: GroupService): void {
  app.addSchema(GroupSchema);
  app.addSchema(GroupMessageSchema);
  // A group is a conversation: reading and writing it is conversation work.
  const action = actionFamily(app, { tags: ['Groups'], permission: 'conversations', about: ABOUT });

  action(
    'list-groups',
    {
      operationId: 'listGroups',
      summary: "List the workspace's WhatsApp groups",
      description: 'The latest conversation first.',
      body: Type.Object({}),
      response: Type.Array(group),
      errors: [],
    },
    'read',
    (caller) => groups.list(caller),
  );
  action(
    'get-group',
    {
      operationId: 'getGroup',
      summary: 'Get a WhatsApp group: its subject, participants, invite link and state',
      description: 'Its state follows Meta’s group webhooks (created, suspended, deleted, who joined or left).',
      body: GroupIdBody,
      response: group,
      errors: [404],
    },
    'read',
    (caller, body) => groups.get(caller, body.group_id),
  );
  action(
    'create-group',
    {
      operationId: 'createGroup',
      summary: 'Create a WhatsApp group on a workspace number',
      description:
        'Asks Meta to create the group; it answers `creating`, and becomes `active` with its invite link when Meta’s lifecycle webhook confirms it (`failed` if Meta refuses). A workspace on the simulator gets 409.',
      body: CreateGroupBody,
      response: group,
      errors: [409],
    },
    'write',
    (caller, body) => groups.create(caller, body),
  );
  action(
    'get-group-invite-link',
    {
      operationId: 'getGroupInviteLink',
      summary: "Get a group's invite link from Meta",
      description:
        'The link people join by; send it to those you want in the group. 409 while the group is not active.',
      body: GroupIdBody,
      response: Type.Object({ invite_link: Type.String() }),
      errors: [404, 409],
    },
    'write',
    (caller, body) => groups.inviteLink(caller, body.group_id),
  );
  action(
    'list-group-messages',
    {
      operationId: 'listGroupMessages',
      summary: "Read a group's conversation",
      description: "Newest first; each participant's message names its author in `content.sender`.",
      body: ListGroupMessagesBody,
      response: Type.Array(groupMessage),
      errors: [404],
    },
    'read',
    (caller, body) => groups.messages(caller, body),
  );

  const send = (
    name: string,
    operationId: string,
    summary: string,
    body: typeof SendGroupTextBody | typeof SendGroupMediaBody | typeof SendGroupTemplateBody,
    kind: 'text' | 'media' | 'template',
  ) =>
    action(
      name,
      {
        operationId,
        summary,
        description:
          'Queued and sent from the group’s number through the outbox like every message (Meta’s group recipient); its status follows the delivery. No customer service window applies to a group. 409 while the group is not active.',
        body,
        response: groupMessage,
        errors: [404, 409],
      },
      'write',
      (caller, { group_id, ...input }) =>
        groups.send(caller, group_id, { kind, ...input } as Parameters<GroupService['send']>[2]),
    );
  send('send-group-text', 'sendGroupText', 'Write to a WhatsApp group', SendGroupTextBody, 'text');
  send('send-group-media', 'sendGroupMedia', 'Send a file to a WhatsApp group', SendGroupMediaBody, 'media');
  send(
    'send-group-template',
    'sendGroupTemplate',
    'Send an approved template to a WhatsApp group',
    SendGroupTemplateBody,
    'template',
  );
}
