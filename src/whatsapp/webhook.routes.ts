import { Type } from '@sinclair/typebox';
import type { Config } from '../config.js';
import { readErrors } from '../http/responses.js';
import type { Api } from '../http/types.js';
import { errors } from '../shared/errors.js';
import { rawBodyOf, registerRawBodyRoutes } from './raw-body.js';
import { parseWebhook, readWebhookJson } from './webhook.payload.js';
import type { WhatsappWebhookService } from './webhook.service.js';
import { signedByMeta, verifyHandshake } from './webhook.signature.js';
import { webhookInProblems } from './webhook.problems.js';

const tags = ['Webhooks'];
/** Meta's deliveries are a few kilobytes; this bounds what an unsigned request can make Parley read and hash. */
const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Meta's webhook for the WhatsApp Cloud API: GET answers the subscription handshake, POST
 * receives messages and statuses. The signature covers the raw bytes, so they are kept (raw-body.ts)
 * and checked before they are parsed or anything is stored.
 */
export function registerWhatsappWebhookRoutes(app: Api, config: Config, webhooks: WhatsappWebhookService): void {
  app.get(
    '/webhooks/whatsapp',
    {
      config: { access: 'public' },
      // Meta's contract, not part of the REST API (and outside its /api base): not in the OpenAPI document.
      schema: {
        hide: true,
        operationId: 'verifyWhatsappWebhook',
        tags,
        summary: "Meta's subscription handshake",
        description: 'Echoes `hub.challenge` when `hub.verify_token` equals WHATSAPP_VERIFY_TOKEN.',
        querystring: Type.Object({}, { additionalProperties: true }),
        response: { 200: Type.String(), 403: Type.Ref('Problem') },
      },
    },
    async (request, reply) => {
      const challenge = verifyHandshake(request.query, config.whatsappVerifyToken);
      if (challenge === null) throw errors.insufficientScope('The verify token does not match');
      return reply.type('text/plain; charset=utf-8').send(challenge);
    },
  );

  registerRawBodyRoutes(app, (plugin) => {
    plugin.post(
      '/webhooks/whatsapp',
      {
        config: { access: 'public' },
        bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
        // An address that keeps sending unsigned deliveries is answered before its body is read.
        onRequest: async (request) => {
          const wait = await webhooks.refusedFor(request.ip);
          if (wait !== null) throw errors.rateLimited(wait);
        },
        schema: {
          hide: true,
          operationId: 'receiveWhatsappWebhook',
          tags,
          summary: 'Inbound messages and delivery statuses from Meta',
          description:
            'Verified with `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with WHATSAPP_APP_SECRET) before the body is parsed; a bad signature is a 401 and nothing is stored. Messages are stored once per wamid.',
          response: {
            200: Type.Object({
              messages: Type.Integer(),
              duplicates: Type.Integer(),
              statuses: Type.Integer(),
              template_statuses: Type.Integer(),
              marketing_preferences: Type.Integer(),
              unrouted: Type.Integer(),
              rejected: Type.Integer(),
              account_events: Type.Integer(),
              echoes: Type.Integer(),
              history_messages: Type.Integer(),
              contact_book: Type.Integer(),
              group_changes: Type.Integer(),
              calls: Type.Integer(),
            }),
            ...readErrors(),
          },
        },
      },
      async (request) => {
        const raw = rawBodyOf(request);
        if (!signedByMeta(raw, request.headers, config.whatsappAppSecret)) await webhooks.refuse(request.ip);
        const events = parseWebhook(readWebhookJson(raw));
        if (events === null) throw errors.invalid(webhookInProblems.problem('object', 'not_whatsapp_account'));
        return webhooks.apply(events);
      },
    );
  });
}
