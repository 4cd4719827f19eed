import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import type { FlowsEndpointService } from './flows-endpoint.service.js';
import {
  BusinessEndpointSetSchema,
  ChannelBody,
  FlowsEndpointSchema,
  FlowsErrorNotificationSchema,
  SetBusinessEndpointBody,
  SetScreenAnswersBody,
} from './flows-endpoint.schema.js';
import { FINISH, ScreenAnswerSchema } from './flows-endpoint.screens.js';

const tags = ['Channels'];

const ABOUT =
  "Meta sends a Flow's data requests (INIT, data_exchange, BACK, error notifications and its `ping` health check) to the number's `endpoint_url`, signed with the app secret (WHATSAPP_APP_SECRET) and encrypted to the number's public key. Parley checks the signature (and the `flow_token_signature` when Meta sends one: 427 when it does not match), decrypts, answers `ping` and error notifications itself (keeping the latest), answers every screen from its screen table or relays it to the business endpoint (`answered_by`), and encrypts the answer back as Meta documents.";

/** A number's WhatsApp Flows data endpoint: its key pair and the business endpoint screens are relayed to. */
export function registerFlowsEndpointRoutes(app: Api, endpoints: FlowsEndpointService): void {
  app.addSchema(ScreenAnswerSchema);
  app.addSchema(FlowsErrorNotificationSchema);
  app.addSchema(FlowsEndpointSchema);
  const endpoint = Type.Ref(FlowsEndpointSchema);

  app.post(
    '/api/v1/actions/set-up-flows-encryption',
    {
      config: { access: 'write', permission: 'manage_channel' },
      schema: {
        operationId: 'setUpFlowsEncryption',
        tags,
        summary: "Give a number a new key pair for WhatsApp Flows' data endpoint and register its public key with Meta",
        description: `Parley generates an RSA 2048 key pair, registers the public key with Meta (\`POST /{phone-number-id}/whatsapp_business_encryption\`; Meta signs it) and keeps the private key encrypted at rest. It replaces the number's earlier pair: a Flow client holding the old public key gets 421 and fetches the new one. When Meta refuses the key the answer is 409 in Meta's words and the pair in use stays. Run it again after Meta's \`public-key-missing\` or \`public-key-signiture-verification\` alerts, or after the number is registered again. ${ABOUT}`,
        body: ChannelBody,
        response: { 200: endpoint, ...actionErrors(404) },
      },
    },
    async (request) => endpoints.setUpEncryption(principalOf(request), request.body.channel_id),
  );

  app.post(
    '/api/v1/actions/get-flows-endpoint',
    {
      config: { access: 'read', permission: 'manage_channel' },
      schema: {
        operationId: 'getFlowsEndpoint',
        tags,
        summary: "A number's WhatsApp Flows data endpoint: its URL, its key's status at Meta and the business endpoint",
        description: `Meta is asked what it holds for the number's key (\`key_status\`); when Meta cannot be asked, the last answer is shown with its \`key_checked_at\`. ${ABOUT}`,
        body: ChannelBody,
        response: { 200: endpoint, ...actionErrors(404) },
      },
    },
    async (request) => endpoints.get(principalOf(request), request.body.channel_id),
  );

  app.post(
    '/api/v1/actions/set-flows-business-endpoint',
    {
      config: { access: 'write', permission: 'manage_channel', secretResponse: true },
      schema: {
        operationId: 'setFlowsBusinessEndpoint',
        tags,
        summary: "Set the business's own HTTPS endpoint that a number's WhatsApp Flows screens are relayed to",
        description: `Each INIT, data_exchange and BACK request, decrypted, is POSTed as Meta's JSON (\`version\`, \`action\`, \`screen\`, \`data\`, \`flow_token\`) and signed per Standard Webhooks as outgoing webhooks are (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\` under the \`signing_secret\` of this answer, shown only this once: a retry with the same \`Idempotency-Key\` answers 409 \`idempotency_secret_withheld\`; setting the URL again makes a new secret). The endpoint answers within 8 s with the JSON Meta expects (\`screen\` and \`data\`, or \`SUCCESS\` with \`extension_message_response\`), which Parley encrypts for Meta; HTTP 427 with \`{"error_msg"}\` says the Flow token is no longer valid, as Meta documents. Without an answer in time the person sees the same screen with an error message (Meta's \`error_message\`), or, when Meta named no screen, Meta's generic error. ${ABOUT}`,
        body: SetBusinessEndpointBody,
        response: { 200: BusinessEndpointSetSchema, ...actionErrors(404) },
      },
    },
    async (request) => endpoints.setBusinessEndpoint(principalOf(request), request.body.channel_id, request.body.url),
  );

  app.post(
    '/api/v1/actions/set-flows-screen-answers',
    {
      config: { access: 'write', permission: 'manage_channel' },
      schema: {
        operationId: 'setFlowsScreenAnswers',
        tags,
        summary: "Choose who answers a number's WhatsApp Flows screens, and set Parley's screen table",
        description: `With \`answered_by: parley\` a business without its own server serves a Flow that fetches data: Meta's INIT is answered by the row whose \`screen\` is null, each data_exchange by the row of the screen submitted, with \`next_screen\` and its \`data\` filled from the contact the Flow was sent to (by its \`flow_token\`) and what they entered on earlier screens (\`{{context.FIELD}}\`); \`next_screen: ${FINISH}\` closes the Flow with Meta's final answer, whose \`extension_message_response.params\` (the \`flow_token\` and the row's data) come back in the customer's reply. BACK shows the screen gone back to with the data that led to it. A screen without a row gets Meta's graceful answer (the same screen with an error message). \`answered_by: business_endpoint\` relays every screen to \`business_endpoint_url\` (set-flows-business-endpoint); the table is kept. ${ABOUT}`,
        body: SetScreenAnswersBody,
        response: { 200: endpoint, ...actionErrors(404) },
      },
    },
    async (request) =>
      endpoints.setScreenAnswers(
        principalOf(request),
        request.body.channel_id,
        request.body.answered_by,
        request.body.screen_answers,
      ),
  );
}
