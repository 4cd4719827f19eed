import type { ChannelFlow, ChannelService, FlowValidationError, WhatsappFlowsApi } from '../channels/index.js';
import type { Deps } from '../db/deps.js';
import { isFlowSendProblem, type FlowSendProblem, type MessageService, type SendAnswer } from '../messages/index.js';
import type { Caller } from '../shared/context.js';
import { AppError, errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { whatsappFlowMessages } from './whatsapp-flow.message.js';
import { fieldLabelsOf } from './answer-fields.js';
import { whatsappFlowProblems } from './whatsapp-flow.problems.js';
import { whatsappFlowRepository, type WhatsappFlowRow } from './whatsapp-flow.repository.js';
import type {
  CreateWhatsappFlowInput,
  ListWhatsappFlowsInput,
  SendWhatsappFlowInput,
  SetWhatsappFlowAttributesInput,
  UpdateWhatsappFlowJsonInput,
  WhatsappFlow,
} from './whatsapp-flow.schema.js';

/**
 * WhatsApp Flows (Meta's forms) of the workspace's WhatsApp Business Account, managed through Meta's
 * Flows API on the default number's account (as templates are) and kept in Parley as Meta last told them.
 */
export function createWhatsappFlowService(deps: Deps, channels: ChannelService, messages: MessageService) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());
  const flowsApi = async (caller: Caller): Promise<WhatsappFlowsApi> =>
    (await channels.providerOf(caller.workspaceId)).whatsappFlows;

  async function found(caller: Caller, id: string): Promise<WhatsappFlowRow> {
    const row = await whatsappFlowRepository(db).findById(caller.workspaceId, id);
    if (!row) throw errors.notFound('WhatsApp Flow', 'whatsapp_flow_id');
    return row;
  }

  /** Keeps what Meta says of the Flow now (its status, errors, preview link) and answers it. */
  async function refreshed(row: WhatsappFlowRow, api: WhatsappFlowsApi): Promise<WhatsappFlow> {
    const fields = { ...fieldsOf(await api.get(row.meta_flow_id)), updated_at: now() };
    await whatsappFlowRepository(db).update(row.id, fields);
    return presentWhatsappFlow({ ...row, ...fields });
  }

  return {
    async list(caller: Caller, input: ListWhatsappFlowsInput): Promise<WhatsappFlow[]> {
      return (await whatsappFlowRepository(db).list(caller.workspaceId, input.status)).map(presentWhatsappFlow);
    },

    /** The Flow as Meta describes it now: its status, validation errors and a fresh preview link. */
    async get(caller: Caller, id: string): Promise<WhatsappFlow> {
      const row = await found(caller, id);
      return refreshed(row, await flowsApi(caller));
    },

    /** Reads every Flow of the WhatsApp Business Account from Meta: new ones kept, deleted ones forgotten. */
    async sync(caller: Caller): Promise<WhatsappFlow[]> {
      const repository = whatsappFlowRepository(db);
      const listed: string[] = [];
      for await (const flow of (await flowsApi(caller)).list()) {
        listed.push(flow.id);
        const known = await repository.findByMeta(caller.workspaceId, flow.id);
        if (known) await repository.update(known.id, { ...fieldsOf(flow), updated_at: now() });
        else await repository.insert(newRow(caller, flow, null));
      }
      await repository.deleteAllBut(caller.workspaceId, listed);
      return (await repository.list(caller.workspaceId)).map(presentWhatsappFlow);
    },

    /** A new DRAFT Flow at Meta (a copy of another's Flow JSON when asked), kept here. */
    async create(caller: Caller, input: CreateWhatsappFlowInput): Promise<WhatsappFlow> {
      const name = input.name.trim();
      if (name === '') throw errors.validation('name', 'must not be blank');
      const source = input.clone_whatsapp_flow_id
        ? await whatsappFlowRepository(db).findById(caller.workspaceId, input.clone_whatsapp_flow_id)
        : undefined;
      if (source === undefined && input.clone_whatsapp_flow_id) {
        throw errors.notFound('WhatsApp Flow', 'clone_whatsapp_flow_id');
      }
      const api = await flowsApi(caller);
      const metaFlowId = await api.create({
        name,
        categories: input.categories,
        ...(source && { cloneFlowId: source.meta_flow_id }),
      });
      const row = newRow(caller, await api.get(metaFlowId), source?.flow_json ?? null);
      await whatsappFlowRepository(db).insert(row);
      return presentWhatsappFlow(row);
    },

    /**
     * Uploads the Flow JSON document to Meta, which keeps it (errors and all) as the draft; Parley keeps
     * it too. Meta's validation errors are a 400 naming each where Meta says it is.
     */
    async updateJson(caller: Caller, input: UpdateWhatsappFlowJsonInput): Promise<WhatsappFlow> {
      const row = await found(caller, input.whatsapp_flow_id);
      checkSyntax(input.flow_json);
      const validationErrors = await (await flowsApi(caller)).uploadJson(row.meta_flow_id, input.flow_json);
      const fields = {
        flow_json: input.flow_json,
        validation_errors: JSON.stringify(validationErrors),
        updated_at: now(),
      };
      await whatsappFlowRepository(db).update(row.id, fields);
      if (validationErrors.length > 0) throw flowJsonInvalid(validationErrors);
      return presentWhatsappFlow({ ...row, ...fields });
    },

    /** Publishes the Flow: it can be sent to customers, and its Flow JSON no longer changes. */
    async publish(caller: Caller, id: string): Promise<WhatsappFlow> {
      const row = await found(caller, id);
      const api = await flowsApi(caller);
      await api.publish(row.meta_flow_id);
      return refreshed(row, api);
    },

    /** Deprecates a published Flow: it is sent no more (customers who have it may still answer). */
    async deprecate(caller: Caller, id: string): Promise<WhatsappFlow> {
      const row = await found(caller, id);
      const api = await flowsApi(caller);
      await api.deprecate(row.meta_flow_id);
      return refreshed(row, api);
    },

    /**
     * Sends a published Flow to a contact as Meta's interactive `flow` message, through the one outbound
     * path (inside the customer service window, as every interactive message). Parley makes the send's
     * `flow_token` and keeps it with the message, in the transaction that queues it.
     */
    async send(caller: Caller, input: SendWhatsappFlowInput): Promise<SendAnswer> {
      const prepared = await whatsappFlowMessages.prepare(db, caller.workspaceId, input, newId());
      if (isFlowSendProblem(prepared)) throw sendRefused(prepared);
      return messages.sendFlow(caller, input, prepared);
    },

    /**
     * Chooses which answer field fills which contact attribute (the whole mapping; `{}` none): applied to
     * each answer as it arrives. A Flow whose Flow JSON Parley has takes only the fields its answers carry.
     */
    async setAnswerAttributes(caller: Caller, input: SetWhatsappFlowAttributesInput): Promise<WhatsappFlow> {
      const row = await found(caller, input.whatsapp_flow_id);
      const fields = new Set(fieldLabelsOf(row.flow_json).map((field) => field.name));
      const stranger = Object.keys(input.answer_attributes).find((name) => fields.size > 0 && !fields.has(name));
      if (stranger !== undefined) {
        const problem = whatsappFlowProblems.problem('answer_attributes', 'not_an_answer_field', { name: stranger });
        throw errors.invalid(problem);
      }
      const changed = { answer_attributes: JSON.stringify(input.answer_attributes), updated_at: now() };
      await whatsappFlowRepository(db).update(row.id, changed);
      return presentWhatsappFlow({ ...row, ...changed });
    },

    /** Deletes a DRAFT Flow at Meta and here (Meta refuses any other). */
    async delete(caller: Caller, id: string): Promise<{ id: string; deleted: boolean }> {
      const row = await found(caller, id);
      await (await flowsApi(caller)).delete(row.meta_flow_id);
      await whatsappFlowRepository(db).delete(row.id);
      return { id: row.id, deleted: true };
    },
  };

  function newRow(caller: Caller, flow: ChannelFlow, flowJson: string | null) {
    const at = now();
    return {
      id: newId(),
      workspace_id: caller.workspaceId,
      meta_flow_id: flow.id,
      flow_json: flowJson,
      answer_attributes: '{}',
      ...fieldsOf(flow),
      created_at: at,
      updated_at: at,
    };
  }
}

