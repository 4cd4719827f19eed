import { createHash } from 'node:crypto';
import { errors } from '../shared/errors.js';
import type { OutboundContent } from '../content/message-content.js';
import type { ChannelProvider, CloudChannel, SendError, SendOutcome, TemplateRefusal } from '../channels/index.js';
import { GraphError, type GraphClient } from './graph-client.js';
import {
  contactsPayload,
  interactivePayload,
  locationPayload,
  mediaPayload,
  reactionPayload,
  templateMessage,
  templatePayload,
  textPayload,
  toGroupPayload,
} from './payloads.js';

/** Send failures that are final for the message: retrying cannot help, and may cost money. */
const FINAL_CODES = new Set([
  131026, // Message undeliverable (not on WhatsApp, old app version, blocked the business…)
  131049, // Not delivered to maintain a healthy ecosystem: Meta's per-user marketing limit
  130472, // The user's number is part of one of Meta's experiments
]);
/** Meta's "Re-engagement message": more than 24 hours since the customer last wrote. */
const WINDOW_CLOSED_CODE = 131047;
/** Throughput (130429) and (business, consumer) pair rate (131056): slow down, then retry. */
const THROTTLED_CODES = new Set([130429, 131056]);

/** The WhatsApp Cloud API as a channel: Meta's documented requests, its errors classified once, here. */
export function whatsappCloudProvider(graph: GraphClient, channel: CloudChannel): ChannelProvider {
  const { phoneNumberId, wabaId, accessToken } = channel;
  return {
    simulated: false,
    pace: channel.messagesPerSecond > 0 ? { key: phoneNumberId, perSecond: channel.messagesPerSecond } : null,

    async send({ messageId, to, toGroup, message, marketingMessages }) {
      try {
        const payload = metaMessage(to, message, messageId);
        const { wamid } = await graph.sendMessage(
          phoneNumberId,
          accessToken,
          toGroup ? toGroupPayload(payload, to) : payload,
          marketingMessages ? 'marketing_messages' : 'messages',
        );
        return {
          outcome: 'accepted',
          providerMessageId: wamid,
          ...(marketingMessages && { via: 'marketing_messages' }),
        };
      } catch (error) {
        if (!(error instanceof GraphError)) throw error;
        return classify(error);
      }
    },

    syncTemplates: () => graph.listTemplates(wabaId, accessToken),

    async fetchMedia(mediaId) {
      try {
        const info = await graph.getMediaInfo(mediaId, accessToken);
        const bytes = await graph.downloadMedia(info.url, accessToken);
        const digest = createHash('sha256').update(bytes).digest();
        const sha256 = digest.toString('hex');
        if (!sha256Matches(digest, info.sha256)) {
          throw errors.conflict(
            `Media ${mediaId} does not match the sha256 Meta reported for it (corrupted in transit?); nothing was stored, retry`,
            { media_id: mediaId, reported_sha256: info.sha256, received_sha256: sha256 },
          );
        }
        return { bytes, sha256, mimeType: info.mime_type };
      } catch (error) {
        if (!(error instanceof GraphError)) throw error;
        // Not a 500: Meta refusing (an expired media id, a revoked token) is the workspace's state, not a bug here.
        throw errors.conflict(`Meta did not serve media ${mediaId}: ${error.message}`, {
          media_id: mediaId,
          meta_code: error.code,
          retryable: error.retryable,
        });
      }
    },

    async markRead(providerMessageId, typing) {
      await graph.markRead(phoneNumberId, accessToken, providerMessageId, typing);
    },

    async uploadMedia(file) {
      try {
        return (await graph.uploadMedia(phoneNumberId, accessToken, file)).id;
      } catch (error) {
        if (!(error instanceof GraphError)) throw error;
        // Meta refusing the file (its type, a revoked token) is the workspace's state, not a bug here.
        throw errors.conflict(`Meta did not take the upload: ${error.message}`, {
          meta_code: error.code,
          retryable: error.retryable,
        });
      }
    },

    submitTemplate: (template) =>
      refusedOr(async () => {
        const created = await graph.createTemplate(wabaId, accessToken, template);
        return { outcome: 'accepted', metaTemplateId: created.id, status: created.status, reviewsAfterMs: null };
      }),

    template: (metaTemplateId) => graph.getTemplate(metaTemplateId, accessToken),

    editTemplate: (metaTemplateId, { category, components, message_send_ttl_seconds }) =>
      refusedOr(async () => {
        const ttl = message_send_ttl_seconds !== undefined && { message_send_ttl_seconds };
        await graph.editTemplate(metaTemplateId, accessToken, { category, components, ...ttl });
        // Meta reviews an edited template again; its answer is `{"success": true}`, the status comes by webhook.
        return { outcome: 'accepted', metaTemplateId, status: 'PENDING', reviewsAfterMs: null };
      }),

    deleteTemplate: (name, metaTemplateId) =>
      refusedOr(async () => {
        await graph.deleteTemplate(wabaId, accessToken, name, metaTemplateId);
        return { outcome: 'deleted' };
      }),

    async createGroup({ subject, description, joinApproval }) {
      const group = {
        messaging_product: 'whatsapp',
        subject,
        ...(description !== null && { description }),
        join_approval_mode: joinApproval ? 'approval_required' : 'auto_approve',
      };
      return (await metaCall('create the group', () => graph.createGroup(phoneNumberId, accessToken, group)))
        .request_id;
    },

    async groupInviteLink(groupId) {
      return (await metaCall('give the invite link', () => graph.groupInviteLink(groupId, accessToken))).invite_link;
    },

    async setFlowsPublicKey(publicKeyPem) {
      await metaCall('take the business public key', () =>
        graph.setBusinessPublicKey(phoneNumberId, accessToken, publicKeyPem),
      );
    },

    async flowsPublicKey() {
      const held = await metaCall('show the business public key', () =>
        graph.businessPublicKey(phoneNumberId, accessToken),
      );
      return (
        held && { publicKey: held.business_public_key, signatureStatus: held.business_public_key_signature_status }
      );
    },

    whatsappFlows: {
      create: async ({ name, categories, cloneFlowId }) => {
        const flow = { name, categories, ...(cloneFlowId !== undefined && { clone_flow_id: cloneFlowId }) };
        return (await metaCall('create the Flow', () => graph.createFlow(wabaId, accessToken, flow))).id;
      },
      uploadJson: (flowId, flowJson) =>
        metaCall('take the Flow JSON', () => graph.uploadFlowJson(flowId, accessToken, flowJson)),
      publish: (flowId) => metaCall('publish the Flow', () => graph.changeFlowStatus(flowId, accessToken, 'publish')),
      deprecate: (flowId) =>
        metaCall('deprecate the Flow', () => graph.changeFlowStatus(flowId, accessToken, 'deprecate')),
      delete: (flowId) => metaCall('delete the Flow', () => graph.deleteFlow(flowId, accessToken)),
      get: (flowId) => metaCall('describe the Flow', () => graph.getFlow(flowId, accessToken)),
      list: () => graph.listFlows(wabaId, accessToken),
    },
  };
}

