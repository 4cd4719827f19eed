import type { EchoEvent, HistoryEvent, HistoryMessage } from '../channels/index.js';
import { contactRepository, newContactRow, type ContactRow } from '../contacts/index.js';
import type { Deps } from '../db/deps.js';
import type { Caller } from '../shared/context.js';
import { toStoredTimestamp } from '../shared/time.js';
import { conversationSpans } from './conversation-spans.js';
import type { InboundMessage } from './inbound-message.js';
import { senderAddresses, type SenderAddress } from './inbound-senders.js';
import { applyAmendment, type SenderEntry } from './inbound-store.js';
import type { ReceiveOutcome } from './inbound.js';
import { queueDownloads } from './media-download.js';
import { carriesMedia } from './media-ref.js';
import { messageRepository, type NewMessage } from './message.repository.js';
import type { MessageEvents } from './message.service.js';

type Trx = Deps['db'];
export type RecordedRow = NewMessage & { direction: 'inbound' | 'outbound' };

/**
 * Coexistence: what the business does in the WhatsApp Business app on a number Parley also uses.
 * Its messages (echoes) and its chat history are kept in the conversations as they happened there,
 * outside everything a customer's message sets off: no window opens, no automation, feed, outgoing
 * webhook or opt-out keyword hears of them. An echo is the team replying, so it counts in response times.
 */
export function createBusinessAppService(deps: Deps, events: MessageEvents) {
  const { db, clock, newId } = deps;

  return {
    /** Stores the business's messages from the app (each once, by wamid) and applies its edits and deletions. */
    async recordEchoes(caller: Caller, channelId: string, echoes: EchoEvent[]): Promise<ReceiveOutcome[]> {
      if (echoes.length === 0) return [];
      const workspaceId = caller.workspaceId;
      const at = toStoredTimestamp(clock.now());
      const [outcomes, stored] = await db.transaction().execute(async (trx) => {
        const recipients = await recipientsOf(
          trx,
          deps,
          workspaceId,
          echoes.map((echo) => ({ key: echo.wamid, to: echo.to, userId: echo.toUserId })),
        );
        const outcomes: ReceiveOutcome[] = [];
        const stored: { id: string; contactId: string; sentAt: string }[] = [];
        for (const echo of echoes) {
          const recipient = recipients.get(echo.wamid);
          if (!recipient) {
            outcomes.push('rejected');
            continue;
          }
          const contact = recipient.contact;
          if (echo.amends) {
            // An edit or deletion in the app of a message Parley never had changes nothing.
            const inbound = { ...echo, from: echo.to, userId: echo.toUserId, profileName: null };
            const entry: SenderEntry = { inbound, address: recipient.address, id: newId(), sender: contact };
            const result = await applyAmendment(trx, workspaceId, entry, at, 'outbound');
            outcomes.push(result?.outcome ?? 'stored');
            continue;
          }
          const row = recordedRow(workspaceId, newId(), contact.id, channelId, echo, 'outbound', 'sent', at);
          const inserted = await insertRecorded(trx, deps, workspaceId, [row]);
          outcomes.push(inserted.size > 0 ? 'stored' : 'duplicate');
          if (inserted.size > 0) stored.push({ id: row.id, contactId: contact.id, sentAt: row.sent_at! });
        }
        for (const { contactId, sentAt } of stored) {
          await contactRepository(trx).noteLastMessage(workspaceId, [contactId], sentAt);
          await conversationSpans(trx).responded(workspaceId, contactId, sentAt, null);
        }
        return [outcomes, stored] as const;
      });
      await events.publish(
        workspaceId,
        stored.map(({ id, contactId }) => ({ type: 'message', contact_id: contactId, message_id: id })),
      );
      return outcomes;
    },

    /**
     * Imports a chunk of the app's chat history with each message's own time and direction; a chunk
     * delivered twice stores nothing twice. Returns how many messages it stored.
     */
    async importHistory(caller: Caller, channelId: string, chunk: HistoryEvent): Promise<number> {
      const workspaceId = caller.workspaceId;
      const at = toStoredTimestamp(clock.now());
      return db.transaction().execute(async (trx) => {
        const threads = chunk.threads.filter((thread) => thread.messages.length > 0);
        const customers = await recipientsOf(
          trx,
          deps,
          workspaceId,
          threads.map((thread) => ({ key: thread.customer, to: thread.customer, userId: null })),
        );
        const rows: RecordedRow[] = [];
        for (const thread of threads) {
          const contact = customers.get(thread.customer)!.contact;
          for (const message of thread.messages) {
            rows.push(
              recordedRow(workspaceId, newId(), contact.id, channelId, message, message.direction, message.status, at),
            );
          }
          const newest = thread.messages
            .map((message) => toStoredTimestamp(message.timestamp))
            .sort()
            .at(-1)!;
          await contactRepository(trx).noteLastMessage(workspaceId, [contact.id], newest);
        }
        return (await insertRecorded(trx, deps, workspaceId, rows)).size;
      });
    },
  };
}

