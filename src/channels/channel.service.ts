import { GenerationCache } from '../db/deployment-generation.js';
import { isUniqueViolation } from '../db/sql.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { commonProblems } from '../shared/common.problems.js';
import { errors } from '../shared/errors.js';
import type { SecretBox } from '../shared/secret-box.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { accountFactOf, type AccountStatus, withAccountFact } from './account-status.js';
import { marketingMessagesEnabled } from './marketing-messages.js';
import { channelProblems } from './channel.problems.js';
import { channelRepository, type ChannelRow } from './channel.repository.js';
import { limitOfCapabilityUpdate, limitOfQualityUpdate, type PortfolioLimit } from './portfolio-limit.js';
import {
  ChannelError,
  type ChannelProvider,
  type CloudConnector,
  type CloudNumber,
  type NumberDescription,
} from './provider.js';
import type { SimulatorProvider } from './simulator.provider.js';

export type ChannelKind = 'simulator' | 'whatsapp-cloud';

/** Meta's default throughput per business number, and the most it grants; 0 lifts Parley's limit. */
export const DEFAULT_MESSAGES_PER_SECOND = 80;
export const MAX_MESSAGES_PER_SECOND = 1000;
export const UNLIMITED = 0;
/** Meta's throughput for a number also used in the WhatsApp Business app (coexistence), whatever was set. */
export const BUSINESS_APP_MESSAGES_PER_SECOND = 20;

/** How far the import of the WhatsApp Business app's chat history has come, as Settings shows it. */
export interface HistoryImport {
  /** Meta's overall progress, 0–100; 100: every chunk has been sent. */
  progress: number;
  /** The phase of the latest chunk: 0 (the last day), 1 (the 90 days before), 2 (the 90 before those). */
  phase: number | null;
  chunks: number;
  /** Messages imported so far (a chunk delivered twice counts once). */
  messages: number;
  /** Meta's reason when the business declined to share its history. */
  declined: string | null;
  updated_at: string;
}

/** A workspace's channel as it may be shown: the access token only as "set". */
export interface Channel {
  /** null: the built-in simulator of a workspace that has no channel. */
  id: string | null;
  provider: ChannelKind;
  phone_number_id: string | null;
  display_phone_number: string | null;
  verified_name: string | null;
  waba_id: string | null;
  access_token_set: boolean;
  messages_per_second: number;
  /** Sends that name no number, to contacts who never wrote to one, go out on the default. */
  is_default: boolean;
  /** Meta's GREEN, YELLOW, RED or UNKNOWN. */
  quality_rating: string | null;
  /** Meta's messaging limit tier (TIER_250 … TIER_UNLIMITED), from its phone_number_quality_update webhooks. */
  messaging_limit_tier: string | null;
  /** The business also uses this number in the WhatsApp Business app (coexistence). */
  business_app: boolean;
  /** The import of the app's chat history; null before Meta sends any. */
  history_import: HistoryImport | null;
  /** Meta took the number's account from this app: its sends wait. Null while connected. */
  disconnection: Disconnection | null;
  /** Meta's latest word on the number's account (a violation, a restriction, its pricing tier, …). */
  account_status: AccountStatus;
  /** The messaging limit Meta last stated for the number's business portfolio; null until Meta says. */
  portfolio_limit: PortfolioLimit | null;
}

export interface CloudSettings {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  messagesPerSecond?: number;
}

/** A channel to add: a WhatsApp Cloud number Meta confirms, or a simulated one (numbered, to be named by sends). */
export type NewChannel =
  ({ provider: 'whatsapp-cloud' } & CloudSettings) | { provider: 'simulator'; phoneNumberId?: string };

const SIMULATOR: Channel = {
  id: null,
  provider: 'simulator',
  phone_number_id: null,
  display_phone_number: null,
  verified_name: null,
  waba_id: null,
  access_token_set: false,
  messages_per_second: DEFAULT_MESSAGES_PER_SECOND,
  is_default: true,
  quality_rating: null,
  messaging_limit_tier: null,
  business_app: false,
  history_import: null,
  disconnection: null,
  account_status: {},
  portfolio_limit: null,
};

/** Where an inbound webhook for a number goes: the workspace and the channel that have it. */
export interface NumberRoute {
  workspaceId: string;
  channelId: string;
}

