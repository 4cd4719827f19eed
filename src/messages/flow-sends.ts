/**
 * WhatsApp Flows as messages carry them: the `flow_token` each send is made with, and the customer's
 * answer (`nfm_reply`) that names the send by it. Here, below the domains that send Flows (the API, the
 * inbox, templates with a FLOW button, campaigns, sequences, chatbot flows) and those that read answers, so
 * every send path records its token the same way and every reader finds the send the same way.
 */
import type { Insertable, Kysely } from 'kysely';
import type { OutboundContent } from '../content/message-content.js';
import type { Database, WhatsappFlowSendTable } from '../db/schema.js';

/** SQL for the Flows sent: the only place `whatsapp_flow_sends` is written. */
export function flowSendRepository(db: Kysely<Database>) {
  return {
    /** Keeps the `flow_token` of a Flow sent with the message that carried it, in the transaction that queues it. */
    async record(row: Insertable<WhatsappFlowSendTable>): Promise<void> {
      await db.insertInto('whatsapp_flow_sends').values(row).execute();
    },

    /** Keeps the tokens of many sends at once (a campaign's batch), in the transaction that queues them. */
    async recordAll(rows: Insertable<WhatsappFlowSendTable>[]): Promise<void> {
      if (rows.length > 0) await db.insertInto('whatsapp_flow_sends').values(rows).execute();
    },

    /** The send a `flow_token` names, in the workspace. */
    find: (workspaceId: string, flowToken: string) =>
      db
        .selectFrom('whatsapp_flow_sends')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('flow_token', '=', flowToken)
        .executeTakeFirst(),
  };
}

/** What a send of a WhatsApp Flow says around the Flow: its texts, its button, the screen it opens on. */
export interface FlowMessageInput {
  whatsapp_flow_id: string;
  body: string;
  header?: string;
  footer?: string;
  cta: string;
  /** `navigate` when absent; `data_exchange` lets the Flow's data endpoint give the first screen. */
  flow_action?: string;
  screen?: string;
  data?: Record<string, unknown>;
}

/** A Flow sent by automation (a chatbot flow's node, a sequence step): its texts may hold placeholders. */
export interface FlowStep {
  whatsapp_flow_id: string;
  text: string;
  header?: string;
  footer?: string;
  cta: string;
  screen?: string;
}

/** The step's send, its texts filled in by `fill` (placeholders, for the contact it goes to). */
export function filledFlowMessage(step: FlowStep, fill: (text: string) => string): FlowMessageInput {
  return {
    whatsapp_flow_id: step.whatsapp_flow_id,
    body: fill(step.text),
    ...(step.header !== undefined && { header: fill(step.header) }),
    ...(step.footer !== undefined && { footer: fill(step.footer) }),
    cta: step.cta,
    ...(step.screen !== undefined && { screen: step.screen }),
  };
}

/** A send of a Flow made ready: Meta's interactive `flow` message, and the send's record but for its message. */
export interface PreparedFlowSend {
  content: OutboundContent;
  send: Omit<Insertable<WhatsappFlowSendTable>, 'message_id' | 'contact_id' | 'created_at'>;
}

/** Why a Flow cannot be sent: none such, not PUBLISHED (Meta's status given), or no screen to open on. */
export type FlowSendProblem =
  | { problem: 'unknown_whatsapp_flow' }
  | { problem: 'whatsapp_flow_not_published'; status: string }
  | { problem: 'whatsapp_flow_screen_unknown' };

/** Whether a prepared send is a problem instead. */
export const isFlowSendProblem = (prepared: PreparedFlowSend | FlowSendProblem): prepared is FlowSendProblem =>
  'problem' in prepared;

/**
 * How the domains that send a Flow inside their own transaction (chatbot flows, sequences) have it
 * made: by src/whatsapp-flows/, which owns the Flows and the one builder of their message, injected at
 * assembly (those domains may not import it).
 */
export interface WhatsappFlowMessages {
  /** Why the Flow could not be sent now, or null: what a definition naming it is checked against. */
  problem(
    db: Kysely<Database>,
    workspaceId: string,
    input: Pick<FlowMessageInput, 'whatsapp_flow_id' | 'flow_action' | 'screen'>,
  ): Promise<FlowSendProblem | null>;
  /** The send of a published Flow with this token, or why not. */
  prepare(
    db: Kysely<Database>,
    workspaceId: string,
    input: FlowMessageInput,
    flowToken: string,
  ): Promise<PreparedFlowSend | FlowSendProblem>;
}

/** A completed WhatsApp Flow: the token of the send it answers and the fields the customer filled in. */
export interface FlowAnswer {
  flowToken: string | null;
  /** The screen's fields as Meta sends them in `response_json`, without `flow_token`. */
  fields: Record<string, unknown>;
}

/**
 * The answer a received message carries, or null when it is not one. Meta sends a completed Flow as an
 * interactive `nfm_reply` whose `response_json` is a JSON string: the `flow_token` and the fields.
 */
export function flowAnswerOf(type: string, content: Record<string, unknown>): FlowAnswer | null {
  const reply = content.nfm_reply as { name?: unknown; response_json?: unknown } | undefined;
  // Meta names a Flow's answer "flow"; an address message's answer is an nfm_reply too, named otherwise.
  if (type !== 'interactive' || reply?.name !== 'flow' || typeof reply.response_json !== 'string') return null;
  const parsed = parsedObject(reply.response_json);
  if (!parsed) return null;
  const { flow_token: flowToken, ...fields } = parsed;
  return { flowToken: typeof flowToken === 'string' ? flowToken : null, fields };
}

function parsedObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
