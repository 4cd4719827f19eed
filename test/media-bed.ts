/** A WhatsApp Cloud workspace receiving images through signed webhooks, for the media store's tests. */
import assert from 'node:assert/strict';
import { createHash, randomInt } from 'node:crypto';
import type { DownloadedMedia } from '../src/messages/media.js';
import type { Message } from '../src/messages/message.schema.js';
import { inboundMessageWebhook } from '../src/whatsapp/webhook.fixtures.js';
import { ownerSession, type DashboardSession } from './dashboard-session.js';
import { ownerApi, type TestWorkspace } from './factories.js';
import type { WhatsappTestBed } from './whatsapp.js';

export interface MediaShop {
  owner: DashboardSession;
  api: TestWorkspace;
  phoneNumberId: string;
}

/** A workspace whose owner is signed in to the dashboard, with a token and a number on the stand-in. */
export async function mediaShop(bed: WhatsappTestBed): Promise<MediaShop> {
  const owner = await ownerSession(bed.server);
  const { phoneNumberId } = await bed.connect(owner.workspaceId);
  return { owner, api: await ownerApi(bed.server, owner), phoneNumberId };
}

/** A customer sends an image that Meta (the stand-in) holds as `mediaId`; the id of the stored message. */
export async function imageArrives(
  bed: Pick<WhatsappTestBed, 'postWebhook' | 'server'>,
  shop: Pick<MediaShop, 'phoneNumberId' | 'api'>,
  mediaId: string,
  bytes: Buffer,
): Promise<string> {
  const wamid = `wamid.IN${randomInt(1e12)}`;
  const body = inboundMessageWebhook({
    phoneNumberId: shop.phoneNumberId,
    from: '14155550190',
    wamid,
    type: 'image',
    content: { mime_type: 'image/jpeg', sha256: createHash('sha256').update(bytes).digest('base64'), id: mediaId },
  });
  const response = await bed.postWebhook(body);
  assert.equal(response.status, 200, response.text);
  const listed = await shop.api.action<Message[]>('list-messages', { phone: '+14155550190' });
  const message = listed.body.find((m) => m.provider_message_id === wamid);
  assert.ok(message, `the webhook stored the message: ${listed.text}`);
  return message.id;
}

/** get-message's media_storage of a message. */
export async function mediaStorageOf(api: TestWorkspace, messageId: string): Promise<Message['media_storage']> {
  const response = await api.action<Message>('get-message', { message_id: messageId });
  assert.equal(response.status, 200, response.text);
  return response.body.media_storage;
}

export const downloadMedia = (api: TestWorkspace, messageId: string) =>
  api.action<DownloadedMedia & { code: string; detail: string }>('download-media', { message_id: messageId });

/** The dashboard's media route as the inbox's <img> asks for it; the exact bytes it served. */
export async function dashboardBytes(owner: DashboardSession, messageId: string): Promise<Buffer> {
  const response = await owner.send('GET', `/api/dashboard/media/${messageId}`);
  assert.equal(response.status, 200, response.text);
  return response.bytes!;
}

export const newMediaId = () => String(randomInt(1e12, 2e14));