/** The channel a message goes out on, and its provider. */
export interface SendingChannel {
  /** null: the built-in simulator of a workspace without channels. */
  channelId: string | null;
  provider: ChannelProvider;
  /** Meta disconnected the number: its messages wait until it is connected again. */
  disconnected: boolean;
  /** The workspace sends its marketing templates through Meta's Marketing Messages API. */
  marketingMessages: boolean;
}

/** Meta's word that a number's account was taken from this app: the event, when, and Meta's details. */
export interface Disconnection {
  event: string;
  at: string;
  /** Meta's `disconnection_info`, whole; null when it sent none. */
  info: Record<string, unknown> | null;
}

/** account_update events that take a WABA from this app, and those that give it back. */
const DISCONNECTING_EVENTS = new Set(['PARTNER_REMOVED', 'PARTNER_APP_UNINSTALLED', 'ACCOUNT_DELETED']);
const RECONNECTING_EVENTS = new Set(['PARTNER_ADDED', 'PARTNER_APP_INSTALLED', 'ACCOUNT_RECONNECTED']);

/** The columns a channel's settings set (a default channel given another kind loses the old number's). */
type ChannelSettings = Partial<Omit<ChannelRow, 'id' | 'workspace_id' | 'is_default' | 'created_at' | 'updated_at'>> &
  Pick<ChannelRow, 'provider' | 'messages_per_second'>;

const NO_NUMBER = {
  phone_number_id: null,
  waba_id: null,
  access_token: null,
  display_phone_number: null,
  verified_name: null,
  quality_rating: null,
  messaging_limit_tier: null,
  // A number saved again has been confirmed by Meta: whatever disconnection was noted is over.
  disconnection: null,
};

const isDefault = (row: ChannelRow) => row.is_default === 1;

/** What a process caches of a workspace for its sends: its channels, and its Marketing Messages API setting. */
interface WorkspaceChannels {
  rows: ChannelRow[];
  marketingMessages: boolean;
}

/**
 * Each workspace's channels: any number of WhatsApp Cloud numbers (each confirmed by Meta,
 * `cloud.describeNumber`, before it is saved) and simulated ones; one is the default. A workspace
 * without any sends through the built-in simulator.
 */
