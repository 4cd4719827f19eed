/**
 * Writes the simulator's sample files (assets/simulator/): a small PNG, a one-page PDF and a short
 * MP3, built byte by byte so no image, PDF or audio tool is needed. Run once; the files are checked in.
 *   node --import tsx scripts/make-simulator-samples.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const folder = path.join(import.meta.dirname, '..', 'assets', 'simulator');

/** A 64×64 RGB PNG: a pink flower with a yellow heart on green. */
function png(): Buffer {
  const size = 64;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0 (None), then RGB
    for (let x = 0; x < size; x++) {
      const [dx, dy] = [x - 32, y - 28];
      const r = Math.hypot(dx, dy);
      const petal = r < 20 + 5 * Math.cos(5 * Math.atan2(dy, dx));
      const stem = Math.abs(x - 32) < 2 && y > 40;
      const colour = r < 7 ? [250, 204, 21] : petal ? [236, 72, 153] : stem ? [21, 128, 61] : [220, 252, 231];
      row.set(colour, 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, truecolour, deflate, no filter set, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page A6 PDF: an order confirmation in Helvetica, with a correct cross-reference table. */
function pdf(): Buffer {
  const text = [
    'BT /F1 16 Tf 24 360 Td (Order #1042) Tj ET',
    'BT /F1 11 Tf 24 330 Td (12 red roses, hand-tied) Tj ET',
    'BT /F1 11 Tf 24 312 Td (Delivery: Saturday morning) Tj ET',
    'BT /F1 11 Tf 24 294 Td (Total: 39.00 EUR) Tj ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 298 420] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const offset = Buffer.byteLength(body);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/**
 * About a second of MP3 (MPEG-1 Layer III, 32 kbit/s, 44.1 kHz, mono): frames whose side information
 * is all zero decode as silence, which any player accepts. A voice note without a voice, but a real file.
 */
function mp3(): Buffer {
  const frameLength = Math.floor((144 * 32_000) / 44_100); // 104 bytes, no padding
  const frame = Buffer.alloc(frameLength);
  frame.set([0xff, 0xfb, 0x10, 0xc0]); // sync, MPEG-1 Layer III no CRC; 32 kbit/s, 44.1 kHz; mono
  return Buffer.concat(Array.from({ length: 39 }, () => frame));
}

fs.mkdirSync(folder, { recursive: true });
fs.writeFileSync(path.join(folder, 'flowers.png'), png());
fs.writeFileSync(path.join(folder, 'order.pdf'), pdf());
fs.writeFileSync(path.join(folder, 'voice-note.mp3'), mp3());
