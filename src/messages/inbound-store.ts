import { type ContactRow, contactRepository } from '../contacts/index.js';
import type { Deps } from '../db/deps.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { type AddressedInbound, phoneOfWaId } from './inbound-senders.js';
import type { InboundMessage } from './inbound-message.js';
import { carriesMedia } from './media-ref.js';
import { messageRepository } from './message.repository.js';
import type { MessageEdit } from './message.schema.js';

type Trx = Deps['db'];
type Json = Record<string, unknown>;

/** An inbound message with its sender's contact and the id it gets if it is new. */
export type SenderEntry = AddressedInbound & { id: string; sender: ContactRow };

/** What became of one inbound message: the message it stored or changed. */
export interface StoreResult {
  outcome: 'stored' | 'duplicate';
  /** The message stored, or the one an edit or revocation changed. */
  id: string;
  contactId: string;
}

/**
 * Stores new messages (each once, by wamid) linked to the message they reply or react to, applies
 * reactions, number changes, edits and revocations, and returns the new messages and every entry's result.
 * An edit of a message Parley never had is stored as a new message: nothing the contact wrote is lost.
 */
export async function storeAll(
  trx: Trx,
  workspaceId: string,
  entries: SenderEntry[],
  at: string,
): Promise<{ stored: SenderEntry[]; results: Map<string, StoreResult> }> {
  const results = new Map<string, StoreResult>();
  const stored = await storeNew(
    trx,
    workspaceId,
    entries.filter((entry) => !entry.inbound.amends),
    at,
    results,
  );
  const unknownOriginals: SenderEntry[] = [];
  for (const entry of entries.filter((entry) => entry.inbound.amends)) {
    const result = await applyAmendment(trx, workspaceId, entry, at);
    if (result) results.set(entry.id, result);
    else if (entry.inbound.amends?.kind === 'edit') unknownOriginals.push(entry);
    // Revoking a message Parley never had deletes nothing.
    else results.set(entry.id, { outcome: 'stored', id: entry.id, contactId: entry.sender.id });
  }
  stored.push(...(await storeNew(trx, workspaceId, unknownOriginals, at, results)));
  return { stored, results };
}

async function storeNew(
  trx: Trx,
  workspaceId: string,
  entries: SenderEntry[],
  at: string,
  results: Map<string, StoreResult>,
): Promise<SenderEntry[]> {
  if (entries.length === 0) return [];
  const messages = messageRepository(trx);
  const links = await linkedIds(trx, workspaceId, entries);
  const rows = entries.map((entry) =>
    inboundRow(workspaceId, entry, links.get(linkOf(entry.inbound.type, entry.inbound.content) ?? '') ?? null, at),
  );
  const ids = await messages.insertInbound(rows);
  const stored = entries.filter((entry) => ids.has(entry.id));
  for (const entry of entries) {
    results.set(entry.id, {
      outcome: ids.has(entry.id) ? 'stored' : 'duplicate',
      id: entry.id,
      contactId: entry.sender.id,
    });
  }
  for (const [i, entry] of entries.entries()) {
    if (!ids.has(entry.id)) continue;
    const target = rows[i]!.message.reply_to_message_id;
    if (entry.inbound.type === 'reaction' && target) {
      // An empty emoji removes the contact's reaction.
      const emoji = entry.inbound.content.emoji;
      await messages.amend(target, { reaction: typeof emoji === 'string' && emoji !== '' ? emoji : null }, at);
    }
    if (entry.inbound.type === 'system') await applySystemChange(trx, workspaceId, entry);
  }
  return stored;
}

/** The wamid a message points at: the message it quotes (`context.id`) or reacts to. */
function linkOf(type: string, content: Json): string | null {
  const wamid = type === 'reaction' ? content.message_id : (content.context as Json | undefined)?.id;
  return typeof wamid === 'string' && wamid !== '' ? wamid : null;
}

/** Parley's ids of the messages these entries point at: stored already, or earlier in the same batch. */
async function linkedIds(trx: Trx, workspaceId: string, entries: SenderEntry[]): Promise<Map<string, string>> {
  const wamids = entries.map((entry) => linkOf(entry.inbound.type, entry.inbound.content)).filter((w) => w !== null);
  const links = await messageRepository(trx).idsByWamid(workspaceId, [...new Set(wamids)]);
  for (const entry of entries) if (!links.has(entry.inbound.wamid)) links.set(entry.inbound.wamid, entry.id);
  return links;
}