export function createChannelService(
  { db, dialect, clock, newId }: Deps,
  secrets: SecretBox,
  cloud: CloudConnector,
  simulator: SimulatorProvider,
) {
  // Channel rows are cached per process for the hot paths (routing each webhook, sending each message).
  // Any change to a channel or to the Marketing Messages API setting, by any process, bumps the
  // deployment generation, which empties the caches.
  const cachedWorkspaces = new GenerationCache(db, async (workspaceId): Promise<WorkspaceChannels> => ({
    rows: await channelRepository(db).listOf(workspaceId),
    marketingMessages: await marketingMessagesEnabled(db, workspaceId),
  }));
  const cachedRoutes = new GenerationCache(db, (phoneNumberId) => routeOf(phoneNumberId));
  const cachedDisconnected = new GenerationCache(db, () => channelRepository(db).disconnectedIds(), 1);

  async function routeOf(phoneNumberId: string): Promise<NumberRoute | null> {
    const channel = await channelRepository(db).cloudChannelOf(phoneNumberId);
    return channel ? { workspaceId: channel.workspace_id, channelId: channel.id } : null;
  }

  /** Keeps the limit Meta stated for a WABA's portfolio on its numbers; returns how many changed (0: none stated). */
  async function keepPortfolioLimit(wabaId: string, limit: PortfolioLimit | null): Promise<number> {
    if (limit === null) return 0;
    return channelRepository(db).setPortfolioLimit(wabaId, JSON.stringify(limit), toStoredTimestamp(clock.now()));
  }

  const channelsOf = async (workspaceId: string) => (await cachedWorkspaces.get(workspaceId)).rows;
  /** Read past the cache: for changes, and for what the caller has just changed. */
  const freshChannelsOf = (workspaceId: string) => channelRepository(db).listOf(workspaceId);

  function providerFor(workspaceId: string, channel: ChannelRow | undefined): ChannelProvider {
    if (channel?.provider !== 'whatsapp-cloud' || !channel.access_token) return simulator.forWorkspace(workspaceId);
    return cloud.provider({
      phoneNumberId: channel.phone_number_id!,
      wabaId: channel.waba_id!,
      accessToken: secrets.open(channel.access_token),
      messagesPerSecond: pacingOf(channel),
    });
  }

  /** A Cloud number's settings once Meta confirms them, as the columns that keep them (token sealed). */
  async function confirmedCloud(workspaceId: string, settings: CloudSettings): Promise<ChannelSettings> {
    const phoneNumberId = requireDigits(settings.phoneNumberId, 'phone_number_id');
    const wabaId = requireDigits(settings.wabaId, 'waba_id');
    const accessToken = settings.accessToken.trim();
    if (!accessToken) throw errors.invalid(commonProblems.problem('access_token', 'must_not_be_empty'));
    const perSecond = messagesPerSecond(settings.messagesPerSecond);
    const number = await requireMetaConfirms(cloud, phoneNumberId, wabaId, accessToken);
    const owner = await routeOf(phoneNumberId);
    if (owner && owner.workspaceId !== workspaceId) throw errors.numberNotConnectable();
    return {
      provider: 'whatsapp-cloud',
      phone_number_id: phoneNumberId,
      waba_id: wabaId,
      access_token: secrets.seal(accessToken),
      messages_per_second: perSecond,
      display_phone_number: number.display_phone_number,
      verified_name: number.verified_name,
      quality_rating: number.quality_rating,
    };
  }

  /**
   * Writes a change to a workspace's channels in one transaction. The unique indexes decide races on
   * `phoneNumberId`: this workspace has it on another channel, or another workspace saved it since the check.
   */
  async function write(
    workspaceId: string,
    phoneNumberId: string | null | undefined,
    change: (channels: ReturnType<typeof channelRepository>) => Promise<void>,
  ): Promise<void> {
    try {
      await db.transaction().execute((trx) => change(channelRepository(trx)));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const own = (await channelRepository(db).listOf(workspaceId)).some(
        (row) => row.phone_number_id === phoneNumberId,
      );
      throw own
        ? errors.taken(channelProblems.problem('phone_number_id', 'number_already_here'))
        : errors.numberNotConnectable();
    }
  }

  /** The default channel as shown (the built-in simulator when the workspace has none). */
  async function defaultChannel(caller: Caller): Promise<Channel> {
    const channel = (await freshChannelsOf(caller.workspaceId)).find(isDefault);
    return channel ? present(channel) : SIMULATOR;
  }

  /** Replaces the default channel's settings, or creates it: `parley channel set`, Settings → Channel. */
  async function replaceDefault(caller: Caller, settings: ChannelSettings): Promise<Channel> {
    const now = toStoredTimestamp(clock.now());
    const current = (await freshChannelsOf(caller.workspaceId)).find(isDefault);
    await write(caller.workspaceId, settings.phone_number_id, async (channels) => {
      if (current) await channels.update(current.id, { ...NO_NUMBER, ...settings, updated_at: now });
      else await channels.insert(newRow(newId(), caller.workspaceId, settings, now, true));
    });
    return defaultChannel(caller);
  }

  return {
    get: defaultChannel,

    /** Every channel of the workspace, the default first; only the built-in simulator when it has none. */
    async list(caller: Caller): Promise<Channel[]> {
      const rows = await freshChannelsOf(caller.workspaceId);
      return rows.length === 0 ? [SIMULATOR] : rows.map(present);
    },

    /** The default channel becomes the simulator. */
    useSimulator: (caller: Caller) =>
      replaceDefault(caller, { provider: 'simulator', messages_per_second: DEFAULT_MESSAGES_PER_SECOND }),

    /**
     * The default channel becomes this WhatsApp Cloud number once Meta confirms, with the given token,
     * that the number is the WABA's. Meta is asked first, so only someone who controls the number ever
     * learns that it cannot be connected because it is connected elsewhere (and then only that).
     */
    async useWhatsappCloud(caller: Caller, settings: CloudSettings): Promise<Channel> {
      return replaceDefault(caller, await confirmedCloud(caller.workspaceId, settings));
    },

    /** Adds a channel; the workspace's first, or one added with `makeDefault`, becomes its default. */
    async add(caller: Caller, channel: NewChannel, makeDefault = false): Promise<Channel> {
      const settings: ChannelSettings =
        channel.provider === 'whatsapp-cloud'
          ? await confirmedCloud(caller.workspaceId, channel)
          : {
              provider: 'simulator',
              messages_per_second: DEFAULT_MESSAGES_PER_SECOND,
              phone_number_id: requireDigits(simulatedNumberId(channel.phoneNumberId), 'phone_number_id'),
            };
      const id = newId();
      const first = (await freshChannelsOf(caller.workspaceId)).length === 0;
      await write(caller.workspaceId, settings.phone_number_id, async (channels) => {
        await channels.insert(newRow(id, caller.workspaceId, settings, toStoredTimestamp(clock.now()), first));
        if (makeDefault && !first) await channels.makeDefault(caller.workspaceId, id);
      });
      return present((await freshChannelsOf(caller.workspaceId)).find((row) => row.id === id)!);
    },

    /**
     * Removes a channel. Its messages keep naming it; messages still queued on it fail rather than go
     * out from another number. When it was the default, the oldest remaining channel becomes the default.
     */
    async remove(caller: Caller, channelId: string): Promise<Channel> {
      const channel = (await freshChannelsOf(caller.workspaceId)).find((row) => row.id === channelId);
      if (!channel) throw errors.notFound('channel', 'channel_id');
      await write(caller.workspaceId, null, async (channels) => {
        await channels.remove(caller.workspaceId, channelId);
        if (!isDefault(channel)) return;
        const next = (await channels.listOf(caller.workspaceId))[0];
        if (next) await channels.makeDefault(caller.workspaceId, next.id);
      });
      return present(channel);
    },

    /** The id of the workspace's channel with this number (a simulated one too); unknown: 422 naming `field`. */
    async channelIdOf(workspaceId: string, phoneNumberId: string, field = 'from_phone_number_id'): Promise<string> {
      const channel = (await channelsOf(workspaceId)).find((row) => row.phone_number_id === phoneNumberId);
      if (!channel) throw errors.unknownNumber(field, phoneNumberId);
      return channel.id;
    },

    /**
     * The only place that knows which provider a channel uses: `channelId`'s while the workspace has
     * it, else the default's, else the built-in simulator. Decrypts the token: callers keep the
     * provider for a batch rather than asking per message.
     */
    async providerOf(workspaceId: string, channelId?: string | null): Promise<ChannelProvider> {
      const channels = await channelsOf(workspaceId);
      return providerFor(workspaceId, channels.find((row) => row.id === channelId) ?? channels.find(isDefault));
    },

    /**
     * The channel a message goes out on: the one it was queued on (`named`; null when that channel was
     * removed: the message must not go out from another number), else the contact's conversation
     * number while the workspace has it, else the default (or the built-in simulator).
     */
    async sendingChannel(
      workspaceId: string,
      named: string | null,
      conversation: string | null,
    ): Promise<SendingChannel | null> {
      const { rows, marketingMessages } = await cachedWorkspaces.get(workspaceId);
      const channel = named
        ? rows.find((row) => row.id === named)
        : (rows.find((row) => row.id === conversation) ?? rows.find(isDefault));
      if (named && !channel) return null;
      return {
        channelId: channel?.id ?? null,
        provider: providerFor(workspaceId, channel),
        disconnected: channel?.disconnection != null,
        marketingMessages,
      };
    },

    /** The channels, in every workspace, whose sends wait because Meta disconnected their numbers. */
    disconnectedChannelIds: (): Promise<string[]> => cachedDisconnected.get('all'),

    /**
     * Meta's `account_update` for a WABA: one that takes the account from this app (PARTNER_REMOVED, …)
     * disconnects its numbers, whose sends then wait; one that gives it back connects them again. One on
     * the account's standing (a violation, a restriction, its pricing tier, …) is kept as its latest word.
     * Returns how many channels it changed.
     */
    async applyAccountUpdate(wabaId: string, value: Record<string, unknown>, occurredAt: Date | null): Promise<number> {
      const reported = formatTimestamp(toStoredTimestamp(occurredAt ?? clock.now()));
      const told = accountFactOf(value, reported);
      if (told !== null) {
        return channelRepository(db).updateAccountStatusOfWaba(
          dialect,
          wabaId,
          (previous: AccountStatus | null) => withAccountFact(previous ?? {}, told.subject, told.fact),
          toStoredTimestamp(clock.now()),
        );
      }
      const event = textOf(value.event);
      if (event === null || !(DISCONNECTING_EVENTS.has(event) || RECONNECTING_EVENTS.has(event))) return 0;
      const at = toStoredTimestamp(clock.now());
      const info = value.disconnection_info;
      const disconnection: Disconnection | null = DISCONNECTING_EVENTS.has(event)
        ? {
            event,
            at: reported,
            info:
              typeof info === 'object' && info !== null && !Array.isArray(info)
                ? (info as Record<string, unknown>)
                : null,
          }
        : null;
      return channelRepository(db).setDisconnection(wabaId, disconnection && JSON.stringify(disconnection), at);
    },

    /** The default channel's saved access token, to keep when its other settings change; null with the simulator. */
    async savedAccessToken(workspaceId: string): Promise<string | null> {
      const channel = (await channelsOf(workspaceId)).find(isDefault);
      return channel?.provider === 'whatsapp-cloud' && channel.access_token ? secrets.open(channel.access_token) : null;
    },

    /** The workspaces connected to a WhatsApp Business Account (template webhooks name the WABA). */
    workspacesOfWaba: (wabaId: string): Promise<string[]> => channelRepository(db).workspacesOfWaba(wabaId),

    /** Routes an inbound webhook: the workspace and channel that have this phone number id. */
    async routeOfNumber(phoneNumberId: string): Promise<NumberRoute | null> {
      return cachedRoutes.get(phoneNumberId);
    },

    /** The workspace whose channel has this phone number id. */
    async workspaceOfNumber(phoneNumberId: string): Promise<string | null> {
      return (await cachedRoutes.get(phoneNumberId))?.workspaceId ?? null;
    },

    /**
     * Meta sent what only a number in the WhatsApp Business app gets (echoes, history, the contact
     * book): the number is paced as Meta paces such numbers from now on.
     */
    async noteBusinessApp(channelId: string): Promise<void> {
      await channelRepository(db).markBusinessApp(channelId, toStoredTimestamp(clock.now()));
    },

    /** A chunk of the app's chat history was imported: its progress, as Settings shows it. */
    async noteHistory(
      channelId: string,
      chunk: { progress: number | null; phase: number | null; messages: number; declined: string | null },
    ): Promise<void> {
      const at = toStoredTimestamp(clock.now());
      await channelRepository(db).updateHistoryImport(dialect, channelId, (previous: HistoryImport | null) => ({
        // Chunks may arrive out of order: the furthest progress Meta reported stands.
        progress: Math.max(previous?.progress ?? 0, chunk.progress ?? 0),
        phase: chunk.phase ?? previous?.phase ?? null,
        chunks: (previous?.chunks ?? 0) + 1,
        messages: (previous?.messages ?? 0) + chunk.messages,
        declined: chunk.declined ?? previous?.declined ?? null,
        updated_at: formatTimestamp(at),
      }));
    },

    /**
     * Meta's `phone_number_quality_update`, which names the number by WABA and display number: keeps its
     * messaging limit tier, and the portfolio's limit on all the WABA's numbers. Returns how many channels it changed.
     */
    async applyQualityUpdate(wabaId: string, value: Record<string, unknown>): Promise<number> {
      const display = textOf(value.display_phone_number)?.replace(/\D/g, '') ?? '';
      // current_limit is being replaced by max_daily_conversations_per_business (Meta, 2026).
      const tier = textOf(value.max_daily_conversations_per_business) ?? textOf(value.current_limit);
      if (display === '' || tier === null) return 0;
      const at = toStoredTimestamp(clock.now());
      const changed = await channelRepository(db).applyFacts(wabaId, display, { messaging_limit_tier: tier }, at);
      const previous = await channelRepository(db).portfolioLimitOf(wabaId);
      await keepPortfolioLimit(
        wabaId,
        limitOfQualityUpdate(
          value,
          previous === null ? null : (JSON.parse(previous) as PortfolioLimit),
          formatTimestamp(at),
        ),
      );
      return changed.length;
    },

    /** Meta's `business_capability_update`: keeps the portfolio's messaging limit on the WABA's numbers. */
    async applyCapabilityUpdate(wabaId: string, value: Record<string, unknown>): Promise<number> {
      const at = toStoredTimestamp(clock.now());
      return keepPortfolioLimit(wabaId, limitOfCapabilityUpdate(value, formatTimestamp(at)));
    },
  };
}

