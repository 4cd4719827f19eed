import type { AssistantService } from '../assistant/index.js';
import type { BusinessHoursService } from '../business-hours/index.js';
import type { CsatService } from '../csat/index.js';
import type { Deps } from '../db/deps.js';
import type { FlowEngine } from '../flows/index.js';
import type { InboxService } from '../inbox/index.js';
import { conversationSpans, type InboundListener } from '../messages/index.js';
import type { NotificationService } from '../notifications/index.js';
import type { OptOutService } from '../opt-out/index.js';
import { emitWebhookEvents } from '../outgoing/index.js';
import type { RoutingService } from '../routing/index.js';
import type { SequenceService } from '../sequences/index.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { WhatsappFlowAnswers } from '../whatsapp-flows/index.js';

/** The domains that answer customers' messages, each with the part of it reception calls. */
export interface Receivers {
  optOut: Pick<OptOutService, 'listener'>;
  csat: Pick<CsatService, 'ratingsReceived'>;
  routing: Pick<RoutingService, 'onInbound'>;
  inbox: Pick<InboxService, 'onInbound'>;
  notifications: Pick<NotificationService, 'conversationsOpened'>;
  businessHours: Pick<BusinessHoursService, 'listener'>;
  sequences: Pick<SequenceService, 'onInbound'>;
  flows: Pick<FlowEngine, 'onInbound'>;
  whatsappFlowAnswers: Pick<WhatsappFlowAnswers, 'received'>;
  assistant: Pick<AssistantService, 'onInbound'>;
}

/**
 * What Parley does when customers write, in the transaction that stores their messages, and in which
 * order: the one place that orders the domains' answers (services.ts only wires them). `receivers` is
 * asked at the first message, once every service exists.
 */
export function createReception(deps: Deps, receivers: () => Receivers): InboundListener {
  return {
    async received(trx, workspaceId, received) {
      const {
        optOut,
        csat,
        routing,
        inbox,
        notifications,
        businessHours,
        sequences,
        flows,
        whatsappFlowAnswers,
        assistant,
      } = receivers();
      const subjects = received.map((message) => ({ workspaceId, id: message.id }));
      await emitWebhookEvents(trx, deps, 'new-message-received', subjects);
      // First: a contact who just opted out is opted out before any engine may message them.
      await optOut.listener.received(trx, workspaceId, received);
      // A satisfaction rating answers a closed conversation: it neither reopens it nor starts another.
      const ratings = await csat.ratingsReceived(trx, workspaceId, received);
      // A completed WhatsApp Flow is kept with the attributes it sets: the engines below see the contact so.
      const writing = await whatsappFlowAnswers.received(
        trx,
        workspaceId,
        received.filter((message) => !ratings.has(message.id)),
      );
      const contactIds = [...new Set(writing.map((message) => message.contactId))];
      // Before the inbox reopens done conversations: routing tells a conversation that opens from one already open.
      await routing.onInbound(trx, workspaceId, writing);
      const at = toStoredTimestamp(deps.clock.now());
      const opened = await conversationSpans(trx).opened(workspaceId, contactIds, at, deps.newId);
      await inbox.onInbound(trx, workspaceId, contactIds, opened);
      await notifications.conversationsOpened(trx, workspaceId, opened);
      // After the spans: the away reply is sent once per conversation opening (span).
      await businessHours.listener.received(trx, workspaceId, writing);
      await sequences.onInbound(trx, workspaceId, contactIds);
      const flowsTook = await flows.onInbound(trx, workspaceId, writing);
      // Last: the AI assistant answers what no flow took (it asks its model later, in a job, never here).
      await assistant.onInbound(
        trx,
        workspaceId,
        writing.filter((message) => !flowsTook.has(message.id)),
      );
    },
  };
}
