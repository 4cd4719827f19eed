import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import type { SecretBox } from '../shared/secret-box.js';
import { toStoredTimestamp } from '../shared/time.js';
import { presentDelivery, presentWebhook } from './webhook.presenter.js';
import { webhookRepository, type SubscriptionRow } from './webhook.repository.js';
import {
  DELIVERY_LIST_CAP,
  SUBSCRIPTIONS_MAX,
  type CreatedWebhook,
  type CreateWebhookInput,
  type Delivery,
  type ListDeliveriesInput,
  type UpdateWebhookInput,
  type Webhook,
} from './webhook.schema.js';
import { newSigningSecret } from './webhook.signature.js';
import { savedTargetProblem } from './webhook.target.js';

/**
 * Outgoing webhook subscriptions and their delivery log: the rules behind the API and the CLI.
 * Deliveries are queued by the events themselves (webhook.events.ts) and sent by the worker.
 */
export function createWebhookService(
  deps: Deps,
  secrets: SecretBox,
  options: { allowPrivate: boolean },
  wakeWorker: () => void,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  async function checkUrl(url: string): Promise<void> {
    const problem = await savedTargetProblem(url, options.allowPrivate);
    if (problem) throw errors.invalid(problem);
  }

  async function subscription(caller: Caller, id: string): Promise<SubscriptionRow> {
    const row = await webhookRepository(db).find(caller.workspaceId, id.toLowerCase());
    if (!row) throw errors.notFound('webhook', 'webhook_id');
    return row;
  }

  return {
    /** create-webhook: the subscription and its signing secret, which is never shown again. */
    async create(caller: Caller, input: CreateWebhookInput): Promise<CreatedWebhook> {
      await checkUrl(input.url);
      const secret = newSigningSecret();
      const at = now();
      const row: SubscriptionRow = {
        id: newId(),
        workspace_id: caller.workspaceId,
        url: input.url,
        events: JSON.stringify(input.events),
        secret: secrets.seal(secret),
        status: 'enabled',
        disabled_reason: null,
        failing_since: null,
        created_at: at,
        updated_at: at,
      };
      await db.transaction().execute(async (trx) => {
        const webhooks = webhookRepository(trx);
        if ((await webhooks.count(caller.workspaceId)) >= SUBSCRIPTIONS_MAX) {
          throw errors.conflict(`A workspace has at most ${SUBSCRIPTIONS_MAX} webhooks; delete one first`);
        }
        await webhooks.insert(row);
      });
      return { ...presentWebhook(row), secret };
    },

    /** list-webhooks: newest first. */
    async list(caller: Caller): Promise<Webhook[]> {
      return (await webhookRepository(db).list(caller.workspaceId)).map(presentWebhook);
    },

    /**
     * update-webhook: a new URL or events, or enabled on/off. Disabling stops pending deliveries;
     * enabling resumes them and forgets past failures (an automatic disable starts over).
     */
    async update(caller: Caller, input: UpdateWebhookInput): Promise<Webhook> {
      const current = await subscription(caller, input.webhook_id);
      if (input.url !== undefined) await checkUrl(input.url);
      const at = now();
      const enabling = input.enabled === true && current.status === 'disabled';
      const disabling = input.enabled === false && current.status === 'enabled';
      const fields = {
        ...(input.url !== undefined && { url: input.url }),
        ...(input.events !== undefined && { events: JSON.stringify(input.events) }),
        ...(enabling && { status: 'enabled' as const, disabled_reason: null, failing_since: null }),
        ...(disabling && { status: 'disabled' as const }),
        updated_at: at,
      };
      await db.transaction().execute(async (trx) => {
        const webhooks = webhookRepository(trx);
        await webhooks.update(current.id, fields);
        if (enabling) await webhooks.resume(current.id, at);
        if (disabling) await webhooks.pause([current.id]);
      });
      if (enabling) wakeWorker();
      return presentWebhook({ ...current, ...fields });
    },

    /** delete-webhook: the subscription and its delivery log; nothing more is sent to it. */
    async delete(caller: Caller, input: { webhook_id: string }): Promise<Webhook> {
      const current = await subscription(caller, input.webhook_id);
      await webhookRepository(db).delete(current.id);
      return presentWebhook(current);
    },

    /** list-webhook-deliveries: a subscription's deliveries, newest first, at most DELIVERY_LIST_CAP. */
    async deliveries(caller: Caller, input: ListDeliveriesInput): Promise<Delivery[]> {
      const current = await subscription(caller, input.webhook_id);
      const rows = await webhookRepository(db).deliveries(current.id, input.status || undefined, DELIVERY_LIST_CAP);
      return rows.map(presentDelivery);
    },

    /**
     * replay-webhook-delivery: sends a delivery again, whatever became of it, with the same id and
     * body (receivers dedupe by `webhook-id`) and a fresh 24-hour retry window. While its
     * subscription is disabled it waits for the subscription to be enabled.
     */
    async replay(caller: Caller, input: { delivery_id: string }): Promise<Delivery> {
      const webhooks = webhookRepository(db);
      const delivery = await webhooks.findDelivery(caller.workspaceId, input.delivery_id);
      if (!delivery) throw errors.notFound('delivery', 'delivery_id');
      const owner = await subscription(caller, delivery.subscription_id);
      const at = now();
      const dueAt = owner.status === 'enabled' ? at : null;
      await webhooks.requeue(delivery.id, dueAt, at);
      wakeWorker();
      return presentDelivery({
        ...delivery,
        status: 'pending',
        attempts: 0,
        next_attempt_at: dueAt,
        first_attempt_at: null,
        updated_at: at,
      });
    },

    /** The workspace a subscription or delivery belongs to, for CLI commands that name only its id. */
    async ownerOf(kind: 'webhook' | 'delivery', id: string): Promise<Caller> {
      const table = kind === 'webhook' ? 'webhook_subscriptions' : 'webhook_deliveries';
      const row = await webhookRepository(db).workspaceOf(table, id);
      if (!row) throw errors.notFound(kind, kind === 'webhook' ? 'id' : 'delivery');
      return { workspaceId: row.workspace_id };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
