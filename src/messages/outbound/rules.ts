import type { ContactRow } from '../../contacts/index.js';
import { isMarketing, type OutboundContent } from '../../content/message-content.js';

/** The customer service window: free-form messages are allowed for 24 h after the contact's last message. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

export type Recipient = Pick<ContactRow, 'last_inbound_at' | 'window_closed_at' | 'opted_out_at'>;

/** Why a message may not be sent to a contact now; every sender maps it to its own outcome. */
export type Refusal =
  { refused: 'opted_out' } | { refused: 'customer_service_window_closed'; windowClosedAt: string | null };

type WindowTimes = Pick<Recipient, 'last_inbound_at' | 'window_closed_at'>;

/**
 * When the contact's window closes (or closed): 24 hours after their last message, or earlier when
 * the channel said it closed after that message; null when they never wrote.
 */
export function windowClosesAt(contact: WindowTimes): Date | null {
  if (!contact.last_inbound_at) return null;
  const lastInbound = Date.parse(contact.last_inbound_at);
  const closedAt = contact.window_closed_at ? Date.parse(contact.window_closed_at) : null;
  const closesAt = lastInbound + WINDOW_MS;
  return new Date(closedAt !== null && closedAt >= lastInbound ? Math.min(closedAt, closesAt) : closesAt);
}

export function isWindowOpen(contact: WindowTimes, now: Date): boolean {
  const closes = windowClosesAt(contact);
  return closes !== null && now < closes;
}

/**
 * The sending rules, in one place: an approved template may always be sent, except a marketing one to
 * a contact who opted out of marketing; anything else only inside the customer service window (a
 * service reply to an opted-out contact who wrote in is still allowed).
 */
export function refusalFor(contact: Recipient, message: OutboundContent, now: Date): Refusal | null {
  if (message.type === 'template')
    return contact.opted_out_at && isMarketing(message) ? { refused: 'opted_out' } : null;
  if (isWindowOpen(contact, now)) return null;
  return { refused: 'customer_service_window_closed', windowClosedAt: windowClosesAt(contact)?.toISOString() ?? null };
}

export const isRefusal = (value: object): value is Refusal => 'refused' in value;
