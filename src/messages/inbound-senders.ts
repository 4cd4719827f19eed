import {
  type CallPermission,
  parseName,
  contactRepository,
  newContactRow,
  type ContactRow,
} from '../contacts/index.js';
import type { Deps } from '../db/deps.js';
import { NAME_SOURCE } from '../db/schema.js';
import { normalizePhone } from '../shared/phone.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { InboundMessage } from './inbound-message.js';

type Trx = Deps['db'];

/**
 * Where an inbound message's sender is kept: the contact's `phone` (E.164 when the wa_id is a valid
 * number, else the raw wa_id with `+`, else the business-scoped user id), plus the identity Meta gave.
 */
export interface SenderAddress {
  phone: string;
  /** Meta's wa_id when it is not simply the phone's digits (Mexico's `521…`, a number that fails validation). */
  waId: string | null;
  bsuid: string | null;
}

/**
 * Country quirks Meta documents, where the wa_id differs from the E.164 number: Mexican mobiles
 * arrive as `52 1 …` (the `1` was dropped from Mexican numbering in 2019), which is not a valid number.
 */
const WA_ID_QUIRKS: [RegExp, string][] = [[/^521(\d{10})$/, '+52$1']];

/** The E.164 phone of a wa_id (or of a `+` number), or null when it is no valid number. */
export function phoneOfWaId(waId: string): string | null {
  const digits = waId.replace(/^\+/, '');
  const quirk = WA_ID_QUIRKS.find(([pattern]) => pattern.test(digits));
  return normalizePhone(quirk ? digits.replace(quirk[0], quirk[1]) : `+${digits}`);
}

/**
 * Each message's sender address: by wa_id when Meta sent one (a number that fails validation is kept
 * raw: replies go back to it), else by the business-scoped user id (the contact that has it, or a new one).
 */
export async function senderAddresses(
  trx: Trx,
  workspaceId: string,
  inbounds: InboundMessage[],
): Promise<(SenderAddress | null)[]> {
  const contacts = contactRepository(trx);
  const userIds = inbounds.flatMap((inbound) => [inbound.userId, previousUserId(inbound)]).filter((id) => id !== null);
  const byUserId = await contacts.phonesByBsuid(workspaceId, [...new Set(userIds)]);
  const addresses: (SenderAddress | null)[] = [];
  for (const inbound of inbounds) {
    const { from, userId } = inbound;
    const previous = previousUserId(inbound);
    if (from === null && previous !== null && byUserId.has(previous)) {
      // A changed user id: the contact is found by the old one (the system message then records the new one).
      addresses.push({ phone: byUserId.get(previous)!, waId: null, bsuid: null });
      continue;
    }
    if (from === null) {
      addresses.push(userId === null ? null : { phone: byUserId.get(userId) ?? userId, waId: null, bsuid: userId });
      continue;
    }
    const digits = from.replace(/^\+/, '');
    const valid = phoneOfWaId(digits);
    const address = { phone: valid ?? `+${digits}`, waId: valid === `+${digits}` ? null : digits, bsuid: userId };
    const holder = userId === null ? undefined : byUserId.get(userId);
    // A contact known only by this user id learns their phone now (unless another contact has it).
    if (
      userId !== null &&
      holder === userId &&
      (await contacts.changePhoneIfFree(workspaceId, userId, address.phone))
    ) {
      byUserId.set(userId, address.phone);
    }
    // A user id stays with the contact that has it: never two contacts with one id.
    if (userId !== null && byUserId.has(userId) && byUserId.get(userId) !== address.phone) address.bsuid = null;
    addresses.push(address);
  }
  return addresses;
}

/** A time before every window: moving a window "forward" to it changes nothing. */
const NEVER = toStoredTimestamp(new Date(0));

/** The user id a system message says the sender had before (`user_changed_user_id`, `user_changed_number`). */
function previousUserId(inbound: InboundMessage): string | null {
  const previous = inbound.type === 'system' ? inbound.content.previous_user_id : null;
  return typeof previous === 'string' && previous !== '' ? previous : null;
}

/** An inbound message with its sender's address. */
export interface AddressedInbound {
  inbound: InboundMessage;
  address: SenderAddress;
}

/**
 * Opens each sender's window at their newest message and returns the senders' rows by phone. A
 * phone that is no contact's yet becomes one (named by its WhatsApp profile). The window moves for
 * duplicates too: their original already moved it at least as far, so that changes nothing.
 */
