import type {
  ChannelService,
  NumberRoute,
  AccountEvent,
  CallEvent,
  ContactBookEvent,
  EchoEvent,
  GroupEvent,
  HistoryEvent,
  InboundMessageEvent,
  MarketingPreferenceEvent,
  StatusEvent,
  ChannelEvent,
} from '../channels/index.js';
import type { BusinessAppService, CallService, InboundService, StatusService } from '../messages/index.js';
import type { ContactBookService } from '../contacts/index.js';
import type { GroupService } from '../groups/index.js';
import type { TemplateSyncService } from '../templates/index.js';
import { errors } from '../shared/errors.js';
import { groupCommit } from '../shared/group-commit.js';
import type { SharedWindowLimiter } from '../http/rate-limit.js';
import type { OptOutService } from '../opt-out/index.js';
import type { WorkspaceEventService } from '../workspace-events/index.js';
import type { WhatsappFlowAlerts } from '../whatsapp-flows/index.js';

/**
 * Unsigned (or wrongly signed) deliveries one client address may send per minute; past them it is
 * answered 429 before its body is read. Signed deliveries are not counted: they come from Meta,
 * and a counter written per delivery would cost each one a commit.
 */
const REFUSALS_PER_MINUTE = 30;
const MINUTE_MS = 60_000;
const refusalKey = (address: string) => `whatsapp-webhook-refused:${address}`;

export interface WebhookOutcome {
  messages: number;
  duplicates: number;
  statuses: number;
  /** Events for a phone number id no workspace has connected. */
  unrouted: number;
  /** Template translations whose status or quality score Meta changed, and templates whose category it changed. */
  template_statuses: number;
  /** Marketing stop/resume preferences applied to contacts (Meta's `user_preferences`). */
  marketing_preferences: number;
  /** Messages Parley cannot store (no sender it can address); a wa_id that is no valid number is still stored. */
  rejected: number;
  /** Account updates and `value.errors` recorded in workspace event logs. */
  account_events: number;
  /** Messages the business sent from the WhatsApp Business app, stored (or their edits applied). */
  echoes: number;
  /** Messages of the app's chat history imported (a chunk delivered again imports none). */
  history_messages: number;
  /** Entries of the app's contact book applied to contacts. */
  contact_book: number;
  /** Changes to WhatsApp groups applied (created, deleted, people joined or left, settings, suspension). */
  group_changes: number;
  /** Call events (connect, terminate, status) that changed a call in its contact's conversation. */
  calls: number;
}

/**
 * Applies webhook deliveries: inbound messages and delivery statuses, by workspace. Deliveries
 * that arrive together are written together (group commit): one transaction for the messages
 * and one for the statuses of each workspace, however many deliveries are waiting. A batch that fails
 * is applied again delivery by delivery (groupCommit), where what the batch already committed is found
 * stored: one bad delivery fails only itself.
 */
