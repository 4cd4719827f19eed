import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  CreatedWebhookSchema,
  CreateWebhookBody,
  DELIVERY_LIST_CAP,
  DeliverySchema,
  ListDeliveriesBody,
  ReplayDeliveryBody,
  SUBSCRIPTIONS_MAX,
  UpdateWebhookBody,
  WEBHOOK_EVENTS,
  WebhookIdBody,
  WebhookSchema,
} from './webhook.schema.js';
import type { WebhookService } from './webhook.service.js';

const tags = ['Webhooks'];
const webhook = Type.Ref(WebhookSchema);
const delivery = Type.Ref(DeliverySchema);

const ABOUT = `Push delivery in addition to polling (the trigger feeds stay the source of truth). Each event is POSTed as \`{"id", "type", "created_at", "workspace_id", "data"}\`, where \`data\` is the record the matching trigger feed returns (for message-status-changed: the message as get-message returns it, at its new status). Every attempt is signed per Standard Webhooks: \`webhook-id\` (the delivery id, the same on every retry and replay: dedupe by it), \`webhook-timestamp\` (Unix seconds) and \`webhook-signature\` (\`v1,\` + base64 HMAC-SHA256 of \`{id}.{timestamp}.{body}\` keyed with the base64-decoded part of the secret after \`whsec_\`). A 2xx answer within 10 s delivers; anything else is retried after 10 s, 1 min, 5 min, 30 min, 1 h, 2 h, 4 h, 8 h, then every 8 h until 24 h have passed since the first attempt, when the delivery fails. A subscription whose every attempt failed for 24 h is disabled (\`disabled_reason\`); its pending deliveries wait until it is enabled again.`;

/** Outgoing webhooks: subscriptions, their delivery log and replays. */
export function registerWebhookRoutes(app: Api, webhooks: WebhookService): void {
  app.addSchema(WebhookSchema);
  app.addSchema(DeliverySchema);

  app.post(
    '/api/v1/actions/create-webhook',
    {
      config: { access: 'write', permission: 'manage_workspace', secretResponse: true },
      schema: {
        operationId: 'createWebhook',
        tags,
        summary: 'Subscribe a URL to events',
        description: `Events: ${WEBHOOK_EVENTS.join(', ')}. The URL must be https on a public address; loopback and private-network addresses are refused here and again, after DNS resolution, on every attempt. At most ${SUBSCRIPTIONS_MAX} webhooks per workspace. The answer carries the signing \`secret\`, shown only this once: a retry with the same \`Idempotency-Key\` answers 409 \`idempotency_secret_withheld\`. ${ABOUT}`,
        body: CreateWebhookBody,
        response: { 200: CreatedWebhookSchema, ...actionErrors() },
      },
    },
    async (request) => webhooks.create(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/list-webhooks',
    {
      config: { access: 'read', permission: 'manage_workspace' },
      schema: {
        operationId: 'listWebhooks',
        tags,
        summary: "List the workspace's webhooks",
        description: 'Newest first, without their secrets.',
        body: Type.Object({}),
        response: { 200: Type.Array(webhook, { maxItems: SUBSCRIPTIONS_MAX }), ...actionErrors() },
      },
    },
    async (request) => webhooks.list(principalOf(request)),
  );

  app.post(
    '/api/v1/actions/update-webhook',
    {
      config: { access: 'write', permission: 'manage_workspace' },
      schema: {
        operationId: 'updateWebhook',
        tags,
        summary: 'Change a webhook, or enable or disable it',
        description:
          'Fields not given keep their value. `enabled: false` stops deliveries; pending ones wait, and events that happen meanwhile are not queued for it (poll the trigger feeds to catch up). `enabled: true` resumes the waiting deliveries at once and clears the failure record, also after an automatic disable.',
        body: UpdateWebhookBody,
        response: { 200: webhook, ...actionErrors(404) },
      },
    },
    async (request) => webhooks.update(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/delete-webhook',
    {
      config: { access: 'write', permission: 'manage_workspace' },
      schema: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Delete a webhook and its delivery log',
        description: 'Returns the webhook as it was. Its pending deliveries are dropped.',
        body: WebhookIdBody,
        response: { 200: webhook, ...actionErrors(404) },
      },
    },
    async (request) => webhooks.delete(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/list-webhook-deliveries',
    {
      config: { access: 'read', permission: 'manage_workspace' },
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: "A webhook's delivery log",
        description: `Newest first, at most ${DELIVERY_LIST_CAP}, optionally only \`pending\`, \`delivered\` or \`failed\` ones; each with its body and latest attempts (time, status code, error, duration).`,
        body: ListDeliveriesBody,
        response: { 200: Type.Array(delivery, { maxItems: DELIVERY_LIST_CAP }), ...actionErrors(404) },
      },
    },
    async (request) => webhooks.deliveries(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/replay-webhook-delivery',
    {
      config: { access: 'write', permission: 'manage_workspace' },
      schema: {
        operationId: 'replayWebhookDelivery',
        tags,
        summary: 'Send a delivery again',
        description:
          'Queues the delivery again, whatever its status, with the same id and body and a fresh 24-hour retry window; it is sent at once (or, while its webhook is disabled, once it is enabled).',
        body: ReplayDeliveryBody,
        response: { 200: delivery, ...actionErrors(404) },
      },
    },
    async (request) => webhooks.replay(principalOf(request), request.body),
  );
}