/** A customer the business wrote to (or a thread is with): their wa_id digits or user id, under a key. */
export interface Customer {
  key: string;
  to: string | null;
  userId: string | null;
}

/** The customer as an inbound message's sender is looked up (only `from` and `userId` are read). */
const asSender = ({ key, to, userId }: Customer): InboundMessage => ({
  from: to,
  userId,
  profileName: null,
  wamid: key,
  timestamp: new Date(0),
  type: 'text',
  content: {},
  amends: null,
});

/**
 * The customers' contacts and addresses, by key, found as an inbound message's sender is (by number,
 * else by business-scoped user id); a contact is created for each that is nobody's yet. No window
 * opens: the customer wrote nothing to Parley's side.
 */
export async function recipientsOf(
  trx: Trx,
  { newId, clock }: Pick<Deps, 'newId' | 'clock'>,
  workspaceId: string,
  customers: Customer[],
): Promise<Map<string, { contact: ContactRow; address: SenderAddress }>> {
  const addresses = await senderAddresses(trx, workspaceId, customers.map(asSender));
  const known = (address: SenderAddress | null): address is SenderAddress => address !== null;
  const phones = [...new Set(addresses.filter(known).map((address) => address.phone))];
  const contacts = contactRepository(trx);
  const at = toStoredTimestamp(clock.now());
  await contacts.insertAllIfAbsent(
    addresses.filter(known).map((address) => ({
      ...newContactRow({
        id: newId(),
        workspaceId,
        phone: address.phone,
        name: null,
        email: null,
        customAttributes: '{}',
        at,
      }),
      bsuid: address.bsuid,
    })),
  );
  const byPhone = new Map((await contacts.findByPhones(workspaceId, phones)).map((row) => [row.phone, row]));
  const recipients = new Map<string, { contact: ContactRow; address: SenderAddress }>();
  customers.forEach((customer, i) => {
    const address = addresses[i];
    const contact = address && byPhone.get(address.phone);
    if (address && contact) recipients.set(customer.key, { contact, address });
  });
  return recipients;
}

function recordedRow(
  workspaceId: string,
  id: string,
  contactId: string,
  channelId: string,
  message: Pick<HistoryMessage, 'wamid' | 'timestamp' | 'type' | 'content'>,
  direction: 'inbound' | 'outbound',
  status: string,
  at: string,
): RecordedRow {
  const sentAt = toStoredTimestamp(message.timestamp);
  return {
    id,
    workspace_id: workspaceId,
    contact_id: contactId,
    direction,
    type: message.type,
    content: JSON.stringify(message.content),
    status,
    provider_message_id: message.wamid,
    error: null,
    next_attempt_at: null,
    channel_id: channelId,
    sender_type: direction === 'outbound' ? 'business_app' : null,
    sender_id: null,
    media_state: carriesMedia(message.type, message.content) ? 'pending' : null,
    sent_at: sentAt,
    // The thread orders by when a message was written: it keeps the time it had in the app.
    created_at: sentAt,
    updated_at: at,
  };
}

/** Inserts the rows (each once, by wamid) and queues the download of every file they name. */
export async function insertRecorded(
  trx: Trx,
  deps: Pick<Deps, 'newId' | 'clock'>,
  workspaceId: string,
  rows: RecordedRow[],
): Promise<Set<string>> {
  const inserted = await messageRepository(trx).insertRecorded(rows);
  const withMedia = rows.filter((row) => inserted.has(row.id) && row.media_state === 'pending');
  await queueDownloads(
    trx,
    deps,
    workspaceId,
    withMedia.map((row) => row.id),
  );
  return inserted;
}

export type BusinessAppService = ReturnType<typeof createBusinessAppService>;