export function createWhatsappWebhookService({
  channels,
  inbound,
  businessApp,
  calls,
  contactBook,
  statuses,
  templateSync,
  limiter,
  eventLog,
  optOut,
  groups,
  whatsappFlowAlerts,
}: {
  channels: ChannelService;
  inbound: InboundService;
  businessApp: BusinessAppService;
  calls: CallService;
  contactBook: ContactBookService;
  statuses: StatusService;
  templateSync: TemplateSyncService;
  /** Counts refused deliveries per client address. */
  limiter: SharedWindowLimiter;
  eventLog: WorkspaceEventService;
  optOut: OptOutService;
  groups: GroupService;
  /** Meta's `flows` field: a Flow's status changes and its endpoint's alerts. */
  whatsappFlowAlerts: WhatsappFlowAlerts;
}) {
  /** The workspaces an account event concerns: its business number's, else every one on its account. */
  async function workspacesOf(event: AccountEvent, workspaceOf: (phoneNumberId: string) => Promise<string | null>) {
    if (event.phoneNumberId !== null) return [await workspaceOf(event.phoneNumberId)].filter((id) => id !== null);
    return event.wabaId === null ? [] : channels.workspacesOfWaba(event.wabaId);
  }

  async function applyDeliveries(deliveries: ChannelEvent[][]): Promise<WebhookOutcome[]> {
    const outcomes = deliveries.map(emptyOutcome);
    const routes = new Map<string, NumberRoute | null>();
    const routeOf = async (phoneNumberId: string) => {
      if (!routes.has(phoneNumberId)) routes.set(phoneNumberId, await channels.routeOfNumber(phoneNumberId));
      return routes.get(phoneNumberId)!;
    };
    const workspaceOf = async (phoneNumberId: string) => (await routeOf(phoneNumberId))?.workspaceId ?? null;
    const messagesByWorkspace = new ByWorkspace<InboundMessageEvent & { channelId: string }>();
    const statusEvents = new ByWorkspace<StatusEvent>();
    const preferences = new ByWorkspace<MarketingPreferenceEvent>();
    const coexistence = new ByChannel<EchoEvent | HistoryEvent | ContactBookEvent>();
    const inGroups = new ByChannel<InboundMessageEvent | GroupEvent>();
    const callEvents = new ByChannel<CallEvent>();
    const accountEvents: { workspaceIds: string[]; event: AccountEvent }[] = [];
    for (const [delivery, events] of deliveries.entries()) {
      const outcome = outcomes[delivery]!;
      for (const event of events) {
        if (event.kind === 'template_status' || event.kind === 'template_quality') {
          outcome.template_statuses += await templateSync.applyReview(event);
          continue;
        }
        if (event.kind === 'template_category') {
          outcome.template_statuses += await templateSync.applyCategory(event);
          continue;
        }
        if (event.kind === 'account_event') {
          if (event.field === 'phone_number_quality_update' && event.wabaId !== null) {
            await channels.applyQualityUpdate(event.wabaId, event.details);
          }
          if (event.field === 'business_capability_update' && event.wabaId !== null) {
            await channels.applyCapabilityUpdate(event.wabaId, event.details);
          }
          if (event.field === 'account_update' && event.wabaId !== null) {
            await channels.applyAccountUpdate(event.wabaId, event.details, event.occurredAt);
          }
          if (event.field === 'flows') await whatsappFlowAlerts.applyWebhook(event.details);
          const workspaceIds = await workspacesOf(event, workspaceOf);
          if (workspaceIds.length === 0) outcome.unrouted++;
          else outcome.account_events++;
          accountEvents.push({ workspaceIds, event });
          continue;
        }
        const route = await routeOf(event.phoneNumberId);
        if (!route) outcome.unrouted++;
        else if (event.kind === 'group' || (event.kind === 'message' && event.groupId !== null))
          inGroups.add(route, event, outcome);
        else if (event.kind === 'message')
          messagesByWorkspace.add(route.workspaceId, { ...event, channelId: route.channelId }, outcome);
        else if (event.kind === 'marketing_preference') preferences.add(route.workspaceId, event, outcome);
        else if (event.kind === 'status') statusEvents.add(route.workspaceId, event, outcome);
        else if (event.kind === 'call') callEvents.add(route, event, outcome);
        else coexistence.add(route, event, outcome);
      }
    }
    await applyCoexistence(coexistence);
    await applyGroups(inGroups);
    for (const [channelId, { route, entries }] of callEvents) {
      const changed = await calls.record(
        { workspaceId: route.workspaceId },
        channelId,
        entries.map((entry) => entry.event),
      );
      changed.forEach((done, i) => (entries[i]!.outcome.calls += done ? 1 : 0));
    }
    for (const [workspaceId, entries] of messagesByWorkspace) {
      const results = await inbound.receiveAll(
        { workspaceId },
        entries.map((entry) => entry.event),
      );
      results.forEach((result, i) => {
        const outcome = entries[i]!.outcome;
        if (result === 'stored') outcome.messages++;
        else if (result === 'duplicate') outcome.duplicates++;
        else outcome.rejected++;
      });
    }
    for (const [workspaceId, entries] of statusEvents) {
      const applied = await statuses.applyStatuses(
        { workspaceId },
        entries.map((entry) => entry.event),
      );
      applied.forEach((changed, i) => (entries[i]!.outcome.statuses += changed ? 1 : 0));
    }
    for (const [workspaceId, entries] of preferences) {
      const applied = await optOut.applyPreferences(
        { workspaceId },
        entries.map((entry) => entry.event),
      );
      applied.forEach((done, i) => (entries[i]!.outcome.marketing_preferences += done ? 1 : 0));
    }
    await eventLog.record(accountEvents);
    return outcomes;
  }

  /**
   * What the WhatsApp Business app on a connected number reports (coexistence): its echoes, its chat
   * history and its contact book. Each says the number is in the app, which Meta paces at 20 per second.
   */
  async function applyCoexistence(byChannel: ByChannel<EchoEvent | HistoryEvent | ContactBookEvent>) {
    for (const [channelId, { route, entries }] of byChannel) {
      await channels.noteBusinessApp(channelId);
      const caller = { workspaceId: route.workspaceId };
      const echoes = entries.filter((entry): entry is Entry<EchoEvent> => entry.event.kind === 'echo');
      const results = await businessApp.recordEchoes(
        caller,
        channelId,
        echoes.map((entry) => entry.event),
      );
      results.forEach((result, i) => (echoes[i]!.outcome.echoes += result === 'stored' ? 1 : 0));
      for (const { event, outcome } of entries) {
        if (event.kind === 'history') {
          const imported = await businessApp.importHistory(caller, channelId, event);
          await channels.noteHistory(channelId, { ...event, messages: imported });
          outcome.history_messages += imported;
        } else if (event.kind === 'contact_book') {
          outcome.contact_book += (await contactBook.apply(caller, event)) ? 1 : 0;
        }
      }
    }
  }

  /** Messages written in WhatsApp groups, to their groups' conversations, and changes to the groups. */
  async function applyGroups(byChannel: ByChannel<InboundMessageEvent | GroupEvent>) {
    for (const [channelId, { route, entries }] of byChannel) {
      const caller = { workspaceId: route.workspaceId };
      const messages = entries.filter((entry): entry is Entry<InboundMessageEvent> => entry.event.kind === 'message');
      const results = await groups.receiveMessages(
        caller,
        channelId,
        messages.map((entry) => entry.event),
      );
      results.forEach((result, i) => (messages[i]!.outcome[result === 'stored' ? 'messages' : 'duplicates'] += 1));
      for (const { event, outcome } of entries) {
        if (event.kind === 'group')
          outcome.group_changes += (await groups.applyChange(caller, channelId, event)) ? 1 : 0;
      }
    }
  }

  async function noteRefused(address: string): Promise<void> {
    await limiter.hit(refusalKey(address), REFUSALS_PER_MINUTE, MINUTE_MS);
  }

  return {
    apply: groupCommit(applyDeliveries),

    /** Seconds a client address must wait after too many refused deliveries, or null. */
    refusedFor: (address: string): Promise<number | null> =>
      limiter.limitedFor(refusalKey(address), REFUSALS_PER_MINUTE),

    /** Counts a delivery refused for its signature against its address, then refuses it. */
    async refuse(address: string): Promise<never> {
      await noteRefused(address);
      throw errors.webhookSignatureInvalid();
    },

    /** Counts a request of Meta's refused for its signature against its address (a Flows data request's too). */
    noteRefused,
  };
}

