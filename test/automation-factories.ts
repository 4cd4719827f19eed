import { randomUUID } from 'node:crypto';
import { insertMessage } from './factories.js';
import type { TestServer } from './server.js';

/**
 * Sequences, flows, their runs and campaigns, written straight into the tables: the engines that
 * will own them arrive with a later issue, and the trigger feeds and dropdowns only read them.
 * Each factory builds the parents it is not given (a run creates its flow and contact).
 */

type Json = Record<string, unknown>;

function depsOf(server: TestServer) {
  const { db, newId, clock } = server.app.services.deps;
  return { db, newId, now: () => clock.now().toISOString() };
}

/**
 * The next contact's phone digits: counted from a random start, so phones never repeat within a test
 * process (random draws did: 250 contacts of seven random digits collide about once in 300 runs).
 */
let nextPhone = parseInt(randomUUID().replace(/-/g, '').slice(0, 8), 16) % 10_000_000;

/** A contact row with a unique phone (+1 415 xxx xxxx); returns its id. */
export async function insertContact(
  server: TestServer,
  workspaceId: string,
  fields: { phone?: string; name?: string | null; email?: string | null } = {},
): Promise<string> {
  const { db, newId, now } = depsOf(server);
  const id = newId();
  const at = now();
  const digits = String(nextPhone++ % 10_000_000).padStart(7, '0');
  await db
    .insertInto('contacts')
    .values({
      id,
      workspace_id: workspaceId,
      phone: fields.phone ?? `+1415${digits}`,
      name: fields.name === undefined ? `Contact ${digits}` : fields.name,
      email: fields.email === undefined ? null : fields.email,
      custom_attributes: '{}',
      opted_out_at: null,
      last_message_at: null,
      last_inbound_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

async function insertDefinition(
  server: TestServer,
  table: 'sequences' | 'flows',
  workspaceId: string,
  name: string,
  definition: Json,
): Promise<string> {
  const { db, newId, now } = depsOf(server);
  const id = newId();
  const at = now();
  await db
    .insertInto(table)
    .values({
      id,
      workspace_id: workspaceId,
      name,
      definition: JSON.stringify(definition),
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/** A sequence (drip campaign) with an empty definition; returns its id. */
export function createSequence(
  server: TestServer,
  workspaceId: string,
  fields: { name?: string; definition?: Json } = {},
): Promise<string> {
  const name = fields.name ?? `sequence_${randomUUID().slice(0, 8)}`;
  return insertDefinition(server, 'sequences', workspaceId, name, fields.definition ?? { steps: [] });
}

/** A chatbot flow with an empty definition; returns its id. */
export function createFlow(
  server: TestServer,
  workspaceId: string,
  fields: { name?: string; definition?: Json } = {},
): Promise<string> {
  const name = fields.name ?? `flow_${randomUUID().slice(0, 8)}`;
  return insertDefinition(server, 'flows', workspaceId, name, fields.definition ?? { nodes: [] });
}

export interface RunFields {
  contactId?: string;
  status?: string;
  context?: Json;
}

/** The columns a sequence enrolment and a flow run share; creates the contact if not given. */
async function runValues(server: TestServer, workspaceId: string, fields: RunFields, defaultStatus: string) {
  const { newId, now } = depsOf(server);
  const at = now();
  return {
    id: newId(),
    workspace_id: workspaceId,
    contact_id: fields.contactId ?? (await insertContact(server, workspaceId)),
    status: fields.status ?? defaultStatus,
    context: JSON.stringify(fields.context ?? {}),
    created_at: at,
    updated_at: at,
  };
}

/**
 * Records a past enrolment (status `completed` unless given: a contact may have many) for the feed
 * tests; creates the contact if not given. Running enrolments come from trigger-sequence.
 */
export async function enrolInSequence(
  server: TestServer,
  workspaceId: string,
  sequenceId: string,
  fields: RunFields = {},
): Promise<string> {
  const values = await runValues(server, workspaceId, fields, 'completed');
  await depsOf(server)
    .db.insertInto('sequence_enrolments')
    .values({ ...values, sequence_id: sequenceId })
    .execute();
  return values.id;
}

/** Starts a flow run for a contact, as trigger-flow will; creates the contact if not given. */
export async function startFlowRun(
  server: TestServer,
  workspaceId: string,
  flowId: string,
  fields: RunFields = {},
): Promise<string> {
  const values = await runValues(server, workspaceId, fields, 'running');
  await depsOf(server)
    .db.insertInto('flow_runs')
    .values({ ...values, flow_id: flowId })
    .execute();
  return values.id;
}

/** A campaign, created now; `sent: true` marks it sent at the same instant. Returns its id. */
export async function createCampaign(
  server: TestServer,
  workspaceId: string,
  fields: { name?: string; templateId?: string | null; status?: string; sent?: boolean } = {},
): Promise<string> {
  const { db, newId, now } = depsOf(server);
  const id = newId();
  const at = now();
  await db
    .insertInto('campaigns')
    .values({
      id,
      workspace_id: workspaceId,
      name: fields.name ?? `campaign_${randomUUID().slice(0, 8)}`,
      template_id: fields.templateId ?? null,
      status: fields.status ?? (fields.sent ? 'sent' : 'draft'),
      audience: JSON.stringify({ tags: [] }),
      scheduled_at: null,
      sent_at: fields.sent ? at : null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/** Marks a campaign as sent now, as the campaign engine will when it finishes sending. */
export async function markCampaignSent(server: TestServer, campaignId: string): Promise<void> {
  const { db, now } = depsOf(server);
  const at = now();
  await db
    .updateTable('campaigns')
    .set({ status: 'sent', sent_at: at, updated_at: at })
    .where('id', '=', campaignId)
    .execute();
}

/** Records an outbound message (a reply the workspace sent); returns its id. */
export async function recordOutboundMessage(
  server: TestServer,
  workspaceId: string,
  contactId: string,
  content: Json = { body: 'our reply' },
): Promise<string> {
  return (await insertMessage(server, { workspaceId, contactId, direction: 'outbound', content })).id;
}

/** A WhatsApp Flow of the workspace's account, as sync-whatsapp-flows keeps one made elsewhere; returns its id. */
export async function createWhatsappFlow(server: TestServer, workspaceId: string): Promise<string> {
  const { db, newId, now } = depsOf(server);
  const id = newId();
  await db
    .insertInto('whatsapp_flows')
    .values({
      id,
      workspace_id: workspaceId,
      meta_flow_id: String(Date.now() + Math.floor(Math.random() * 1e6)),
      name: `Form ${id.slice(-6)}`,
      categories: '["OTHER"]',
      status: 'PUBLISHED',
      flow_json: null,
      validation_errors: '[]',
      preview_url: null,
      preview_expires_at: null,
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  return id;
}

/**
 * A contact's answer to a WhatsApp Flow, received now, carried by the inbound message given (an answer
 * names its message; the feeds of messages and of answers then count each once). Returns its id.
 */
export async function recordFlowAnswer(
  server: TestServer,
  workspaceId: string,
  whatsappFlowId: string,
  carrier: { contactId: string; messageId: string },
): Promise<string> {
  const { db, newId, now } = depsOf(server);
  const id = newId();
  await db
    .insertInto('whatsapp_flow_answers')
    .values({
      id,
      workspace_id: workspaceId,
      message_id: carrier.messageId,
      contact_id: carrier.contactId,
      flow_token: randomUUID(),
      whatsapp_flow_id: whatsappFlowId,
      meta_flow_id: null,
      fields: JSON.stringify([{ name: 'rating', label: 'rating', value: '5' }]),
      received_at: now(),
    })
    .execute();
  return id;
}
