import type { Readable } from 'node:stream';
import { contactRepository } from '../contacts/index.js';
import type { Deps } from '../db/deps.js';
import { csvStream, jsonCell } from '../http/csv.js';
import { flowAnswerOf, flowSendRepository, type FlowAnswer, type ReceivedMessage } from '../messages/index.js';
import { emitWebhookEvents } from '../outgoing/index.js';
import type { Caller } from '../shared/context.js';
import { cutPage, type CursorCodec, type Page, type PageRequest } from '../shared/cursor.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import {
  presentAnswer,
  triggerRepository,
  type AnswerFilter,
  type WhatsappFlowAnswerRecord,
} from '../triggers/index.js';
import { fieldLabelsOf, labelledFields, type AnswerField } from './answer-fields.js';
import { whatsappFlowAnswerRepository } from './whatsapp-flow-answer.repository.js';
import { whatsappFlowRepository, type WhatsappFlowRow } from './whatsapp-flow.repository.js';
import { ANSWER_LIST_CAP, type ListWhatsappFlowAnswersInput } from './whatsapp-flow.schema.js';

type Trx = Deps['db'];
/** Answers read per query of the CSV export: only one batch is held at a time. */
const EXPORT_BATCH = 500;

/**
 * WhatsApp Flows' answers: kept as customers send them (in the transaction of their message, with the
 * contact attributes their Flow maps), listed per Flow or contact, and exported as CSV. Each is read as
 * its trigger feed shows it (src/triggers/), so the list, the feed and the webhook event agree.
 */
