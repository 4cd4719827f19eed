import type { Kysely } from 'kysely';
import { scheduleJob, cancelJobs, type JobHandler } from '../../automation/scheduler.js';
import type { ContactRow, ContactService } from '../../contacts/index.js';
import { previewOf } from '../../content/message-text.js';
import type { OutboundContent } from '../../content/message-content.js';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../db/deps.js';
import { emit } from '../../outgoing/index.js';
import type { Caller } from '../../shared/context.js';
import { errors } from '../../shared/errors.js';
import { queuedIn, type QueuedWork } from '../../shared/queued-work.js';
import { formatTimestamp, toStoredTimestamp } from '../../shared/time.js';
import { messageProblems } from '../message.problems.js';
import type { Message } from '../message.schema.js';
import type { MessageEvents } from '../message.service.js';
import { namedSenders } from '../senders.js';
import { flowSendRepository, type PreparedFlowSend } from '../flow-sends.js';
import { heldSendRepository, type Decision, type HeldSendRow } from './held-send.repository.js';
import type { HeldSend, PendingSend } from './held-send.schema.js';

/** A WhatsApp Flow's send record, but for the message it goes with (kept until the send goes out). */
export type FlowSendDraft = PreparedFlowSend['send'];

/** A send an approval-mode token made to a contact: what to hold. */
export interface SendToHold {
  contact: ContactRow;
  content: OutboundContent;
  channelId: string | null;
  flowSend: FlowSendDraft | null;
  reasoning: string | undefined;
}

/** Who decides a held send: a member of the workspace in the dashboard. */
export interface Decider {
  workspaceId: string;
  userId: string;
}

/**
 * Queues a held send's message through the one outbound path, as the token that proposed it (the
 * message service's queue); `alongside` runs in the transaction that queues it.
 */
export type QueueHeld = (
  caller: Caller,
  contact: ContactRow,
  content: OutboundContent,
  channelId: string | null,
  alongside: (trx: Kysely<Database>, sent: { messageId: string; contactId: string }) => Promise<void>,
) => Promise<Message>;

/** Whether a send's answer is a held send (202) rather than the message it queued. */
export const isHeld = (answer: Message | HeldSend): answer is HeldSend => 'expires_at' in answer;

/** The public form of a held send. */
export function presentHeldSend(row: HeldSendRow): HeldSend {
  return {
    id: row.id,
    status: row.status,
    contact_id: row.contact_id,
    type: row.type,
    content: JSON.parse(row.content) as Record<string, unknown>,
    reasoning: row.reasoning,
    created_at: formatTimestamp(row.created_at),
    expires_at: formatTimestamp(row.expires_at),
    decided_at: formatTimestamp(row.decided_at),
    edited: row.edited === 1,
    note: row.note,
    message_id: row.message_id,
  };
}

/** The held send's message as it was proposed, with a person's text instead when they edited a text. */
function outboundOf(row: HeldSendRow, editedText: string | undefined): OutboundContent {
  const content = JSON.parse(row.content) as Record<string, unknown>;
  if (editedText !== undefined && row.type !== 'text') {
    throw errors.invalid(messageProblems.problem('message', 'only_text_editable', { type: row.type }));
  }
  const edited = editedText === undefined ? content : { ...content, body: editedText };
  return { type: row.type, content: edited, reply_to_message_id: row.reply_to_message_id } as OutboundContent;
}

/**
 * Sends to customers that wait for a person (decision 0160): an approval-mode token's send is held here
 * instead of queued, with the agent's reasoning; a member with the conversations permission approves it
 * (possibly with their own text), rejects it, or it expires after the token's timeout (a job). Approving
 * queues the message through the one outbound path with the token as its sender, in the transaction that
 * marks the send approved, so it goes out exactly once however many people or processes approve it.
 * Every change is a live event for open dashboards and a `held-send-changed` webhook event.
 */
