import assert from 'node:assert/strict';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { asClient, createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import { createGraphClient, GraphError } from '../whatsapp/graph-client.js';
import { inboundMessageWebhook, inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import type { DownloadedMedia } from './media.js';

const { graph, server, cloudWorkspace, postWebhook } = await startWhatsappServer();
const api = server.http;

/** Posts a signed webhook body; returns the stored message's id. */
async function received(cloud: CloudWorkspace, body: Record<string, unknown>, wamid: string): Promise<string> {
  const response = await postWebhook(body);
  assert.equal(response.status, 200, response.text);
  const message = await server.app.services.deps.db
    .selectFrom('messages')
    .select('id')
    .where('workspace_id', '=', cloud.ws.workspaceId)
    .where('provider_message_id', '=', wamid)
    .executeTakeFirst();
  assert.ok(message, 'the webhook stored the message');
  return message.id;
}

/** A customer sends an image that the stand-in holds as `mediaId`; returns the message id. */
async function imageReceived(cloud: CloudWorkspace, mediaId: string, bytes: Buffer): Promise<string> {
  const wamid = `wamid.IN${randomInt(1e9)}`;
  const sha256 = createHash('sha256').update(bytes).digest('base64'); // webhooks carry base64
  const body = inboundMessageWebhook({
    phoneNumberId: cloud.phoneNumberId,
    from: '14155550180',
    wamid,
    type: 'image',
    content: { caption: 'the receipt', mime_type: 'image/jpeg', sha256, id: mediaId },
  });
  return received(cloud, body, wamid);
}

const download = (ws: TestWorkspace, messageId: string) =>
  asClient(api, ws).action<DownloadedMedia & { code: string; detail: string }>('download-media', {
    message_id: messageId,
  });
const newMediaId = () => String(randomInt(1e12, 2e14));
const mediaDir = (ws: TestWorkspace) => path.join(server.config.dataDir, 'media', ws.workspaceId);

describe(`download-media (${ENGINE})`, () => {
  test('download-media › fetches an inbound image into DATA_DIR; the second call is served from the file', async () => {
    const cloud = await cloudWorkspace();
    const mediaId = newMediaId();
    const bytes = randomBytes(64 * 1024);
    graph.setMedia(mediaId, { bytes, mime_type: 'image/jpeg' });
    const messageId = await imageReceived(cloud, mediaId, bytes);

    const before = graph.requests.length;
    const first = await download(cloud.ws, messageId);
    assert.equal(first.status, 200, first.text);
    const expected = {
      message_id: messageId,
      media_id: mediaId,
      mime_type: 'image/jpeg',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      path: `media/${cloud.ws.workspaceId}/${mediaId}`,
    };
    assert.deepEqual(first.body, expected);
    assert.deepEqual(fs.readFileSync(path.join(server.config.dataDir, first.body.path)), bytes);
    const [info, file] = graph.requests.slice(before);
    assert.equal(info?.path, `/${API_VERSION}/${mediaId}`);
    assert.equal(info?.headers.authorization, `Bearer ${cloud.accessToken}`);
    assert.match(file?.path ?? '', new RegExp(`^/whatsapp_business/attachments/\\?mid=${mediaId}&`));
    assert.equal(file?.headers.authorization, `Bearer ${cloud.accessToken}`);
    assert.deepEqual(fs.readdirSync(mediaDir(cloud.ws)), [mediaId], 'no temporary file is left behind');

    const requests = graph.requests.length;
    const second = await download(cloud.ws, messageId);
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.body, expected);
    assert.equal(graph.requests.length, requests, 'the second call does not reach Meta');
  });

  test('download-media › a text message is a 422 message_has_no_media; another workspace’s message is a 404', async () => {
    const cloud = await cloudWorkspace();
    const wamid = `wamid.IN${randomInt(1e9)}`;
    const text = inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from: '14155550181', wamid, text: 'hi' });
    const textId = await received(cloud, text, wamid);
    const refused = await download(cloud.ws, textId);
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.code, 'message_has_no_media');
    assert.match(refused.body.detail, /text message/);

    const mediaId = newMediaId();
    const bytes = randomBytes(1024);
    graph.setMedia(mediaId, { bytes, mime_type: 'image/jpeg' });
    const imageId = await imageReceived(cloud, mediaId, bytes);
    const stranger = await createWorkspace(server);
    const before = graph.requests.length;
    const hidden = await download(stranger, imageId);
    assert.equal(hidden.status, 404, hidden.text);
    assert.equal(hidden.body.code, 'not_found');
    const unknown = await download(cloud.ws, '01900000-0000-7000-8000-000000000000');
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(graph.requests.length, before, 'refusals never reach Meta');
  });

  test('download-media › a file that does not match Meta’s sha256 is refused and nothing is written', async () => {
    const cloud = await cloudWorkspace();
    const mediaId = newMediaId();
    const bytes = randomBytes(2048);
    graph.setMedia(mediaId, { bytes, mime_type: 'image/jpeg', sha256: createHash('sha256').update('x').digest('hex') });
    const messageId = await imageReceived(cloud, mediaId, bytes);
    const refused = await download(cloud.ws, messageId);
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'conflict');
    assert.match(refused.body.detail, /does not match the sha256 Meta reported/);
    assert.equal(fs.existsSync(mediaDir(cloud.ws)), false, 'nothing is written');
  });

  test('download-media › a read-only token is refused with 403: it would write a file and call Meta', async () => {
    const cloud = await cloudWorkspace();
    const mediaId = newMediaId();
    const bytes = randomBytes(1024);
    graph.setMedia(mediaId, { bytes, mime_type: 'image/jpeg' });
    const messageId = await imageReceived(cloud, mediaId, bytes);
    const issued = await server.app.services.tokens.create({
      workspaceId: cloud.ws.workspaceId,
      userId: cloud.ws.userId,
      name: 'read-only',
      scope: 'read',
    });
    const reader = asClient(api, { ...cloud.ws, token: issued.token, tokenId: issued.id });

    const before = graph.requests.length;
    const refused = await download(reader, messageId);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.code, 'insufficient_scope');
    assert.equal(graph.requests.length, before, 'Meta is not asked');
    assert.equal(fs.existsSync(mediaDir(cloud.ws)), false, 'nothing is downloaded');
  });

  test('download-media › Meta’s refusal and a workspace on the simulator are 409s', async () => {
    const cloud = await cloudWorkspace();
    const messageId = await imageReceived(cloud, newMediaId(), randomBytes(16)); // unknown to the stand-in
    const gone = await download(cloud.ws, messageId);
    assert.equal(gone.status, 409, gone.text);
    assert.match(gone.body.detail, /^Meta did not serve media \d+: \(#100\)/);
    assert.equal((gone.body as unknown as { meta_code: number }).meta_code, 100);

    await server.app.services.channels.useSimulator({ workspaceId: cloud.ws.workspaceId });
    const simulator = await download(cloud.ws, messageId);
    assert.equal(simulator.status, 409, simulator.text);
    assert.match(simulator.body.detail, /simulator/);
  });
});