/**
 * A template call whose refusal by Meta is an answer for the user (a 4xx naming what is wrong), not a
 * failure; Meta being unreachable or overloaded is thrown on as a conflict to retry.
 */
async function refusedOr<T>(call: () => Promise<T>): Promise<T | TemplateRefusal> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    if (error.retryable || error.outcomeUnknown) {
      throw errors.conflict(`Meta did not answer the template request (${error.message}); retry`, {
        meta_code: error.code,
        retryable: true,
      });
    }
    return { outcome: 'refused', reason: error.userMessage ?? error.message };
  }
}

/**
 * A call about the number's set-up (its groups, its Flows, its Flows key): Meta's refusal is the workspace's
 * state (a 409 in Meta's words), not a failure here.
 */
async function metaCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    throw errors.conflict(`Meta did not ${what}: ${error.userMessage ?? error.message}`, {
      meta_code: error.code,
      retryable: error.retryable || error.outcomeUnknown,
    });
  }
}

/**
 * Meta's request for a message. `biz_opaque_callback_data` carries Parley's message id: Meta echoes it
 * in every status webhook of the message, so a send whose answer was lost (a crash) is recognised. A
 * reply carries Meta's `context.message_id`: the customer sees the quoted message above it.
 */
export function metaMessage(to: string, message: OutboundContent, messageId: string): object {
  const context = 'context' in message.content ? message.content.context : undefined;
  return { ...payloadOf(to, message), ...(context && { context }), biz_opaque_callback_data: messageId };
}

/** A stored content without the reply context, which Meta takes beside the message object, not in it. */
function withoutContext<T extends object>(content: T & { context?: unknown }): T {
  const rest: T & { context?: unknown } = { ...content };
  delete rest.context;
  return rest;
}

function payloadOf(to: string, message: OutboundContent): object {
  switch (message.type) {
    case 'text':
      return textPayload(to, message.content.body, message.content.preview_url);
    case 'interactive':
      return interactivePayload(to, message.content.interactive);
    case 'template':
      return templatePayload(to, templateMessage(message.content));
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker':
      return mediaPayload(to, message.type, withoutContext(message.content));
    case 'location':
      return locationPayload(to, withoutContext(message.content));
    case 'contacts':
      return contactsPayload(to, message.content.contacts);
    case 'reaction':
      return reactionPayload(to, message.content);
  }
}

/** Meta's error codes decide (as Meta advises), then whether the call can be retried at all. */
export function classify(error: GraphError): SendOutcome {
  const reason: SendError = { code: error.code, title: error.title, details: error.details };
  if (error.outcomeUnknown) return { outcome: 'unknown', error: reason };
  if (error.code === WINDOW_CLOSED_CODE) return { outcome: 'failed', error: reason, windowClosed: true };
  if (error.code !== null && FINAL_CODES.has(error.code))
    return { outcome: 'failed', error: reason, windowClosed: false };
  const throttled = error.code !== null && THROTTLED_CODES.has(error.code);
  if (throttled || error.retryable)
    return { outcome: 'retry', error: reason, afterMs: error.retryAfterMs ?? null, throttled };
  return { outcome: 'failed', error: reason, windowClosed: false };
}

/** Meta's media endpoint reports hex; its webhooks carry the same digest in base64. */
function sha256Matches(digest: Buffer, reported: string): boolean {
  return reported.toLowerCase() === digest.toString('hex') || reported === digest.toString('base64');
}