export function createHeldSends(
  deps: Deps,
  events: MessageEvents,
  wakeFor: (work: QueuedWork) => void,
  contacts: Pick<ContactService, 'recipient'>,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /** Tells open dashboards the conversation's held sends changed. */
  const changed = (row: Pick<HeldSendRow, 'workspace_id' | 'contact_id' | 'id'>) =>
    events.publish(row.workspace_id, [{ type: 'approval', contact_id: row.contact_id, message_id: row.id }]);

  /** Announces the held send as it now is to the workspace's webhooks, in the caller's transaction. */
  const announce = (trx: Kysely<Database>, row: HeldSendRow) =>
    emit(
      trx,
      deps,
      'held-send-changed',
      [{ workspaceId: row.workspace_id, id: row.id }],
      () => presentHeldSend(row),
      () => Promise.resolve(new Map<string, unknown>()),
    );

  /** The send, or 404 as for an unknown one (another workspace's included). */
  async function found(workspaceId: string, id: string): Promise<HeldSendRow> {
    const row = await heldSendRepository(db).find(workspaceId, id);
    if (!row) throw errors.notFound('held send', 'held_send_id');
    return row;
  }

  /** Refuses a decision on a send that already has one, or whose time ran out. */
  function requireAwaiting(row: HeldSendRow): void {
    if (row.status !== 'awaiting_approval') throw errors.conflict(`This send was already ${row.status}`);
    if (row.expires_at <= now()) throw errors.conflict('This send has expired');
  }

  /** Writes a decision in `trx`, or refuses it when another was written first (409, nothing changes). */
  async function decide(trx: Kysely<Database>, row: HeldSendRow, decision: Decision): Promise<HeldSendRow> {
    const decided = await heldSendRepository(trx).decide(row.workspace_id, row.id, decision, decision.decided_at);
    if (!decided) throw errors.conflict('Someone decided this send first, or it expired');
    await cancelJobs(trx, row.id, 'held_send_expiry');
    const after = { ...row, ...decision } as HeldSendRow;
    await announce(trx, after);
    return after;
  }

  return {
    /** Holds a send (the sending rules were checked first) until a person decides or the token's timeout. */
    async hold(caller: Caller & { approval: { timeoutSeconds: number } }, send: SendToHold): Promise<HeldSend> {
      const createdAt = clock.now();
      const expiresAt = new Date(createdAt.getTime() + caller.approval.timeoutSeconds * 1000);
      const row: HeldSendRow = {
        id: newId(),
        workspace_id: caller.workspaceId,
        contact_id: send.contact.id,
        token_id: caller.tokenId!,
        type: send.content.type,
        content: JSON.stringify(send.content.content),
        reply_to_message_id: send.content.reply_to_message_id ?? null,
        channel_id: send.channelId,
        flow_send: send.flowSend && JSON.stringify(send.flowSend),
        reasoning: send.reasoning ?? null,
        status: 'awaiting_approval',
        created_at: toStoredTimestamp(createdAt),
        expires_at: toStoredTimestamp(expiresAt),
        decided_at: null,
        decided_by: null,
        edited: 0,
        note: null,
        message_id: null,
      };
      const queued = await db.transaction().execute(async (trx) => {
        await heldSendRepository(trx).insert(row);
        const subjectId = row.id;
        await scheduleJob(trx, deps, {
          workspaceId: row.workspace_id,
          kind: 'held_send_expiry',
          subjectId,
          dueAt: expiresAt,
        });
        await announce(trx, row);
        return queuedIn(trx);
      });
      wakeFor(queued);
      await changed(row);
      return presentHeldSend(row);
    },

    /**
     * Sends it: the message (a text with `editedText` instead, if given) is queued as the token's, and the
     * send marked approved, in one transaction; the sending rules are checked again now (a window that
     * closed meanwhile is a 422, and the send still awaits). Answers the message.
     */
    async approve(by: Decider, id: string, editedText: string | undefined, queue: QueueHeld): Promise<Message> {
      const row = await found(by.workspaceId, id);
      requireAwaiting(row);
      const content = outboundOf(row, editedText);
      const contact = await contacts.recipient({ workspaceId: row.workspace_id }, { contact_id: row.contact_id });
      const agent: Caller = { workspaceId: row.workspace_id, tokenId: row.token_id };
      const message = await queue(agent, contact, content, row.channel_id, async (trx, sent) => {
        const decision: Decision = {
          status: 'approved',
          decided_at: now(),
          decided_by: by.userId,
          edited: editedText === undefined ? 0 : 1,
          message_id: sent.messageId,
        };
        await decide(trx, row, decision);
        if (row.flow_send) await recordFlowSend(trx, row, { ...sent, at: decision.decided_at });
      });
      await changed(row);
      return message;
    },

    /** Never sends it; `note` tells the agent why. Answers the held send as it now is. */
    async reject(by: Decider, id: string, note: string | undefined): Promise<HeldSend> {
      const row = await found(by.workspaceId, id);
      requireAwaiting(row);
      const [after, queued] = await db.transaction().execute(async (trx) => {
        const decision: Decision = { status: 'rejected', decided_at: now(), decided_by: by.userId, note: note ?? null };
        return [await decide(trx, row, decision), queuedIn(trx)] as const;
      });
      wakeFor(queued);
      await changed(row);
      return presentHeldSend(after);
    },

    /** get-held-send: where a send the agent made stands. */
    get: async (caller: Caller, id: string): Promise<HeldSend> => presentHeldSend(await found(caller.workspaceId, id)),

    /** A conversation's sends awaiting a decision, each with the agent who proposed it (the thread's). */
    async awaiting(workspaceId: string, contactId: string): Promise<PendingSend[]> {
      const rows = await heldSendRepository(db).awaiting(workspaceId, contactId, now());
      const agentOf = await namedSenders(db, workspaceId, rows.map(asSender));
      return rows.map((row) => ({
        ...presentHeldSend(row),
        agent: agentOf(asSender(row))!,
        preview: previewOf(row.type, JSON.parse(row.content) as Record<string, unknown>),
      }));
    },

    /** The job that expires a send nobody decided in time; open dashboards hear of it after the commit. */
    expiryHandler: {
      async run(trx, job) {
        const expired = await heldSendRepository(trx).expire(job.subject_id, now());
        if (expired) await announce(trx, expired);
      },
      async committed(jobs) {
        for (const job of jobs) {
          const row = await heldSendRepository(db).find(job.workspace_id, job.subject_id);
          if (row) await changed(row);
        }
      },
    } satisfies JobHandler,
  };
}

const asSender = (row: HeldSendRow) => ({ sender_type: 'api' as const, sender_id: row.token_id });

/** A WhatsApp Flow's send, kept with the message it went out as (its flow_token names the answer's send). */
async function recordFlowSend(
  trx: Kysely<Database>,
  row: HeldSendRow,
  sent: { messageId: string; contactId: string; at: string },
): Promise<void> {
  const draft = JSON.parse(row.flow_send!) as FlowSendDraft;
  const record = { ...draft, message_id: sent.messageId, contact_id: sent.contactId, created_at: sent.at };
  await flowSendRepository(trx).record(record);
}

export type HeldSends = ReturnType<typeof createHeldSends>;