describe('graph client › media', () => {
  const client = createGraphClient({ graphUrl: graph.url, apiVersion: API_VERSION, maxMediaBytes: 1024 });
  after(() => client.close());
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => assert.fail('expected a GraphError'),
      (error: unknown) => {
        assert.ok(error instanceof GraphError, String(error));
        return error;
      },
    );

  test('getMediaInfo › reads Meta’s answer, file_size as a number or a numeric string', async () => {
    const mediaId = newMediaId();
    graph.setMedia(mediaId, { bytes: Buffer.from('%PDF-1.7'), mime_type: 'application/pdf' });
    const info = await client.getMediaInfo(mediaId, graph.accessToken);
    assert.equal(info.mime_type, 'application/pdf');
    assert.equal(info.file_size, 8);
    assert.deepEqual(await client.downloadMedia(info.url, graph.accessToken), Buffer.from('%PDF-1.7'));
    const body = { messaging_product: 'whatsapp', url: info.url, mime_type: 'image/jpeg', sha256: 'ab', id: mediaId };
    graph.failNext({ status: 200, body: { ...body, file_size: '303833' } });
    assert.equal((await client.getMediaInfo(mediaId, graph.accessToken)).file_size, 303833);
  });

  test('downloadMedia › follows a redirect on the same origin only, refuses plain http and caps the size', async () => {
    const mediaId = newMediaId();
    graph.setMedia(mediaId, { bytes: Buffer.from('OggS'), mime_type: 'audio/ogg' });
    const { url } = await client.getMediaInfo(mediaId, graph.accessToken);
    graph.failNext({ status: 302, body: '', headers: { location: url } });
    assert.deepEqual(await client.downloadMedia(`${graph.url}/moved`, graph.accessToken), Buffer.from('OggS'));

    graph.failNext({ status: 302, body: '', headers: { location: 'https://elsewhere.example/file' } });
    const before = graph.requests.length;
    const away = await failure(client.downloadMedia(url, graph.accessToken));
    assert.match(away.message, /leaves/);
    assert.equal(graph.requests.length, before + 1, 'the redirect is not followed');
    assert.match(
      (await failure(client.downloadMedia('http://elsewhere.example/f', graph.accessToken))).message,
      /https/,
    );

    const big = newMediaId();
    graph.setMedia(big, { bytes: randomBytes(2048), mime_type: 'video/mp4' });
    const large = await client.getMediaInfo(big, graph.accessToken);
    const tooLarge = await failure(client.downloadMedia(large.url, graph.accessToken));
    assert.equal(tooLarge.title, 'Media too large');
    assert.equal(tooLarge.retryable, false);
    graph.failNext({ status: 200, body: 'x'.repeat(2048) }); // chunked: no Content-Length to refuse early
    assert.equal((await failure(client.downloadMedia(large.url, graph.accessToken))).title, 'Media too large');
  });
});
