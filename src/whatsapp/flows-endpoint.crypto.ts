import { constants, createCipheriv, createDecipheriv, privateDecrypt } from 'node:crypto';

/**
 * Meta's encryption of a WhatsApp Flows data request and its answer (data_api_version 3.0, "Implementing
 * Endpoint for Flows" → "Request Decryption and Encryption"): a 128-bit AES key encrypted to the number's
 * public key with RSA-OAEP (SHA-256, MGF1 with SHA-256); the body in AES-128-GCM under a 128-bit IV with
 * the 16-byte tag at its end; the answer under the same key and the IV with every bit flipped, base64.
 */
const AES_KEY_BYTES = 16;
const IV_BYTES = 16;
const TAG_BYTES = 16;

/** A request Parley could decrypt: Meta's JSON, and how to encrypt its answer. */
export interface DecryptedFlowRequest {
  request: Record<string, unknown>;
  /** The answer as Meta reads it: base64 of the AES-GCM ciphertext and tag, under the flipped IV. */
  encryptAnswer(answer: object): string;
}

/** Decrypts Meta's `{encrypted_flow_data, encrypted_aes_key, initial_vector}`; null when it cannot (Meta's 421). */
export function decryptFlowRequest(raw: Buffer, privateKeyPem: string): DecryptedFlowRequest | null {
  try {
    const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    const [data, wrappedKey, iv] = [body.encrypted_flow_data, body.encrypted_aes_key, body.initial_vector].map(
      (field) => (typeof field === 'string' ? Buffer.from(field, 'base64') : Buffer.alloc(0)),
    ) as [Buffer, Buffer, Buffer];
    if (iv.length !== IV_BYTES || data.length < TAG_BYTES) return null;
    const key = privateDecrypt(
      { key: privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      wrappedKey,
    );
    if (key.length !== AES_KEY_BYTES) return null;
    const decipher = createDecipheriv('aes-128-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(data.subarray(-TAG_BYTES));
    const clear = Buffer.concat([decipher.update(data.subarray(0, -TAG_BYTES)), decipher.final()]);
    const request = JSON.parse(clear.toString('utf8')) as unknown;
    if (typeof request !== 'object' || request === null || Array.isArray(request)) return null;
    return { request: request as Record<string, unknown>, encryptAnswer: (answer) => encrypt(answer, key, iv) };
  } catch {
    // A wrong key, a tampered body or a bad tag all read as one thing to Meta: not decryptable.
    return null;
  }
}

function encrypt(answer: object, key: Buffer, iv: Buffer): string {
  const flipped = Buffer.from(iv.map((byte) => byte ^ 0xff));
  const cipher = createCipheriv('aes-128-gcm', key, flipped, { authTagLength: TAG_BYTES });
  return Buffer.concat([cipher.update(JSON.stringify(answer), 'utf8'), cipher.final(), cipher.getAuthTag()]).toString(
    'base64',
  );
}
