import type { SendError, SendOutcome } from '../channels/index.js';
import { backoffMs } from '../shared/backoff.js';
import type { LeasedMessage } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { MessageError, OutboxChange } from './message.repository.js';
import type { Outcome } from './outbox-record.js';

/** Retries back off exponentially (with jitter) up to this, for at most MAX_ATTEMPTS tries. */
const MAX_BACKOFF_MS = 15 * 60_000;
const BASE_BACKOFF_MS = 1_000;
const MAX_ATTEMPTS = 10;

/** A message queued on a channel the workspace has since removed: it must not go out from another number. */
const CHANNEL_REMOVED: MessageError = {
  code: null,
  title: 'Channel removed',
  details: 'The number this message was to be sent from was removed from the workspace before it was sent',
};

/** When the outcome is decided, and how long an unknown one waits for the channel's status. */
export interface OutcomeClock {
  nowMs: number;
  graceMs: number;
}

/**
 * What the channel's answer to a send changes on the message: sent, failed (closing the contact's
 * window when the channel says so), due again after a backoff, or — the outcome unknown — due again
 * once the grace period has given a status naming it time to arrive.
 */
export function outcomeOf(
  message: LeasedMessage,
  sent: SendOutcome,
  channelId: string | null,
  at: OutcomeClock,
): Outcome {
  switch (sent.outcome) {
    case 'accepted':
      return settled(message, at.nowMs, {
        status: 'sent',
        provider_message_id: sent.providerMessageId,
        channel_id: channelId,
        ...(sent.via && { sent_via: sent.via }),
      });
    case 'retry':
      if (message.attempts >= MAX_ATTEMPTS) {
        return settled(message, at.nowMs, { status: 'failed', error: errorOf(sent.error) });
      }
      return dueAgain(
        message,
        at.nowMs + (sent.afterMs ?? backoffMs(message.attempts, BASE_BACKOFF_MS, MAX_BACKOFF_MS)),
      );
    case 'unknown':
      return dueAgain(message, at.nowMs + at.graceMs);
    case 'failed':
      return {
        ...settled(message, at.nowMs, { status: 'failed', error: errorOf(sent.error), channel_id: channelId }),
        ...(sent.windowClosed &&
          message.contact_id !== null && {
            closesWindowOf: { workspaceId: message.workspace_id, contactId: message.contact_id },
          }),
      };
  }
}

/** A message whose channel the workspace removed fails: it must not go out from another number. */
export const channelRemovedOutcome = (message: LeasedMessage, nowMs: number): Outcome =>
  settled(message, nowMs, { status: 'failed', error: CHANNEL_REMOVED });

const dueAgain = (message: LeasedMessage, atMs: number): Outcome => ({
  change: { id: message.id, next_attempt_at: toStoredTimestamp(new Date(atMs)) },
});

function settled(
  message: LeasedMessage,
  nowMs: number,
  result: Pick<OutboxChange, 'provider_message_id' | 'error' | 'channel_id' | 'sent_via'> & {
    status: 'sent' | 'failed';
  },
): Outcome {
  return {
    change: { id: message.id, ...result, next_attempt_at: null, updated_at: toStoredTimestamp(new Date(nowMs)) },
    statusChange: {
      workspaceId: message.workspace_id,
      id: message.id,
      status: result.status,
      inGroup: message.toGroup,
    },
  };
}

function errorOf(error: SendError): MessageError {
  return { code: error.code, title: error.title, details: error.details };
}
