import { Type } from '@sinclair/typebox';
import type { Config } from '../config.js';
import { FLOWS_ENDPOINT_PATH, type FlowsEndpointService } from '../flows-endpoint/index.js';
import { Uuid } from '../http/responses.js';
import type { Api } from '../http/types.js';
import { errors } from '../shared/errors.js';
import { answerFlowRequest } from './flows-endpoint.answer.js';
import { decryptFlowRequest } from './flows-endpoint.crypto.js';
import { flowTokenSignatureHolds } from './flows-endpoint.token-signature.js';
import { rawBodyOf, registerRawBodyRoutes } from './raw-body.js';
import type { WhatsappWebhookService } from './webhook.service.js';
import { signedByMeta } from './webhook.signature.js';

/** Meta's Flows requests are a few kilobytes; this bounds what an unsigned request can make Parley read and hash. */
const BODY_LIMIT_BYTES = 1024 * 1024;
/** Meta's 427 ("the Flow token is no longer valid"): what the person reads when the token's signature fails. */
const TOKEN_NOT_GENUINE = 'This form can no longer be used. Please ask for a new one.';

/**
 * WhatsApp Flows' data endpoint of each number, as Meta calls it ("Implementing Endpoint for Flows"): the
 * signature first (Meta's 432), then the request decrypted with the number's private key (Meta's 421
 * when it cannot be, so the client fetches the key again), its `flow_token_signature` checked (Meta's
 * 427 when it fails), answered, and the answer encrypted as text.
 */
export function registerFlowsEndpointRequestRoutes(
  app: Api,
  config: Config,
  webhooks: WhatsappWebhookService,
  endpoints: FlowsEndpointService,
): void {
  registerRawBodyRoutes(app, (plugin) => {
    plugin.post(
      `${FLOWS_ENDPOINT_PATH}/:channel_id`,
      {
        config: { access: 'public' },
        bodyLimit: BODY_LIMIT_BYTES,
        // An address that keeps sending unsigned requests is answered before its body is read.
        onRequest: async (request) => {
          const wait = await webhooks.refusedFor(request.ip);
          if (wait !== null) throw errors.rateLimited(wait);
        },
        // Meta's contract, not part of the REST API: not in the OpenAPI document.
        schema: {
          hide: true,
          operationId: 'answerWhatsappFlowsRequest',
          tags: ['Webhooks'],
          summary: "A WhatsApp Flow's data request for one number",
          params: Type.Object({ channel_id: Uuid() }),
        },
      },
      async (request, reply) => {
        const raw = rawBodyOf(request);
        if (!signedByMeta(raw, request.headers, config.whatsappAppSecret)) {
          await webhooks.noteRefused(request.ip);
          throw errors.flowsSignatureInvalid();
        }
        const endpoint = await endpoints.opened(request.params.channel_id);
        const decrypted = endpoint && decryptFlowRequest(raw, endpoint.privateKey);
        if (!decrypted) throw errors.flowsRequestUndecryptable();
        if (!flowTokenSignatureHolds(decrypted.request, config.whatsappAppSecret)) {
          request.log.warn('a WhatsApp Flows request carried a flow_token_signature that does not verify');
          return reply.code(427).send({ error_msg: TOKEN_NOT_GENUINE });
        }
        const answer = await answerFlowRequest(decrypted.request, endpoint, request.log);
        switch (answer.kind) {
          case 'answer':
            return reply.type('text/plain').send(decrypted.encryptAnswer(answer.answer));
          case 'token_invalid':
            // Meta's 427 is plain JSON, for the client to show `error_msg`.
            return reply.code(427).send({ ...(answer.errorMessage !== null && { error_msg: answer.errorMessage }) });
          case 'unanswered':
            throw errors.flowsBusinessEndpointFailed();
        }
      },
    );
  });
}
