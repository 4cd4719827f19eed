import { LRUCache } from 'lru-cache';
import { isUniqueViolation } from '../db/sql.js';
import type { Caller, Deps } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import type { SecretBox } from '../shared/secret-box.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { ChannelProvider } from './provider.js';
import type { SimulatorProvider } from './simulator.provider.js';
import { GraphError, type GraphClient, type NumberDescription } from './whatsapp-cloud.js';
import { whatsappCloudProvider } from './whatsapp-cloud.provider.js';

export type ChannelKind = 'simulator' | 'whatsapp-cloud';

/** Meta's default throughput per business number, and the most it grants; 0 lifts Parley's limit. */
export const DEFAULT_MESSAGES_PER_SECOND = 80;
export const MAX_MESSAGES_PER_SECOND = 1000;
export const UNLIMITED = 0;

/** A workspace's channel as it may be shown: the access token only as "set". */
export interface Channel {
  provider: ChannelKind;
  phone_number_id: string | null;
  waba_id: string | null;
  access_token_set: boolean;
  messages_per_second: number;
}

/** What the outbox needs to send through WhatsApp Cloud. */
export interface CloudCredentials {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
}

export interface CloudSettings {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  messagesPerSecond?: number;
}

const SIMULATOR: Channel = {
  provider: 'simulator',
  phone_number_id: null,
  waba_id: null,
  access_token_set: false,
  messages_per_second: DEFAULT_MESSAGES_PER_SECOND,
};

/**
 * Channel rows are cached per process for the hot paths (routing each webhook, sending each message).
 * An entry older than CACHE_MS is still served while it is reloaded in the background, so no webhook
 * or send waits for the reload; one older than MAX_STALE_MS (an idle process) is reloaded first. A
 * change made in this process applies at once; one made in another within about a second of traffic,
 * and never later than MAX_STALE_MS.
 */
const CACHE_MS = 1_000;
const MAX_STALE_MS = 5_000;
const CACHE_ENTRIES = 10_000;

/** A cached lookup's value and when it was loaded (performance.now(), as the cache's own clock). */
type Loaded<V> = V & { loadedAt: number };

/** The cached value of `key`: served stale while reloading, up to MAX_STALE_MS (see above). */
function lookup<V extends object>(cache: LRUCache<string, Loaded<V>>, key: string): Promise<Loaded<V>> {
  const current = cache.peek(key, { allowStale: true });
  const servable = current !== undefined && performance.now() - current.loadedAt < MAX_STALE_MS;
  return cache.forceFetch(key, { allowStale: servable });
}

/**
 * Each workspace's channel: the built-in simulator until WhatsApp Cloud credentials are set. Meta
 * must confirm those credentials (`graph.describeNumber`) before they are saved.
 */
