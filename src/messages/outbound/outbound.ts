import type { ContactRow } from '../../contacts/contact.repository.js';
import type { Deps } from '../../shared/context.js';
import type { OutboundContent } from './content.js';
import { prepareOutbound, type OutboundRow } from './queue.js';
import { isRefusal, type Refusal } from './rules.js';

/** How a message is queued to be sent right after its transaction commits (the outbox's queueNow). */
export interface OutboxQueue {
  queueNow(trx: Deps['db'], message: OutboundRow, phone: string): Promise<void>;
}

/**
 * The one path for a single message a business sends (API actions, the inbox, flows): checked against
 * the sending rules, then queued in the caller's transaction and sent right after its commit. A refusal
 * is returned, not thrown: each caller maps it (an HTTP problem, a flow's failure).
 */
export function createOutbound(deps: Pick<Deps, 'newId' | 'clock'>, outbox: OutboxQueue) {
  return {
    async queueNow(trx: Deps['db'], contact: ContactRow, message: OutboundContent): Promise<OutboundRow | Refusal> {
      const prepared = prepareOutbound(deps, contact, message);
      if (!isRefusal(prepared)) await outbox.queueNow(trx, prepared, contact.phone);
      return prepared;
    },
  };
}

export type Outbound = ReturnType<typeof createOutbound>;
