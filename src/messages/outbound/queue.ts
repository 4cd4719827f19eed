import { contactRepository, type ContactRow } from '../../contacts/index.js';
import type { SenderType } from '../../db/schema.js';
import type { Deps } from '../../db/deps.js';
import { noteQueued } from '../../shared/queued-work.js';
import { toStoredTimestamp } from '../../shared/time.js';
import { messageRepository } from '../message.repository.js';
import { flowSendRepository } from '../flow-sends.js';
import type { OutboundContent } from '../../content/message-content.js';
import type { TemplateContent } from '../../content/template.js';
import { refusalFor, type Recipient as RuleRecipient, type Refusal } from './rules.js';

/** Who sends a message: recorded on its row where it is queued, so the thread can say who wrote it. */
export interface Sender {
  type: SenderType;
  /** The member, token, campaign, sequence or flow; null for Parley itself. */
  id: string | null;
}

/** A new outbound message row to a contact, due at once. */
export type OutboundRow = ReturnType<typeof newOutboundRow<ContactConversation>>;
/** A new outbound message row to a WhatsApp group. */
export type GroupOutboundRow = ReturnType<typeof newOutboundRow<GroupConversation>>;

/** What the sending rules and the row need of the recipient. */
type Recipient = Pick<ContactRow, 'id' | 'workspace_id'> & RuleRecipient;

/** The conversation a message is in: a contact's, or (contact_id null) a WhatsApp group's. */
type ContactConversation = { workspace_id: string; contact_id: string; group_id: null };
type GroupConversation = { workspace_id: string; contact_id: null; group_id: string };

export function newOutboundRow<Conversation extends ContactConversation | GroupConversation>(
  id: string,
  conversation: Conversation,
  message: OutboundContent,
  at: string,
  sender: Sender,
  channelId: string | null,
) {
  return {
    id,
    ...conversation,
    type: message.type,
    content: JSON.stringify(withFlowToken(message, id)),
    status: 'queued',
    provider_message_id: null,
    error: null,
    next_attempt_at: at,
    campaign_id: sender.type === 'campaign' ? sender.id : null,
    sender_type: sender.type,
    sender_id: sender.id,
    // Named by the sender; null: the contact's conversation number, else the default, when it is sent.
    channel_id: channelId,
    reply_to_message_id: message.reply_to_message_id ?? null,
    created_at: at,
    updated_at: at,
  };
}

/**
 * A template's FLOW button gets the send's `flow_token`: the message's own id, unique per send (a template
 * has one FLOW button at most), so every sender (API, inbox, campaigns, sequences, flows) makes it here.
 */
function withFlowToken(message: OutboundContent, id: string): OutboundContent['content'] {
  if (message.type !== 'template' || !message.content.flow_button_parameters) return message.content;
  const flowButtons = message.content.flow_button_parameters.map((button) => ({ ...button, flow_token: id }));
  return { ...message.content, flow_button_parameters: flowButtons };
}

/**
 * Every sender's first step: the message as a row to queue, or why the sending rules refuse it
 * (rules.ts). Batches (campaigns, sequences) queue the rows together with `queueOutbound`.
 * `channelId` is the channel the sender named (`from_phone_number_id`, a campaign's number); without
 * one the outbox sends on the contact's conversation number, else the workspace default, chosen when
 * it sends, so a number removed meanwhile is never used.
 */
export function prepareOutbound(
  { newId, clock }: Pick<Deps, 'newId' | 'clock'>,
  contact: Recipient,
  message: OutboundContent,
  sender: Sender,
  channelId: string | null = null,
): OutboundRow | Refusal {
  const now = clock.now();
  const at = toStoredTimestamp(now);
  const conversation = { workspace_id: contact.workspace_id, contact_id: contact.id, group_id: null };
  return refusalFor(contact, message, now) ?? newOutboundRow(newId(), conversation, message, at, sender, channelId);
}

/** Rows per multi-row insert (17 bound values each, well under both engines' parameter limits). */
const INSERT_ROWS = 500;

/**
 * Queues messages for the outbox in the caller's transaction, in multi-row statements, and moves
 * their contacts' last_message_at (one statement per workspace and time, usually one in all).
 */
export async function queueOutbound(
  trx: Deps['db'],
  messages: ((OutboundRow | GroupOutboundRow) & { attempts?: number })[],
): Promise<void> {
  if (messages.length > 0) noteQueued(trx, 'messages');
  for (let i = 0; i < messages.length; i += INSERT_ROWS) {
    await messageRepository(trx).insertOutbound(messages.slice(i, i + INSERT_ROWS));
  }
  await recordFlowSends(trx, messages);
  const byMoment = new Map<string, OutboundRow[]>();
  for (const message of messages) {
    if (message.contact_id === null) continue; // a group's message: no contact's last message moves
    const key = `${message.workspace_id} ${message.created_at}`;
    const group = byMoment.get(key);
    if (group) group.push(message);
    else byMoment.set(key, [message]);
  }
  for (const group of byMoment.values()) {
    const { workspace_id, created_at } = group[0]!;
    for (let i = 0; i < group.length; i += INSERT_ROWS) {
      const contactIds = group.slice(i, i + INSERT_ROWS).map((message) => message.contact_id);
      await contactRepository(trx).noteLastMessage(workspace_id, contactIds, created_at);
    }
  }
}

/** Each FLOW button's token, kept with its message in the transaction that queues it (flow-sends.ts). */
async function recordFlowSends(trx: Deps['db'], messages: (OutboundRow | GroupOutboundRow)[]): Promise<void> {
  const sends = messages.flatMap((message) => {
    if (message.type !== 'template' || !message.content.includes('"flow_button_parameters"')) return [];
    const content = JSON.parse(message.content) as TemplateContent;
    return (content.flow_button_parameters ?? []).map((button) => ({
      flow_token: button.flow_token!,
      workspace_id: message.workspace_id,
      message_id: message.id,
      contact_id: message.contact_id,
      whatsapp_flow_id: null,
      meta_flow_id: button.meta_flow_id,
      created_at: message.created_at,
    }));
  });
  for (let i = 0; i < sends.length; i += INSERT_ROWS)
    await flowSendRepository(trx).recordAll(sends.slice(i, i + INSERT_ROWS));
}