function newRow(id: string, workspaceId: string, settings: ChannelSettings, now: string, isDefault: boolean) {
  return {
    ...NO_NUMBER,
    ...settings,
    id,
    workspace_id: workspaceId,
    is_default: isDefault ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
}

function present(row: ChannelRow): Channel {
  return {
    id: row.id,
    provider: row.provider,
    phone_number_id: row.phone_number_id,
    display_phone_number: row.display_phone_number,
    verified_name: row.verified_name,
    waba_id: row.waba_id,
    access_token_set: row.access_token !== null,
    messages_per_second: pacingOf(row),
    is_default: row.is_default === 1,
    quality_rating: row.quality_rating,
    messaging_limit_tier: row.messaging_limit_tier,
    business_app: row.business_app === 1,
    history_import: row.history_import === null ? null : (JSON.parse(row.history_import) as HistoryImport),
    disconnection: row.disconnection === null ? null : (JSON.parse(row.disconnection) as Disconnection),
    account_status: row.account_status === null ? {} : (JSON.parse(row.account_status) as AccountStatus),
    portfolio_limit: row.portfolio_limit === null ? null : (JSON.parse(row.portfolio_limit) as PortfolioLimit),
  };
}

/** The number's pace: what was set, within Meta's 20 per second for a number also in the WhatsApp Business app. */
function pacingOf(row: Pick<ChannelRow, 'messages_per_second' | 'business_app'>): number {
  if (row.business_app !== 1) return row.messages_per_second;
  const set = row.messages_per_second;
  return set === UNLIMITED ? BUSINESS_APP_MESSAGES_PER_SECOND : Math.min(set, BUSINESS_APP_MESSAGES_PER_SECOND);
}

const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** Refuses credentials Meta does not confirm, naming the field to fix; nothing is saved. */
async function requireMetaConfirms(
  cloud: CloudConnector,
  phoneNumberId: string,
  wabaId: string,
  accessToken: string,
): Promise<CloudNumber> {
  let description: NumberDescription;
  try {
    description = await cloud.describeNumber(phoneNumberId, wabaId, accessToken);
  } catch (error) {
    if (!(error instanceof ChannelError)) throw error;
    const message = `Meta could not be asked about this phone number (${error.message}); nothing was saved, retry`;
    throw errors.conflict(message, { retryable: true });
  }
  if (description.connectable) return description.number;
  const meta = description.metaMessage;
  switch (description.refused) {
    case 'access_token':
      throw errors.invalid(
        meta
          ? channelProblems.problem('access_token', 'token_not_accepted_saying', { meta_message: meta })
          : channelProblems.problem('access_token', 'token_not_accepted'),
      );
    case 'phone_number':
      throw errors.invalid(
        meta
          ? channelProblems.problem('phone_number_id', 'number_not_readable_saying', { meta_message: meta })
          : channelProblems.problem('phone_number_id', 'number_not_readable'),
      );
    case 'waba':
      throw errors.invalid(
        meta
          ? channelProblems.problem('waba_id', 'waba_not_readable_saying', { meta_message: meta })
          : channelProblems.problem('waba_id', 'waba_not_readable'),
      );
    case 'not_in_waba':
      throw errors.invalid(channelProblems.problem('phone_number_id', 'number_not_in_waba'));
  }
}

function requireDigits(value: string, field: string): string {
  const trimmed = value.trim();
  if (!/^\d{1,30}$/.test(trimmed)) throw errors.invalid(channelProblems.problem(field, 'numeric_id'));
  return trimmed;
}

function messagesPerSecond(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MESSAGES_PER_SECOND;
  if (!Number.isInteger(value) || value < UNLIMITED || value > MAX_MESSAGES_PER_SECOND) {
    throw errors.invalid(
      channelProblems.problem('messages_per_second', 'messages_per_second_range', { max: MAX_MESSAGES_PER_SECOND }),
    );
  }
  return value;
}

export type ChannelService = ReturnType<typeof createChannelService>;

/**
 * An added simulated number's id. It is required: a number without one would be a second, nameless
 * built-in simulator that no send could pick (sends name numbers by `from_phone_number_id`).
 */
function simulatedNumberId(phoneNumberId: string | undefined): string {
  if (phoneNumberId) return phoneNumberId;
  throw errors.invalid(channelProblems.problem('phone_number_id', 'simulated_number_id_required'));
}