export function createChannelService(
  { db, clock }: Deps,
  secrets: SecretBox,
  graph: GraphClient,
  simulator: SimulatorProvider,
) {
  const row = (workspaceId: string) =>
    db.selectFrom('channels').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();

  // Values are wrapped: the cache cannot hold "no channel" as undefined. A save clears entries while
  // other requests may be loading them; ignoreFetchAbort lets those loads finish instead of rejecting.
  const cachedRows = new LRUCache<string, Loaded<{ channel: Awaited<ReturnType<typeof row>> }>>({
    max: CACHE_ENTRIES,
    ttl: CACHE_MS,
    ignoreFetchAbort: true,
    fetchMethod: async (workspaceId) => ({ channel: await row(workspaceId), loadedAt: performance.now() }),
  });
  const cachedOwners = new LRUCache<string, Loaded<{ workspaceId: string | null }>>({
    max: CACHE_ENTRIES,
    ttl: CACHE_MS,
    ignoreFetchAbort: true,
    fetchMethod: async (phoneNumberId) => {
      const channel = await db
        .selectFrom('channels')
        .select('workspace_id')
        .where('phone_number_id', '=', phoneNumberId)
        .where('provider', '=', 'whatsapp-cloud')
        .executeTakeFirst();
      return { workspaceId: channel?.workspace_id ?? null, loadedAt: performance.now() };
    },
  });

  async function save(workspaceId: string, fields: Omit<Parameters<typeof upsertValues>[0], 'workspaceId'>) {
    const values = upsertValues({ workspaceId, ...fields }, toStoredTimestamp(clock.now()));
    const { provider, phone_number_id, waba_id, access_token, messages_per_second, updated_at } = values;
    const changes = { provider, phone_number_id, waba_id, access_token, messages_per_second, updated_at };
    await db
      .insertInto('channels')
      .values(values)
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet(changes))
      .execute();
    cachedRows.delete(workspaceId);
    cachedOwners.clear(); // the number may have moved to or from this workspace
  }

  return {
    async get(caller: Caller): Promise<Channel> {
      const channel = await row(caller.workspaceId);
      if (!channel) return SIMULATOR;
      return {
        provider: channel.provider,
        phone_number_id: channel.phone_number_id,
        waba_id: channel.waba_id,
        access_token_set: channel.access_token !== null,
        messages_per_second: channel.messages_per_second,
      };
    },

    async useSimulator(caller: Caller): Promise<Channel> {
      await save(caller.workspaceId, { provider: 'simulator', phoneNumberId: null, wabaId: null, accessToken: null });
      return this.get(caller);
    },

    /**
     * Connects a WhatsApp Cloud number once Meta confirms, with the given token, that the number is
     * the WABA's. Meta is asked first, so only someone who controls the number ever learns that it
     * cannot be connected because it is connected elsewhere (and then only that).
     */
    async useWhatsappCloud(caller: Caller, settings: CloudSettings): Promise<Channel> {
      const phoneNumberId = requireDigits(settings.phoneNumberId, 'phone_number_id');
      const wabaId = requireDigits(settings.wabaId, 'waba_id');
      const accessToken = settings.accessToken.trim();
      if (!accessToken) throw errors.validation('access_token', 'must not be empty');
      const perSecond = messagesPerSecond(settings.messagesPerSecond);
      await requireMetaConfirms(graph, phoneNumberId, wabaId, accessToken);
      const owner = (await cachedOwners.forceFetch(phoneNumberId, { forceRefresh: true })).workspaceId;
      if (owner && owner !== caller.workspaceId) throw errors.numberNotConnectable();
      const cloud = { phoneNumberId, wabaId, accessToken: secrets.seal(accessToken), messagesPerSecond: perSecond };
      // Another workspace may have saved the number since the check: the unique index decides.
      await save(caller.workspaceId, { provider: 'whatsapp-cloud', ...cloud }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? errors.numberNotConnectable() : error;
      });
      return this.get(caller);
    },

    /**
     * `providerFor(channel)`: the only place that knows which provider a workspace's channel uses — the
     * simulator until WhatsApp Cloud credentials are saved. Decrypts the token: callers keep the
     * provider for a batch rather than asking per message.
     */
    async providerOf(workspaceId: string): Promise<ChannelProvider> {
      const { channel } = await lookup(cachedRows, workspaceId);
      if (channel?.provider !== 'whatsapp-cloud' || !channel.access_token) return simulator.forWorkspace(workspaceId);
      return whatsappCloudProvider(graph, {
        phoneNumberId: channel.phone_number_id!,
        wabaId: channel.waba_id!,
        accessToken: secrets.open(channel.access_token),
        messagesPerSecond: channel.messages_per_second,
      });
    },

    /** The saved access token, to keep when the number's other settings change; null with the simulator. */
    async savedAccessToken(workspaceId: string): Promise<string | null> {
      const { channel } = await lookup(cachedRows, workspaceId);
      return channel?.provider === 'whatsapp-cloud' && channel.access_token ? secrets.open(channel.access_token) : null;
    },

    /** The workspaces connected to a WhatsApp Business Account (template webhooks name the WABA). */
    async workspacesOfWaba(wabaId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('channels')
        .select('workspace_id')
        .where('waba_id', '=', wabaId)
        .where('provider', '=', 'whatsapp-cloud')
        .execute();
      return rows.map((row) => row.workspace_id);
    },

    /** Routes an inbound webhook: the workspace whose channel has this phone number id. */
    async workspaceOfNumber(phoneNumberId: string): Promise<string | null> {
      return (await lookup(cachedOwners, phoneNumberId)).workspaceId;
    },
  };
}

function upsertValues(
  fields: {
    workspaceId: string;
    provider: ChannelKind;
    phoneNumberId: string | null;
    wabaId: string | null;
    accessToken: string | null;
    messagesPerSecond?: number;
  },
  now: string,
) {
  return {
    workspace_id: fields.workspaceId,
    provider: fields.provider,
    phone_number_id: fields.phoneNumberId,
    waba_id: fields.wabaId,
    access_token: fields.accessToken,
    messages_per_second: fields.messagesPerSecond ?? DEFAULT_MESSAGES_PER_SECOND,
    created_at: now,
    updated_at: now,
  };
}

/** Refuses credentials Meta does not confirm, naming the field to fix; nothing is saved. */
async function requireMetaConfirms(
  graph: GraphClient,
  phoneNumberId: string,
  wabaId: string,
  accessToken: string,
): Promise<void> {
  let description: NumberDescription;
  try {
    description = await graph.describeNumber(phoneNumberId, wabaId, accessToken);
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    const message = `Meta could not be asked about this phone number (${error.message}); nothing was saved, retry`;
    throw errors.conflict(message, { retryable: true });
  }
  if (description.connectable) return;
  const meta = description.metaMessage ? ` Meta says: ${description.metaMessage}` : '';
  switch (description.refused) {
    case 'access_token':
      throw errors.validation('access_token', `Meta does not accept this access token.${meta}`);
    case 'phone_number':
      throw errors.validation('phone_number_id', `This access token cannot read this phone number id at Meta.${meta}`);
    case 'waba':
      throw errors.validation(
        'waba_id',
        `This access token cannot read this WhatsApp Business Account id at Meta.${meta}`,
      );
    case 'not_in_waba':
      throw errors.validation(
        'phone_number_id',
        "This phone number id is not one of the WhatsApp Business Account id's phone numbers.",
      );
  }
}

function requireDigits(value: string, field: string): string {
  const trimmed = value.trim();
  if (!/^\d{1,30}$/.test(trimmed)) throw errors.validation(field, "must be Meta's numeric id");
  return trimmed;
}

function messagesPerSecond(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MESSAGES_PER_SECOND;
  if (!Number.isInteger(value) || value < UNLIMITED || value > MAX_MESSAGES_PER_SECOND) {
    throw errors.validation(
      'messages_per_second',
      `must be a whole number from 1 to ${MAX_MESSAGES_PER_SECOND}, or 0 for no limit`,
    );
  }
  return value;
}

export type ChannelService = ReturnType<typeof createChannelService>;
