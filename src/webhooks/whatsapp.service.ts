import type { ChannelService } from '../channels/channel.service.js';
import type { MessageService } from '../messages/message.service.js';
import type { TemplateSyncService } from '../templates/template-sync.js';
import type { InboundMessageEvent, WebhookEvent } from './whatsapp.payload.js';

export interface WebhookOutcome {
  messages: number;
  duplicates: number;
  statuses: number;
  /** Events for a phone number id no workspace has connected. */
  unrouted: number;
  /** Template translations whose status Meta changed. */
  template_statuses: number;
  /** Events Parley cannot store (e.g. a sender number that is not a valid phone number). */
  rejected: number;
}

/** Applies the events of one webhook delivery: inbound messages and delivery statuses, by workspace. */
export function createWhatsappWebhookService(
  channels: ChannelService,
  messages: MessageService,
  templateSync: TemplateSyncService,
) {
  return {
    /**
     * Messages are stored per workspace in one transaction for the delivery; statuses and template
     * statuses are applied one by one (each is a single update).
     */
    async apply(events: WebhookEvent[]): Promise<WebhookOutcome> {
      const outcome: WebhookOutcome = {
        messages: 0,
        duplicates: 0,
        statuses: 0,
        template_statuses: 0,
        unrouted: 0,
        rejected: 0,
      };
      const workspaces = new Map<string, string | null>();
      const workspaceOf = async (phoneNumberId: string) => {
        if (!workspaces.has(phoneNumberId))
          workspaces.set(phoneNumberId, await channels.workspaceOfNumber(phoneNumberId));
        return workspaces.get(phoneNumberId)!;
      };
      const inbound = new Map<string, InboundMessageEvent[]>();
      for (const event of events) {
        if (event.kind === 'template_status') {
          const { wabaId, templateName, language, status } = event;
          outcome.template_statuses += await templateSync.applyStatus(wabaId, templateName, language, status);
          continue;
        }
        const workspaceId = await workspaceOf(event.phoneNumberId);
        if (!workspaceId) outcome.unrouted++;
        else if (event.kind === 'message') inbound.set(workspaceId, [...(inbound.get(workspaceId) ?? []), event]);
        else if (await messages.applyStatus({ workspaceId }, event)) outcome.statuses++;
      }
      for (const [workspaceId, batch] of inbound) {
        const counts = await messages.receiveAll({ workspaceId }, batch);
        outcome.messages += counts.stored;
        outcome.duplicates += counts.duplicates;
        outcome.rejected += counts.rejected;
      }
      return outcome;
    },
  };
}

export type WhatsappWebhookService = ReturnType<typeof createWhatsappWebhookService>;
