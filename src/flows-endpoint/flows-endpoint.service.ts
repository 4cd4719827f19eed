import { AppError, errors } from '../shared/errors.js';
import type { ChannelService } from '../channels/index.js';
import type { Deps } from '../db/deps.js';
import { newSigningSecret, savedTargetProblem } from '../outgoing/index.js';
import type { Caller } from '../shared/context.js';
import type { SecretBox } from '../shared/secret-box.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { keyStatusOf, newKeyPair } from './flows-endpoint.keys.js';
import { createParleyAnswers } from './flows-endpoint.parley.js';
import { flowsEndpointRepository, type FlowsEndpointRow } from './flows-endpoint.repository.js';
import { createFlowsRelay, type RelayOutcome } from './flows-endpoint.relay.js';
import type { Answerer, FlowsEndpoint, KeyStatus } from './flows-endpoint.schema.js';
import { checkScreenAnswers, type ScreenAnswer } from './flows-endpoint.screens.js';

/** Where Meta sends a number's Flows data requests (the adapter serves it). */
export const FLOWS_ENDPOINT_PATH = '/webhooks/whatsapp/flows';

/** An error notification of Meta's Flow client (its `data.error`, `data.error_message`). */
export interface FlowsErrorNotification {
  error: string;
  errorMessage: string | null;
  screen: string | null;
  flowToken: string | null;
}

/**
 * A number's endpoint opened for one of Meta's requests: its private key, who answers a screen (the
 * business's endpoint, relayed, or Parley's screen table), and where Meta's error notifications are kept.
 */
export interface OpenedEndpoint {
  privateKey: string;
  relay: (request: Record<string, unknown>) => Promise<RelayOutcome>;
  noteError: (notification: FlowsErrorNotification) => Promise<void>;
}

/**
 * WhatsApp Flows' data endpoint of each number: the key pair Meta encrypts to (generated here, the
 * private key sealed with the secret box and opened only for the request that needs it, the public key
 * registered with Meta through the channel), and the business's own endpoint that screens are relayed to.
 */