export async function openSendersWindows(
  trx: Trx,
  { dialect, newId, clock }: Pick<Deps, 'dialect' | 'newId' | 'clock'>,
  workspaceId: string,
  inbounds: AddressedInbound[],
): Promise<Map<string, ContactRow>> {
  const newest = new Map<string, string>();
  for (const { inbound, address } of inbounds) {
    // A system message (a number change) is not the person writing: it finds the contact, opens no window.
    const sent = inbound.type === 'system' ? NEVER : toStoredTimestamp(inbound.timestamp);
    const known = newest.get(address.phone);
    if (known === undefined || known < sent) newest.set(address.phone, sent);
  }
  const contacts = contactRepository(trx);
  const senders = new Map((await contacts.openWindows(dialect, workspaceId, newest)).map((row) => [row.phone, row]));
  const unknown = new Map([...newest].filter(([phone]) => !senders.has(phone)));
  if (unknown.size > 0) {
    const names = new Map(inbounds.map(({ inbound, address }) => [address.phone, inbound.profileName]));
    await contacts.insertAllIfAbsent(
      [...unknown.keys()].map((phone) => {
        const name = parseName(names.get(phone) ?? '');
        const row = newContactRow({
          id: newId(),
          workspaceId,
          phone,
          name,
          email: null,
          customAttributes: '{}',
          at: toStoredTimestamp(clock.now()),
        });
        return { ...row, name_from_whatsapp: name === null ? NAME_SOURCE.parley : NAME_SOURCE.profile };
      }),
    );
    for (const row of await contacts.openWindows(dialect, workspaceId, unknown)) senders.set(row.phone, row);
  }
  return senders;
}

/**
 * Keeps what the messages say about their senders: Meta's raw wa_id and user id, a newer WhatsApp
 * profile name (only over a name that came from WhatsApp), the first ad that brought them, and the
 * number they last wrote to.
 */
export async function recordSenderIdentities(
  trx: Trx,
  workspaceId: string,
  entries: (AddressedInbound & { sender: ContactRow })[],
): Promise<void> {
  const changes = new Map<ContactRow, Partial<ContactRow>>();
  for (const { inbound, address, sender } of entries) {
    const change = changes.get(sender) ?? {};
    if (address.waId !== null && sender.wa_id !== address.waId) change.wa_id = address.waId;
    if (address.bsuid !== null && sender.bsuid !== address.bsuid) change.bsuid = address.bsuid;
    const name = parseName(inbound.profileName ?? '');
    // Only the sender's newest message names them: Meta retries late deliveries with their old profile.
    const newest = toStoredTimestamp(inbound.timestamp) >= (sender.last_inbound_at ?? '');
    const fromProfile = sender.name_from_whatsapp === NAME_SOURCE.profile;
    if (name !== null && newest && fromProfile && sender.name !== name) change.name = name;
    // The conversation continues on the number the contact last wrote to (a system message is not them writing).
    const channelId = inbound.channelId ?? null;
    if (newest && inbound.type !== 'system' && channelId !== null && sender.conversation_channel_id !== channelId) {
      change.conversation_channel_id = channelId;
    }
    const referral = inbound.content.referral;
    if (referral && sender.first_touch === null && change.first_touch === undefined) {
      change.first_touch = JSON.stringify(referral);
    }
    const permission = callPermissionOf(inbound);
    if (permission && permission.answered_at > answeredAt(change.call_permission ?? sender.call_permission)) {
      change.call_permission = JSON.stringify(permission);
    }
    changes.set(sender, change);
  }
  const contacts = contactRepository(trx);
  for (const [sender, change] of changes) {
    if (Object.keys(change).length === 0) continue;
    await contacts.update(workspaceId, sender.id, change);
    Object.assign(sender, change);
  }
}

/**
 * The customer's answer to a call permission request (an interactive `call_permission_reply`, kept whole
 * on the message), as the contact keeps it; null for any other message.
 */
function callPermissionOf(inbound: InboundMessage): CallPermission | null {
  const reply = inbound.content.call_permission_reply as Record<string, unknown> | undefined;
  const response = reply?.response;
  if (inbound.type !== 'interactive' || (response !== 'accept' && response !== 'reject')) return null;
  const expires = Number(reply!.expiration_timestamp);
  const permanent = reply!.is_permanent === true;
  return {
    response,
    permanent,
    expires_at:
      response === 'accept' && !permanent && Number.isSafeInteger(expires) && expires > 0
        ? new Date(expires * 1000).toISOString()
        : null,
    answered_at: inbound.timestamp.toISOString(),
    source: typeof reply!.response_source === 'string' ? reply!.response_source : null,
  };
}

/** When a stored answer was given ('' for none): a late retry of an older answer never replaces a newer one. */
function answeredAt(stored: string | null | undefined): string {
  return stored ? (JSON.parse(stored) as CallPermission).answered_at : '';
}
