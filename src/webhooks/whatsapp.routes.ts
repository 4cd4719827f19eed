import { Type } from '@sinclair/typebox';
import type { Config } from '../config.js';
import { readErrors } from '../http/responses.js';
import type { Api } from '../http/types.js';
import { errors } from '../shared/errors.js';
import { parseWebhook } from './whatsapp.payload.js';
import type { WhatsappWebhookService } from './whatsapp.service.js';
import { verifyHandshake, verifySignature } from './whatsapp.signature.js';

const tags = ['Webhooks'];

/**
 * Meta's webhook for the WhatsApp Cloud API: GET answers the subscription handshake, POST
 * receives messages and statuses. The signature covers the raw bytes, so this plugin keeps them
 * (its own JSON parser) and checks them before anything is read or stored.
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

  void app.register((plugin: Api, _options, registered) => {
    plugin.removeAllContentTypeParsers();
    plugin.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw: Buffer, done) => {
      request.rawBody = raw;
      try {
        done(null, raw.length === 0 ? null : JSON.parse(raw.toString('utf8')));
      } catch {
        done(null, undefined);
      }
    });
    plugin.post(
      '/webhooks/whatsapp',
      {
        config: { access: 'public' },
        schema: {
          hide: true,
          operationId: 'receiveWhatsappWebhook',
          tags,
          summary: 'Inbound messages and delivery statuses from Meta',
          description:
            'Verified with `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with WHATSAPP_APP_SECRET); a bad signature is a 401 and nothing is stored. Messages are stored once per wamid.',
          response: {
            200: Type.Object({
              messages: Type.Integer(),
              duplicates: Type.Integer(),
              statuses: Type.Integer(),
              template_statuses: Type.Integer(),
              unrouted: Type.Integer(),
              rejected: Type.Integer(),
            }),
            ...readErrors(),
          },
        },
      },
      async (request) => {
        const secret = config.whatsappAppSecret;
        const signature = request.headers['x-hub-signature-256'];
        if (!secret || !request.rawBody || !verifySignature(request.rawBody, signature as string | undefined, secret)) {
          throw errors.webhookSignatureInvalid();
        }
        const events = parseWebhook(request.body);
        if (events === null) throw errors.validation('object', 'must be whatsapp_business_account');
        return webhooks.apply(events);
      },
    );
    registered();
  });
}