export function createFlowsEndpointService(
  { db, clock, newId }: Deps,
  secrets: SecretBox,
  channels: ChannelService,
  options: { allowPrivate: boolean; publicBaseUrl: string },
) {
  const relay = createFlowsRelay({ allowPrivate: options.allowPrivate, clock, newId });
  const parley = createParleyAnswers(db, clock);
  const now = () => toStoredTimestamp(clock.now());

  async function present(channelId: string, row: FlowsEndpointRow | undefined): Promise<FlowsEndpoint> {
    const registered = row?.public_key ?? null;
    const notifications = await flowsEndpointRepository(db).errorsOf(channelId);
    return {
      channel_id: channelId,
      endpoint_url: `${options.publicBaseUrl}${FLOWS_ENDPOINT_PATH}/${channelId}`,
      key_status: registered === null ? 'not_set_up' : (row!.key_status as KeyStatus),
      public_key: registered,
      key_registered_at: formatTimestamp(row?.key_registered_at ?? null),
      key_checked_at: formatTimestamp(row?.key_checked_at ?? null),
      business_endpoint_url: row?.business_url ?? null,
      answered_by: (row?.answered_by ?? 'business_endpoint') as Answerer,
      screen_answers: screensOf(row?.screen_answers ?? null),
      error_notifications: notifications.map((n) => ({
        error: n.error,
        error_message: n.error_message,
        screen: n.screen,
        flow_token: n.flow_token,
        received_at: formatTimestamp(n.received_at),
      })),
    };
  }

  /** Who answers the screens of a number opened for a request. */
  function answererOf(channelId: string, row: NonNullable<Awaited<ReturnType<typeof secretsOf>>>) {
    if (row.answered_by === 'parley') {
      const target = { channelId, workspaceId: row.workspace_id, rows: screensOf(row.screen_answers) };
      return (request: Record<string, unknown>) => parley(target, request);
    }
    const target =
      row.business_url && row.business_secret
        ? { url: row.business_url, secret: secrets.open(row.business_secret) }
        : null;
    return (request: Record<string, unknown>): Promise<RelayOutcome> =>
      target
        ? relay.relay(target, request)
        : Promise.resolve({ outcome: 'failed', reason: 'the number has no business endpoint' });
  }

  const secretsOf = (channelId: string) => flowsEndpointRepository(db).secretsOf(channelId);

  /** The caller's channel, or a 404 naming `channel_id`. */
  async function requireChannel(caller: Caller, channelId: string): Promise<void> {
    if (!(await channels.list(caller)).some((channel) => channel.id === channelId)) {
      throw errors.notFound('channel', 'channel_id');
    }
  }

  /** Meta's word on the registered key now; null when Meta could not be asked (the stored word stands). */
  async function askMeta(caller: Caller, channelId: string, registered: string): Promise<KeyStatus | null> {
    const provider = await channels.providerOf(caller.workspaceId, channelId);
    try {
      return keyStatusOf(registered, await provider.flowsPublicKey());
    } catch (error) {
      if (error instanceof AppError && error.code === 'conflict') return null;
      throw error;
    }
  }

  return {
    /**
     * A new key pair for the number: Meta takes the public key first (a refusal is a 409 in Meta's words,
     * and the key in use stays), then the pair replaces the number's previous one.
     */
    async setUpEncryption(caller: Caller, channelId: string): Promise<FlowsEndpoint> {
      await requireChannel(caller, channelId);
      const keys = await newKeyPair();
      await (await channels.providerOf(caller.workspaceId, channelId)).setFlowsPublicKey(keys.publicKey);
      // Meta signs a key as it takes it: valid unless it says otherwise.
      const status = (await askMeta(caller, channelId, keys.publicKey)) ?? 'valid';
      const at = now();
      await flowsEndpointRepository(db).save(caller.workspaceId, channelId, {
        private_key: secrets.seal(keys.privateKey),
        public_key: keys.publicKey,
        key_status: status,
        key_registered_at: at,
        key_checked_at: at,
        updated_at: at,
      });
      return present(channelId, await flowsEndpointRepository(db).find(caller.workspaceId, channelId));
    },

    /** The number's endpoint, with Meta's current word on its key (the last one when Meta cannot be asked). */
    async get(caller: Caller, channelId: string): Promise<FlowsEndpoint> {
      await requireChannel(caller, channelId);
      const repository = flowsEndpointRepository(db);
      const row = await repository.find(caller.workspaceId, channelId);
      const status = row?.public_key ? await askMeta(caller, channelId, row.public_key) : null;
      if (status === null) return present(channelId, row);
      const at = now();
      await repository.save(caller.workspaceId, channelId, { key_status: status, key_checked_at: at, updated_at: at });
      return present(channelId, { ...row!, key_status: status, key_checked_at: at });
    },

    /**
     * Chooses who answers the number's screens and sets Parley's screen table (kept either way, so the
     * person can switch back and forth without writing it again).
     */
    async setScreenAnswers(
      caller: Caller,
      channelId: string,
      answeredBy: Answerer,
      rows: ScreenAnswer[],
    ): Promise<FlowsEndpoint> {
      await requireChannel(caller, channelId);
      checkScreenAnswers(rows);
      const repository = flowsEndpointRepository(db);
      await repository.save(caller.workspaceId, channelId, {
        answered_by: answeredBy,
        screen_answers: JSON.stringify(rows),
        updated_at: now(),
      });
      return present(channelId, await repository.find(caller.workspaceId, channelId));
    },

    /**
     * Sets (or, with null, removes) the business's endpoint that screens are relayed to, checked as an
     * outgoing webhook's URL is; each one set gets a new signing secret, shown only in this answer.
     */
    async setBusinessEndpoint(
      caller: Caller,
      channelId: string,
      url: string | null,
    ): Promise<FlowsEndpoint & { signing_secret: string | null }> {
      await requireChannel(caller, channelId);
      const problem = url === null ? null : await savedTargetProblem(url, options.allowPrivate);
      if (problem) throw errors.invalid(problem);
      const secret = url === null ? null : newSigningSecret();
      const repository = flowsEndpointRepository(db);
      await repository.save(caller.workspaceId, channelId, {
        business_url: url,
        business_secret: secret && secrets.seal(secret),
        updated_at: now(),
      });
      return {
        ...(await present(channelId, await repository.find(caller.workspaceId, channelId))),
        signing_secret: secret,
      };
    },

    /** The number's endpoint opened for one request of Meta's; null when it has no key (Meta then fetches it again). */
    async opened(channelId: string): Promise<OpenedEndpoint | null> {
      const row = await secretsOf(channelId);
      if (!row?.private_key) return null;
      return {
        privateKey: secrets.open(row.private_key),
        relay: answererOf(channelId, row),
        noteError: (notification) =>
          flowsEndpointRepository(db).noteError({
            id: newId(),
            channel_id: channelId,
            flow_token: notification.flowToken,
            screen: notification.screen,
            error: notification.error,
            error_message: notification.errorMessage,
            received_at: now(),
          }),
      };
    },

    close: () => relay.close(),
  };
}

export type FlowsEndpointService = ReturnType<typeof createFlowsEndpointService>;

/** A number's screen table as kept (JSON text, checked when it was set). */
function screensOf(text: string | null): ScreenAnswer[] {
  return text === null ? [] : (JSON.parse(text) as ScreenAnswer[]);
}