function emptyOutcome(): WebhookOutcome {
  return {
    messages: 0,
    duplicates: 0,
    statuses: 0,
    template_statuses: 0,
    marketing_preferences: 0,
    unrouted: 0,
    rejected: 0,
    account_events: 0,
    echoes: 0,
    history_messages: 0,
    contact_book: 0,
    group_changes: 0,
    calls: 0,
  };
}

type Entry<Event> = { event: Event; outcome: WebhookOutcome };

/** Events grouped by the channel (business number) they concern, with its route. */
class ByChannel<Event> extends Map<string, { route: NumberRoute; entries: Entry<Event>[] }> {
  add(route: NumberRoute, event: Event, outcome: WebhookOutcome): void {
    const group = this.get(route.channelId);
    if (group) group.entries.push({ event, outcome });
    else this.set(route.channelId, { route, entries: [{ event, outcome }] });
  }
}

/** Events grouped by workspace, each remembering the outcome of the delivery it came in. */
class ByWorkspace<Event> extends Map<string, { event: Event; outcome: WebhookOutcome }[]> {
  add(workspaceId: string, event: Event, outcome: WebhookOutcome): void {
    const entries = this.get(workspaceId);
    if (entries) entries.push({ event, outcome });
    else this.set(workspaceId, [{ event, outcome }]);
  }
}

export type WhatsappWebhookService = ReturnType<typeof createWhatsappWebhookService>;
