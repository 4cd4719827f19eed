/** How a flow reads a customer's reply: as the answer to a question, and in a branch's conditions. */
import type { Kysely } from 'kysely';
import { contactRepository, parseEmail, parsePhone, type ContactRow } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import { messageText, type ReceivedMessage } from '../messages/index.js';
import { validOrNull } from '../shared/errors.js';
import { branchExit, type FlowCondition, type FlowNode } from './flow.definition.js';

/** What a flow reads of the contact's latest inbound message: its text, the button or row tapped. */
export interface Reply {
  text: string | null;
  button_id: string | null;
  type: string;
}

type Trx = Kysely<Database>;

/** A received message as a flow reads it. */
export function replyOf(message: ReceivedMessage): Reply {
  const content = message.content;
  const tapped = (content.button_reply ?? content.list_reply) as { id?: string } | undefined;
  const button = message.type === 'button' ? (content.payload as string | undefined) : undefined;
  return { text: messageText(message.type, content), button_id: tapped?.id ?? button ?? null, type: message.type };
}

/** The reply as the attribute stores it, or null when it is not what the question asked for. */
export function accepted(validate: 'any' | 'email' | 'phone' | 'number', text: string | null): string | null {
  const value = text?.trim();
  if (!value) return null;
  if (validate === 'email') return validOrNull(() => parseEmail(value));
  if (validate === 'phone') return validOrNull(() => parsePhone(value));
  if (validate === 'number') return /^-?\d+(?:[.,]\d+)?$/.test(value) ? value.replace(',', '.') : null;
  return value;
}

/** Whether a branch's condition holds for the reply and the contact. */
async function holds(
  trx: Trx,
  condition: FlowCondition,
  reply: Reply | undefined,
  contact: ContactRow,
): Promise<boolean> {
  const text = (reply?.text ?? '').trim().toLowerCase();
  if ('reply_equals' in condition) return text === condition.reply_equals.trim().toLowerCase();
  if ('reply_contains' in condition) return text.includes(condition.reply_contains.toLowerCase());
  if ('button_id' in condition) return reply?.button_id === condition.button_id;
  if ('has_tag' in condition) {
    const tags = await contactRepository(trx).tagNamesOf(contact.id);
    return tags.some((tag) => tag.toLowerCase() === condition.has_tag.toLowerCase());
  }
  const value = (JSON.parse(contact.custom_attributes) as Record<string, unknown>)[condition.attribute];
  if ('exists' in condition) return (value !== undefined && value !== null) === condition.exists;
  return (typeof value === 'string' ? value : JSON.stringify(value ?? null)) === condition.equals;
}

/** The exit a branch node takes: its first branch whose condition holds, else `default`. */
export async function branchTaken(
  trx: Trx,
  node: Extract<FlowNode, { type: 'branch' }>,
  reply: Reply | undefined,
  contact: ContactRow,
): Promise<string> {
  for (const [j, branch] of node.branches.entries()) {
    if (await holds(trx, branch.when, reply, contact)) return branchExit(j);
  }
  return 'default';
}
