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

/** What a run reads of its context in a branch: the latest reply, and the latest WhatsApp Flow answer's fields. */
export interface Heard {
  reply?: Reply;
  answer?: Record<string, unknown>;
}

/**
 * The context key of the token of the WhatsApp Flow a run waits for the answer to: only the answer of
 * that send (the nfm_reply with that `flow_token`) takes the run on.
 */
export const WAITED_TOKEN = 'whatsapp_flow_token';

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

/** Whether a branch's condition holds for the reply, the Flow answer and the contact. */
async function holds(trx: Trx, condition: FlowCondition, heard: Heard, contact: ContactRow): Promise<boolean> {
  const { reply } = heard;
  if ('answer_field' in condition) return answerEquals(heard.answer?.[condition.answer_field], condition.equals);
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

/**
 * A Flow answer's field against a value: a text, number or yes/no as written (`true`, `2`); a field of
 * several choices (a CheckboxGroup's ids) when one of them is the value.
 */
function answerEquals(value: unknown, expected: string): boolean {
  if (Array.isArray(value)) return value.some((item) => answerEquals(item, expected));
  if (value === undefined) return false;
  return (typeof value === 'string' ? value : JSON.stringify(value)) === expected;
}

/** The exit a branch node takes: its first branch whose condition holds, else `default`. */
export async function branchTaken(
  trx: Trx,
  node: Extract<FlowNode, { type: 'branch' }>,
  heard: Heard,
  contact: ContactRow,
): Promise<string> {
  for (const [j, branch] of node.branches.entries()) {
    if (await holds(trx, branch.when, heard, contact)) return branchExit(j);
  }
  return 'default';
}
