import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { Message } from './message.schema.js';

const server = await startServer();
const sample = (file: string) => fs.readFileSync(new URL(`../../assets/simulator/${file}`, import.meta.url));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function simulate(ws: TestWorkspace, body: object): Promise<Message> {
  const response = await ws.action<Message>('simulate-inbound-message', { phone: '+14155553100', ...body });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

describe(`simulator inbound media (${ENGINE})`, () => {
  for (const [media, file, mimeType] of [
    ['image', 'flowers.png', 'image/png'],
    ['document', 'order.pdf', 'application/pdf'],
    ['audio', 'voice-note.mp3', 'audio/mpeg'],
  ] as const) {
    test(`simulate-inbound-message › a sample ${media} is downloaded into the media store like Meta's files`, async () => {
      const ws = await createWorkspace(server);
      const message = await simulate(ws, { media, ...(media !== 'audio' && { caption: 'For Saturday' }) });
      assert.equal(message.type, media);
      assert.equal(message.content.mime_type, mimeType);
      assert.equal(message.content.sha256, sha256(sample(file)));
      assert.deepEqual(message.media_storage, { state: 'pending', error: null });

      // The same background download a file from Meta gets, through the simulator channel.
      await server.app.services.scheduler.runDue(ws.workspaceId);
      const stored = await ws.action<Message>('get-message', { message_id: message.id });
      assert.deepEqual(stored.body.media_storage, { state: 'stored', error: null }, stored.text);
      const file_ = await ws.action<{ size: number; sha256: string; mime_type: string }>('download-media', {
        message_id: message.id,
      });
      assert.equal(file_.status, 200, file_.text);
      assert.equal(file_.body.size, sample(file).length);
      assert.equal(file_.body.sha256, sha256(sample(file)));
      assert.equal(file_.body.mime_type, mimeType);
    });
  }

  test('simulate-inbound-message › a location and a contact card are stored as Meta delivers them', async () => {
    const ws = await createWorkspace(server);
    const location = await simulate(ws, {
      location: { latitude: 52.52, longitude: 13.405, name: 'Flower shop', address: 'Alexanderplatz 1, Berlin' },
    });
    assert.equal(location.type, 'location');
    assert.deepEqual(location.content, {
      latitude: 52.52,
      longitude: 13.405,
      name: 'Flower shop',
      address: 'Alexanderplatz 1, Berlin',
    });
    const card = await simulate(ws, { contact_card: { name: 'Ada Lovelace', phone: '+44 7911 123456' } });
    assert.equal(card.type, 'contacts');
    assert.deepEqual(card.content, {
      contacts: [
        {
          name: { formatted_name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' },
          phones: [{ phone: '+44 7911 123456', wa_id: '447911123456', type: 'CELL' }],
        },
      ],
    });
  });

  test('simulate-inbound-message › refuses two kinds at once, and a caption without an image or document', async () => {
    const ws = await createWorkspace(server);
    for (const body of [
      { text: 'hi', media: 'image' },
      { media: 'audio', caption: 'x' },
      { caption: 'x', text: 'hi' },
    ]) {
      const response = await ws.action<{ code: string }>('simulate-inbound-message', {
        phone: '+14155553100',
        ...body,
      });
      assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
      assert.equal(response.body.code, 'validation_failed');
    }
  });
});