function inboundRow(workspaceId: string, entry: SenderEntry, replyTo: string | null, at: string) {
  const { inbound, sender, id } = entry;
  return {
    sender,
    message: {
      id,
      workspace_id: workspaceId,
      contact_id: sender.id,
      type: inbound.type,
      content: JSON.stringify(inbound.content),
      status: 'received',
      provider_message_id: inbound.wamid,
      error: null,
      next_attempt_at: null,
      reply_to_message_id: replyTo,
      channel_id: inbound.channelId ?? null,
      // Its file is downloaded by the job queued with it (inbound.ts).
      media_state: carriesMedia(inbound.type, inbound.content) ? ('pending' as const) : null,
      // Feeds order by when Parley recorded a message: Meta retries late deliveries with their first timestamp.
      sent_at: toStoredTimestamp(inbound.timestamp),
      created_at: at,
      updated_at: at,
    },
  };
}

/**
 * Applies an edit (the earlier version kept in `edits`) or a revocation (the content kept) to the
 * contact's message (or the business's, from the WhatsApp Business app); null when Parley does not have that message. A retried delivery changes nothing.
 */
export async function applyAmendment(
  trx: Trx,
  workspaceId: string,
  entry: SenderEntry,
  at: string,
  direction: 'inbound' | 'outbound' = 'inbound',
): Promise<StoreResult | null> {
  const amended = await amendMessage(trx, workspaceId, entry.inbound, at, direction);
  return amended && { ...amended, contactId: entry.sender.id };
}

/**
 * Applies an edit or a revocation to the message it names (in a contact's conversation or a group's);
 * null when Parley does not have that message.
 */
export async function amendMessage(
  trx: Trx,
  workspaceId: string,
  inbound: Pick<InboundMessage, 'amends' | 'wamid' | 'timestamp' | 'type' | 'content'>,
  at: string,
  direction: 'inbound' | 'outbound',
): Promise<Omit<StoreResult, 'contactId'> | null> {
  const { amends, wamid, timestamp, type, content } = inbound;
  const messages = messageRepository(trx);
  const original = amends && (await messages.findByWamid(workspaceId, amends.originalWamid, direction));
  if (!original) return null;
  const result = (outcome: StoreResult['outcome']) => ({ outcome, id: original.id });
  if (amends.kind === 'revoke') {
    if (original.revoked_at) return result('duplicate');
    await messages.amend(original.id, { revoked_at: toStoredTimestamp(timestamp) }, at);
    return result('stored');
  }
  const edits = original.edits ? (JSON.parse(original.edits) as (MessageEdit & { provider_message_id: string })[]) : [];
  if (edits.some((edit) => edit.provider_message_id === wamid)) return result('duplicate');
  const earlier = {
    type: original.type,
    content: JSON.parse(original.content) as Json,
    edited_at: formatTimestamp(toStoredTimestamp(timestamp)),
    provider_message_id: wamid,
  };
  await messages.amend(
    original.id,
    { type, content: JSON.stringify(content), edits: JSON.stringify([...edits, earlier]) },
    at,
  );
  return result('stored');
}

/**
 * `user_changed_number`: the contact moves to the new number (unless another contact has it); the
 * system message stays in their history. A changed business-scoped user id (`user_changed_user_id`,
 * or the new id of a number change) replaces the old one.
 */
async function applySystemChange(trx: Trx, workspaceId: string, entry: SenderEntry): Promise<void> {
  const system = entry.inbound.content;
  const contacts = contactRepository(trx);
  const newWaId =
    typeof system.wa_id === 'string' ? system.wa_id : typeof system.new_wa_id === 'string' ? system.new_wa_id : null;
  const changedNumber = system.type === 'user_changed_number' || system.type === 'customer_changed_number';
  if (changedNumber && newWaId) {
    const phone = phoneOfWaId(newWaId) ?? `+${newWaId.replace(/^\+/, '')}`;
    await contacts.changePhoneIfFree(workspaceId, entry.sender.phone, phone);
  }
  const newUserId = typeof system.user_id === 'string' ? system.user_id : null;
  if (newUserId && newUserId !== entry.sender.bsuid) {
    const holders = await contacts.phonesByBsuid(workspaceId, [newUserId]);
    if (holders.size > 0) return;
    await contacts.update(workspaceId, entry.sender.id, { bsuid: newUserId });
    // A contact known only by user id is addressed by the new one.
    if (entry.sender.phone === entry.sender.bsuid) {
      await contacts.changePhoneIfFree(workspaceId, entry.sender.phone, newUserId);
    }
  }
}