export function createWhatsappFlowAnswers(deps: Deps, cursors: CursorCodec) {
  const { reads, clock, newId } = deps;

  /** The Flow a send names: Parley's by id, else by Meta's id (a template's FLOW button names only Meta's). */
  async function flowOfSend(trx: Trx, workspaceId: string, flowToken: string | null) {
    const send = flowToken === null ? undefined : await flowSendRepository(trx).find(workspaceId, flowToken);
    if (!send) return { send: null, flow: undefined };
    const flows = whatsappFlowRepository(trx);
    const flow = send.whatsapp_flow_id
      ? await flows.findById(workspaceId, send.whatsapp_flow_id)
      : await flows.findByMeta(workspaceId, send.meta_flow_id);
    return { send, flow };
  }

  /** Keeps one answer and applies its Flow's attribute mapping to the contact; the message as engines now see it. */
  async function keep(trx: Trx, workspaceId: string, message: ReceivedMessage, answer: FlowAnswer) {
    const { send, flow } = await flowOfSend(trx, workspaceId, answer.flowToken);
    const fields = labelledFields(fieldLabelsOf(flow?.flow_json ?? null), answer.fields);
    const id = newId();
    const kept = await whatsappFlowAnswerRepository(trx).insert({
      id,
      workspace_id: workspaceId,
      message_id: message.id,
      contact_id: message.contactId,
      flow_token: answer.flowToken,
      whatsapp_flow_id: flow?.id ?? null,
      meta_flow_id: send?.meta_flow_id ?? null,
      fields: JSON.stringify(fields),
      received_at: toStoredTimestamp(clock.now()),
    });
    if (!kept) return null;
    return { id, message: await withAttributes(trx, message, flow, fields) };
  }

  /** Sets the contact attributes the Flow maps from the answer's fields (the contact's row read afresh). */
  async function withAttributes(
    trx: Trx,
    message: ReceivedMessage,
    flow: WhatsappFlowRow | undefined,
    fields: AnswerField[],
  ): Promise<ReceivedMessage> {
    const mapping = Object.entries(JSON.parse(flow?.answer_attributes ?? '{}') as Record<string, string>);
    const values = new Map(fields.map((field) => [field.name, field.value]));
    const set = mapping.filter(([field]) => values.has(field));
    if (set.length === 0) return message;
    const contacts = contactRepository(trx);
    const contact = (await contacts.findById(message.contact.workspace_id, message.contactId)) ?? message.contact;
    const attributes = JSON.parse(contact.custom_attributes) as Record<string, unknown>;
    for (const [field, attribute] of set) attributes[attribute] = values.get(field);
    const changed = { custom_attributes: JSON.stringify(attributes), updated_at: toStoredTimestamp(clock.now()) };
    await contacts.update(contact.workspace_id, contact.id, changed);
    return { ...message, contact: { ...contact, ...changed } };
  }

  /** Answers newest first in batches, for the export. */
  async function* batches(workspaceId: string, filter: AnswerFilter) {
    let after: { at: string; id: string } | null = null;
    for (;;) {
      const rows = await triggerRepository(reads).flowAnswers(workspaceId, filter, after, EXPORT_BATCH);
      if (rows.length > 0) yield rows.map(presentAnswer);
      if (rows.length < EXPORT_BATCH) return;
      const last = rows.at(-1)!;
      after = { at: last.received_at, id: last.id };
    }
  }

  async function flowFound(caller: Caller, id: string): Promise<WhatsappFlowRow> {
    const flow = await whatsappFlowRepository(reads).findById(caller.workspaceId, id.toLowerCase());
    if (!flow) throw errors.notFound('WhatsApp Flow', 'whatsapp_flow_id');
    return flow;
  }

  return {
    /**
     * Hears of received messages, in their transaction: each completed Flow is kept (linked to its send by
     * its flow_token, or to none), its contact attributes set and its webhook event queued. Answers the
     * messages with their contacts as they now are, for the engines that follow.
     */
    async received(trx: Trx, workspaceId: string, messages: ReceivedMessage[]): Promise<ReceivedMessage[]> {
      const answered: string[] = [];
      const seen: ReceivedMessage[] = [];
      for (const message of messages) {
        const answer = flowAnswerOf(message.type, message.content);
        const kept = answer && (await keep(trx, workspaceId, message, answer));
        if (kept) answered.push(kept.id);
        seen.push(kept ? kept.message : message);
      }
      const subjects = answered.map((id) => ({ workspaceId, id }));
      await emitWebhookEvents(trx, deps, 'new-whatsapp-flow-answer', subjects);
      return seen;
    },

    /** list-whatsapp-flow-answers: of a Flow, of a contact (or both), newest first; a page at a time when asked. */
    async list(
      caller: Caller,
      input: ListWhatsappFlowAnswersInput,
      page: PageRequest | null,
    ): Promise<WhatsappFlowAnswerRecord[] | Page<WhatsappFlowAnswerRecord>> {
      const filter = {
        whatsappFlowId: input.whatsapp_flow_id && (await flowFound(caller, input.whatsapp_flow_id)).id,
        contactId: input.contact_id?.toLowerCase() || undefined,
      };
      if (filter.contactId && !(await contactRepository(reads).findById(caller.workspaceId, filter.contactId))) {
        throw errors.notFound('contact', 'contact_id');
      }
      const answers = triggerRepository(reads);
      if (!page)
        return (await answers.flowAnswers(caller.workspaceId, filter, null, ANSWER_LIST_CAP)).map(presentAnswer);
      const scope = {
        workspaceId: caller.workspaceId,
        endpoint: 'list-whatsapp-flow-answers',
        filters: { whatsapp_flow_id: filter.whatsappFlowId, contact_id: filter.contactId },
      };
      const key = page.cursor === undefined ? null : cursors.decode(scope, page.cursor);
      const after = key ? { at: key[0]!, id: key[1]! } : null;
      const rows = await answers.flowAnswers(caller.workspaceId, filter, after, page.limit + 1);
      const { rows: shown, next_cursor } = cutPage(rows, page.limit, (row) =>
        cursors.encode(scope, [row.received_at, row.id]),
      );
      return { data: shown.map(presentAnswer), next_cursor };
    },

    /**
     * A Flow's answers as CSV, newest first: when each was received, the contact's phone and name, then a
     * column per field, headed by its label (the Flow JSON's fields first, then any other an answer had).
     */
    async csv(caller: Caller, whatsappFlowId: string): Promise<{ name: string; file: Readable }> {
      const flow = await flowFound(caller, whatsappFlowId);
      const filter = { whatsappFlowId: flow.id };
      const columns = new Map(fieldLabelsOf(flow.flow_json).map((field) => [field.name, field.label]));
      for await (const batch of batches(caller.workspaceId, filter)) {
        for (const field of batch.flatMap((answer) => answer.fields)) {
          if (!columns.has(field.name)) columns.set(field.name, field.label);
        }
      }
      const names = [...columns.keys()];
      async function* rows() {
        for await (const batch of batches(caller.workspaceId, filter)) {
          for (const answer of batch) {
            const values = new Map(answer.fields.map((field) => [field.name, field.value]));
            const cells = names.map((name) => jsonCell(values.get(name)));
            yield [answer.created_at, answer.contact_phone, answer.contact_name ?? '', ...cells];
          }
        }
      }
      return {
        name: flow.name,
        file: csvStream(['received_at', 'contact_phone', 'contact_name', ...headings(columns)], rows()),
      };
    },
  };
}

/** Each field's label as its column's heading; a label two fields share is told apart by their names. */
function headings(columns: Map<string, string>): string[] {
  const labels = [...columns.values()];
  return [...columns].map(([name, label]) =>
    labels.indexOf(label) === labels.lastIndexOf(label) ? label : `${label} (${name})`,
  );
}

export type WhatsappFlowAnswers = ReturnType<typeof createWhatsappFlowAnswers>;
