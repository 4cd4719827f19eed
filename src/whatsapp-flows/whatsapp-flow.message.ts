import type { Kysely } from 'kysely';
import type { FlowParameters, OutboundContent } from '../content/message-content.js';
import type { Database } from '../db/schema.js';
import type { FlowMessageInput, FlowSendProblem, WhatsappFlowMessages } from '../messages/index.js';
import { whatsappFlowRepository, type WhatsappFlowRow } from './whatsapp-flow.repository.js';

/**
 * The one builder of a Flow's message, for every send path (send-whatsapp-flow, a chatbot flow's node, a
 * sequence step): the published Flow found in the caller's transaction, Meta's interactive `flow` message
 * made with the send's token, and the send's record to keep beside the message once it is queued.
 */
export const whatsappFlowMessages: WhatsappFlowMessages = {
  async problem(db, workspaceId, input) {
    const found = await sendable(db, workspaceId, input);
    return 'problem' in found ? found : null;
  },

  async prepare(db, workspaceId, input, flowToken) {
    const found = await sendable(db, workspaceId, input);
    if ('problem' in found) return found;
    const { flow, screen } = found;
    return {
      content: flowMessage(input, flowParameters(flow, flowToken, input, screen)),
      send: {
        flow_token: flowToken,
        workspace_id: workspaceId,
        whatsapp_flow_id: flow.id,
        meta_flow_id: flow.meta_flow_id,
      },
    };
  },
};

type Sendable = Pick<FlowMessageInput, 'whatsapp_flow_id' | 'flow_action' | 'screen'>;

/**
 * The Flow, when it can be sent: PUBLISHED, and with a screen to open on when the send navigates (the one
 * asked, else the first of its Flow JSON, which Parley lacks for a Flow made elsewhere).
 */
async function sendable(
  db: Kysely<Database>,
  workspaceId: string,
  input: Sendable,
): Promise<{ flow: WhatsappFlowRow; screen: string | null } | FlowSendProblem> {
  const flow = await whatsappFlowRepository(db).findById(workspaceId, input.whatsapp_flow_id.toLowerCase());
  if (!flow) return { problem: 'unknown_whatsapp_flow' };
  if (flow.status !== 'PUBLISHED') return { problem: 'whatsapp_flow_not_published', status: flow.status };
  if (input.flow_action === 'data_exchange') return { flow, screen: null };
  const screen = input.screen ?? firstScreenOf(flow.flow_json);
  return screen === null ? { problem: 'whatsapp_flow_screen_unknown' } : { flow, screen };
}

/** Meta's interactive `flow` message ("Send a Flow"): optional header and footer around the body, the button. */
function flowMessage(input: FlowMessageInput, parameters: FlowParameters): OutboundContent {
  const frame = {
    ...(input.header !== undefined && { header: { type: 'text' as const, text: input.header } }),
    body: { text: input.body },
    ...(input.footer !== undefined && { footer: { text: input.footer } }),
  };
  const action = { name: 'flow' as const, parameters };
  return { type: 'interactive', content: { interactive: { type: 'flow', ...frame, action }, text: input.body } };
}

/**
 * Meta's `parameters` of the Flow message: `navigate` opens `screen` with its data; `data_exchange` (no
 * screen) lets the Flow's data endpoint choose.
 */
function flowParameters(
  flow: WhatsappFlowRow,
  flowToken: string,
  input: FlowMessageInput,
  screen: string | null,
): FlowParameters {
  const common = {
    flow_message_version: '3' as const,
    flow_token: flowToken,
    flow_id: flow.meta_flow_id,
    flow_cta: input.cta,
  };
  if (screen === null) return { ...common, flow_action: 'data_exchange' };
  const data = input.data && Object.keys(input.data).length > 0 ? { data: input.data } : {};
  return { ...common, flow_action: 'navigate', flow_action_payload: { screen, ...data } };
}

function firstScreenOf(flowJson: string | null): string | null {
  if (flowJson === null) return null;
  const screens = (JSON.parse(flowJson) as { screens?: { id?: unknown }[] }).screens;
  const id = screens?.[0]?.id;
  return typeof id === 'string' ? id : null;
}
