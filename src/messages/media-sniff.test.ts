import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { ownerSession } from '../../test/dashboard-session.js';
import { createWorkspace, ownerApi, recordInboundMessage } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import { MEDIA_LIMITS } from '../content/media-limits.js';
import { bytesAfterPng, DETECTABLE_AS } from './media-sniff.js';

const server = await startServer();

/** A PNG chunk: length, type, data, CRC (PNG spec). */
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A real 1×1 RGB PNG. */
const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a', 'hex'),
  chunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])),
  chunk('IDAT', deflateSync(Buffer.from([0, 0x2e, 0x8b, 0x57]))),
  chunk('IEND', Buffer.alloc(0)),
]);
/** An empty ZIP archive (its end-of-central-directory record), the part a polyglot hides behind the PNG. */
const ZIP = Buffer.concat([Buffer.from('504b0506', 'hex'), Buffer.alloc(18)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');

interface Problem {
  code: string;
  detail: string;
  declared_mime_type?: string;
  detected_mime_type?: string | null;
  errors?: object[];
}

/** The files stored for a workspace (upload-media keeps each under DATA_DIR/media/<workspace>). */
function storedFiles(workspaceId: string): string[] {
  const folder = path.join(server.config.dataDir, 'media', workspaceId);
  return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
}

describe(`upload-media type checks (${ENGINE})`, () => {
  test('upload-media › the bytes must be of the declared type: a PNG and a PDF are taken; HTML as JPEG and a PNG+ZIP polyglot are 422s, and nothing is stored', async () => {
    const ws = await createWorkspace(server);
    const upload = (bytes: Buffer, mimeType: string) =>
      ws.action<Problem & { media_id: string; type: string }>('upload-media', {
        data: bytes.toString('base64'),
        mime_type: mimeType,
      });

    const html = await upload(HTML, 'image/jpeg');
    assert.equal(html.status, 422, html.text);
    assert.equal(html.body.code, 'media_type_mismatch');
    assert.equal(html.body.declared_mime_type, 'image/jpeg');
    assert.equal(html.body.detected_mime_type, 'text/html');
    assert.match(html.body.detail, /image\/jpeg.*text\/html/);
    assert.deepEqual(html.body.errors, [
      {
        field: 'data',
        message: 'is not image/jpeg',
        code: 'common.not_declared_type',
        params: { mime_type: 'image/jpeg' },
      },
    ]);

    const polyglot = await upload(Buffer.concat([PNG, ZIP]), 'image/png');
    assert.equal(polyglot.status, 422, polyglot.text);
    assert.equal(polyglot.body.code, 'media_type_mismatch');
    assert.match(polyglot.body.detail, /22 bytes follow the PNG's end/);

    const pdfAsPng = await upload(PDF, 'image/png');
    assert.equal(pdfAsPng.body.code, 'media_type_mismatch', pdfAsPng.text);
    assert.equal(pdfAsPng.body.detected_mime_type, 'application/pdf');
    const binaryAsText = await upload(Buffer.from([0x68, 0x69, 0x00, 0xff]), 'text/plain');
    assert.equal(binaryAsText.body.code, 'media_type_mismatch', binaryAsText.text);
    assert.deepEqual(storedFiles(ws.workspaceId), [], 'nothing refused was stored');

    const png = await upload(PNG, 'image/png');
    assert.equal(png.status, 200, png.text);
    assert.equal(png.body.type, 'image');
    const pdf = await upload(PDF, 'application/pdf');
    assert.equal(pdf.status, 200, pdf.text);
    assert.equal(pdf.body.type, 'document');
    assert.deepEqual(storedFiles(ws.workspaceId).sort(), [png.body.media_id, pdf.body.media_id].sort());
  });

  test('dashboard media › an uploaded image is served with its stored type and nosniff; API answers carry nosniff too', async () => {
    const owner = await ownerSession(server);
    const api = await ownerApi(server, owner);
    const contact = await api.action<{ id: string }>('create-contact', { phone: '+14155550142', name: 'Ada' });
    assert.equal(contact.status, 201, contact.text);
    await recordInboundMessage(server, owner.workspaceId, contact.body.id);
    const uploaded = await api.action<{ media_id: string }>('upload-media', {
      data: PNG.toString('base64'),
      mime_type: 'image/png',
    });
    assert.equal(uploaded.status, 200, uploaded.text);
    assert.equal(uploaded.headers['x-content-type-options'], 'nosniff');
    const sent = await api.action<{ id: string }>('send-media-message', {
      contact_id: contact.body.id,
      type: 'image',
      media_id: uploaded.body.media_id,
    });
    assert.equal(sent.status, 200, sent.text);

    const served = await owner.send('GET', `/api/dashboard/media/${sent.body.id}`);
    assert.equal(served.status, 200, served.text);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.equal(served.headers['x-content-type-options'], 'nosniff');
    assert.equal(Number(served.headers['content-length']), PNG.length);

    const pdf = await api.action<{ media_id: string }>('upload-media', {
      data: PDF.toString('base64'),
      mime_type: 'application/pdf',
    });
    const document = await api.action<{ id: string }>('send-media-message', {
      contact_id: contact.body.id,
      type: 'document',
      media_id: pdf.body.media_id,
    });
    assert.equal(document.status, 200, document.text);
    const download = await owner.send('GET', `/api/dashboard/media/${document.body.id}`);
    assert.equal(download.status, 200, download.text);
    assert.equal(download.headers['content-type'], 'application/pdf');
    assert.match(String(download.headers['content-disposition']), /^attachment/);
    assert.equal(download.headers['x-content-type-options'], 'nosniff');
  });
});

describe('media sniffing', () => {
  test('every MIME type WhatsApp takes has a rule for its bytes', () => {
    const accepted = Object.values(MEDIA_LIMITS).flatMap((limit) => limit.mimeTypes);
    assert.deepEqual(
      accepted.filter((mimeType) => !(mimeType in DETECTABLE_AS)),
      [],
    );
  });

  test('bytesAfterPng › counts what follows IEND; a PNG cut before IEND has no end', () => {
    assert.equal(bytesAfterPng(PNG), 0);
    assert.equal(bytesAfterPng(Buffer.concat([PNG, ZIP])), ZIP.length);
    assert.equal(bytesAfterPng(PNG.subarray(0, PNG.length - 6)), null);
  });
});
