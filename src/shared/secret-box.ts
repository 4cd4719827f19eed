import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const VERSION = 'v1';

/** Encrypts secrets at rest (channel access tokens) with AES-256-GCM under one key. */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /**
   * A 32-byte key for one purpose (e.g. signing cursors), derived from the same key with HKDF-SHA256:
   * every process configured with that key derives the same one, and no purpose learns another's.
   */
  deriveKey(purpose: string): Buffer;
}

/**
 * The key comes from PARLEY_ENCRYPTION_KEY (32 bytes, base64) or, by default, from
 * DATA_DIR/secret.key, created with mode 0600 on first use: read when a secret is first sealed or
 * opened, so processes that never touch one (most CLI commands) never create it. Losing the key
 * loses the stored tokens (they can be set again), never other data.
 */
export function loadSecretBox(options: { encryptionKey: string | null; dataDir: string }): SecretBox {
  let key: Buffer | undefined;
  return createSecretBox(
    () => (key ??= options.encryptionKey ? decodeKey(options.encryptionKey) : keyFile(options.dataDir)),
  );
}

function createSecretBox(keyOf: () => Buffer): SecretBox {
  return {
    seal(plaintext) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyOf(), nonce);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, nonce.toString('base64'), body.toString('base64'), cipher.getAuthTag().toString('base64')].join(
        '.',
      );
    },
    open(sealed) {
      const [version, nonce, body, tag] = sealed.split('.');
      if (version !== VERSION || !nonce || !body || !tag) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', keyOf(), Buffer.from(nonce, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
    deriveKey(purpose) {
      return Buffer.from(hkdfSync('sha256', keyOf(), Buffer.alloc(0), `parley:${purpose}`, KEY_BYTES));
    },
  };
}

function decodeKey(encoded: string): Buffer {
  const key = Buffer.from(encoded, 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`PARLEY_ENCRYPTION_KEY must be ${KEY_BYTES} bytes, base64-encoded`);
  return key;
}

function keyFile(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secret.key');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(KEY_BYTES).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return decodeKey(fs.readFileSync(file, 'utf8').trim());
}
