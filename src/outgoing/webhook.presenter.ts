import { formatTimestamp } from '../shared/time.js';
import type { DeliveryRow, SubscriptionRow } from './webhook.repository.js';
import type { Delivery, DeliveryAttempt, Webhook } from './webhook.schema.js';

/** The public form of a subscription: never its secret. */
export function presentWebhook(row: SubscriptionRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    status: row.status,
    disabled_reason: row.disabled_reason,
    failing_since: formatTimestamp(row.failing_since),
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}

/** The public form of a delivery, with its body and latest attempts. */
export function presentDelivery(row: DeliveryRow): Delivery {
  const attempts = JSON.parse(row.attempt_log) as DeliveryAttempt[];
  return {
    id: row.id,
    webhook_id: row.subscription_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: formatTimestamp(row.next_attempt_at),
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    attempt_log: attempts.map((attempt) => ({ ...attempt, at: formatTimestamp(attempt.at) })),
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}