/** Why send-whatsapp-flow cannot send the Flow, as the API answers it. */
function sendRefused(refusal: FlowSendProblem): AppError {
  switch (refusal.problem) {
    case 'unknown_whatsapp_flow':
      return errors.notFound('WhatsApp Flow', 'whatsapp_flow_id');
    case 'whatsapp_flow_not_published':
      return errors.conflict(`The Flow is ${refusal.status}: only a published Flow is sent`, {
        status: refusal.status,
      });
    case 'whatsapp_flow_screen_unknown':
      return errors.validation('screen', 'name the screen the Flow opens on: Parley does not have its Flow JSON');
  }
}

/** What Meta says of a Flow, as its row keeps it. */
function fieldsOf(flow: ChannelFlow) {
  const expires = flow.preview ? new Date(flow.preview.expires_at.replace(/([+-]\d\d)(\d\d)$/, '$1:$2')) : null;
  return {
    name: flow.name,
    status: flow.status,
    categories: JSON.stringify(flow.categories),
    validation_errors: JSON.stringify(flow.validation_errors),
    preview_url: flow.preview?.preview_url ?? null,
    preview_expires_at: expires && !Number.isNaN(expires.getTime()) ? toStoredTimestamp(expires) : null,
  };
}

/** A document that is not JSON at all is refused here, where it is: Meta would only say it cannot read it. */
function checkSyntax(flowJson: string): void {
  try {
    JSON.parse(flowJson);
  } catch (error) {
    throw errors.validation('flow_json', `is not JSON: ${(error as Error).message}`);
  }
}

/** Meta's validation errors as a 400: a field error each, where Meta says it is, and Meta's list as given. */
function flowJsonInvalid(validationErrors: FlowValidationError[]): AppError {
  const problems = validationErrors.map((error) => ({
    field: 'flow_json',
    message: `${whereOf(error)}${error.message}`,
  }));
  return new AppError(
    400,
    'validation_failed',
    problems.map((problem) => `${problem.field}: ${problem.message}`).join('; '),
    problems,
    { validation_errors: validationErrors },
  );
}

function whereOf(error: FlowValidationError): string {
  const path = error.pointers?.[0]?.path;
  const line = error.line_start !== undefined ? `line ${error.line_start}, column ${error.column_start ?? 1}` : '';
  const at = [line, path].filter(Boolean).join(', ');
  return at === '' ? '' : `${at}: `;
}

export function presentWhatsappFlow(row: WhatsappFlowRow): WhatsappFlow {
  return {
    id: row.id,
    meta_flow_id: row.meta_flow_id,
    name: row.name,
    categories: JSON.parse(row.categories) as WhatsappFlow['categories'],
    status: row.status,
    flow_json: row.flow_json,
    validation_errors: JSON.parse(row.validation_errors) as FlowValidationError[],
    preview_url: row.preview_url,
    preview_expires_at: formatTimestamp(row.preview_expires_at),
    answer_fields: fieldLabelsOf(row.flow_json),
    answer_attributes: JSON.parse(row.answer_attributes) as Record<string, string>,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}

export type WhatsappFlowService = ReturnType<typeof createWhatsappFlowService>;
