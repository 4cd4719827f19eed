/**
 * What Meta sends about WhatsApp groups (Groups API), shaped after Meta's pages:
 * - messages written in a group: "Group messages webhook reference",
 *   developers.facebook.com/documentation/business-messaging/whatsapp/groups/group-messaging (a `messages`
 *   change whose message carries `group_id`);
 * - the group's state: "Webhooks for Groups API",
 *   developers.facebook.com/documentation/business-messaging/whatsapp/groups/webhooks (`value.groups[]` of
 *   `group_lifecycle_update`, `group_participants_update`, `group_settings_update`, `group_status_update`).
 * Ids, numbers and texts are the tests' own.
 */

type Json = Record<string, unknown>;
export type GroupLine = { phoneNumberId: string; wabaId: string };

const DISPLAY_PHONE_NUMBER = '15550783881';
const unix = (at: Date) => String(Math.floor(at.getTime() / 1000));

function change(line: GroupLine, field: string, parts: Json): Json {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: DISPLAY_PHONE_NUMBER, phone_number_id: line.phoneNumberId },
    ...parts,
  };
  return { object: 'whatsapp_business_account', entry: [{ id: line.wabaId, changes: [{ value, field }] }] };
}

/** Group messages webhook reference: a participant's text in the group, the author in `contacts[]`. */
export function groupMessageWebhook(
  line: GroupLine,
  message: { groupId: string; from: string; name: string; wamid: string; at: Date; body: string },
): Json {
  return change(line, 'messages', {
    contacts: [{ profile: { name: message.name }, wa_id: message.from }],
    messages: [
      {
        from: message.from,
        group_id: message.groupId,
        id: message.wamid,
        timestamp: unix(message.at),
        text: { body: message.body },
        type: 'text',
      },
    ],
  });
}

/**
 * Group messages webhook reference, status messages: a move of a message the business sent to the
 * group, `recipient_type` `group` and the group in `recipient_id`; a participant's delivered or read
 * names them in `recipient_participant_id`.
 */
export function groupMessageStatusWebhook(
  line: GroupLine,
  update: { groupId: string; wamid: string; status: 'delivered' | 'read'; at: Date; participant: string },
): Json {
  return change(line, 'messages', {
    statuses: [
      {
        id: update.wamid,
        status: update.status,
        timestamp: unix(update.at),
        recipient_id: update.groupId,
        recipient_type: 'group',
        recipient_participant_id: update.participant,
      },
    ],
  });
}

/** group_lifecycle_update, "Group create succeed": the group Meta made for a create request, with its invite link. */
export function groupCreatedWebhook(
  line: GroupLine,
  group: { groupId: string; requestId: string; subject: string; inviteLink: string; at: Date },
): Json {
  return change(line, 'group_lifecycle_update', {
    groups: [
      {
        timestamp: unix(group.at),
        group_id: group.groupId,
        type: 'group_create',
        request_id: group.requestId,
        subject: group.subject,
        invite_link: group.inviteLink,
        join_approval_mode: 'auto_approve',
      },
    ],
  });
}

/** group_lifecycle_update, "Group create fail": Meta's `errors` instead of a group. */
export function groupCreateFailedWebhook(
  line: GroupLine,
  group: { requestId: string; subject: string; at: Date },
): Json {
  return change(line, 'group_lifecycle_update', {
    groups: [
      {
        timestamp: unix(group.at),
        type: 'group_create',
        subject: group.subject,
        request_id: group.requestId,
        errors: [
          {
            code: 131215,
            message: 'Groups limit reached',
            title: 'Groups limit reached',
            error_data: { details: 'This number has reached its limit of groups' },
          },
        ],
      },
    ],
  });
}

/**
 * group_participants_update: "User joined group using invite link succeed" (`group_participants_add`,
 * `added_participants`) and "Group participant leaves" (`group_participants_remove`, `removed_participants`).
 */
export function groupParticipantsWebhook(
  line: GroupLine,
  update: { groupId: string; type: 'group_participants_add' | 'group_participants_remove'; waIds: string[]; at: Date },
): Json {
  const participants = update.waIds.map((wa_id) => ({ wa_id }));
  return change(line, 'group_participants_update', {
    groups: [
      {
        timestamp: unix(update.at),
        group_id: update.groupId,
        type: update.type,
        ...(update.type === 'group_participants_add'
          ? { reason: 'invite_link', added_participants: participants }
          : { initiated_by: 'participant', removed_participants: participants }),
      },
    ],
  });
}

/** group_settings_update, "Group settings update succeed": the new subject, applied. */
export function groupSubjectWebhook(line: GroupLine, update: { groupId: string; subject: string; at: Date }): Json {
  return change(line, 'group_settings_update', {
    groups: [
      {
        timestamp: unix(update.at),
        group_id: update.groupId,
        type: 'group_settings_update',
        request_id: 'settings-request',
        group_subject: { text: update.subject, update_successful: true },
      },
    ],
  });
}

/** group_status_update: the group suspended by WhatsApp (`group_suspend`), or the suspension cleared. */
export function groupStatusWebhook(
  line: GroupLine,
  update: { groupId: string; type: 'group_suspend' | 'group_suspend_cleared'; at: Date },
): Json {
  return change(line, 'group_status_update', {
    groups: [{ timestamp: unix(update.at), group_id: update.groupId, type: update.type }],
  });
}
