import type { ChannelService } from '../channels/channel.service.js';
import type { MessageService } from '../messages/message.service.js';
import { AppError } from '../shared/errors.js';
import type { TemplateSyncService } from '../templates/template-sync.js';
import type { WebhookEvent } from './whatsapp.payload.js';

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
  async function applyEvent(
    caller: { workspaceId: string },
    event: Exclude<WebhookEvent, { kind: 'template_status' }>,
    outcome: WebhookOutcome,
  ): Promise<void> {
    if (event.kind === 'message') {
      const { stored } = await messages.receive(caller, event);
      if (stored) outcome.messages++;
      else outcome.duplicates++;
    } else if (await messages.applyStatus(caller, event)) {
      outcome.statuses++;
    }
  }

  return {
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
      for (const event of events) {
        if (event.kind === 'template_status') {
          const { wabaId, templateName, language, status } = event;
          outcome.template_statuses += await templateSync.applyStatus(wabaId, templateName, language, status);
          continue;
        }
        const workspaceId = await workspaceOf(event.phoneNumberId);
        if (!workspaceId) {
          outcome.unrouted++;
          continue;
        }
        try {
          await applyEvent({ workspaceId }, event, outcome);
        } catch (error) {
          // One bad event must not make Meta retry the whole delivery forever; the others are kept.
          if (!(error instanceof AppError)) throw error;
          outcome.rejected++;
        }
      }
      return outcome;
    },
  };
}

export type WhatsappWebhookService = ReturnType<typeof createWhatsappWebhookService>;
