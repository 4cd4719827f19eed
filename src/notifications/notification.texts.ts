import type { NotificationKind } from './notification.preferences.js';

/** What an email about a notification says; never the message or note itself (see docs/decisions/0092-notification-content.md). */
export function notificationEmail(
  kind: NotificationKind,
  names: { actor: string | null; customer: string },
  links: { conversation: string; settings: string },
): { subject: string; text: string } {
  const actor = names.actor ?? 'Someone';
  const { customer } = names;
  const wording: Record<NotificationKind, [subject: string, sentence: string]> = {
    mention: [
      `${actor} mentioned you: ${customer}`,
      `${actor} mentioned you in a note on the conversation with ${customer}.`,
    ],
    assignment: [`Assigned to you: ${customer}`, `${actor} assigned you the conversation with ${customer}.`],
    new_conversation: [`New conversation: ${customer}`, `${customer} started a conversation.`],
  };
  const [subject, sentence] = wording[kind];
  const text = [
    sentence,
    '',
    `Open it in Parley: ${links.conversation}`,
    '',
    `You get this email because of your notification settings: ${links.settings}`,
  ].join('\n');
  return { subject, text };
}
