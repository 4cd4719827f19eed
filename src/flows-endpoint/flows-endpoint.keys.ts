import { createPublicKey, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { FlowsPublicKey } from '../channels/index.js';
import type { KeyStatus } from './flows-endpoint.schema.js';

/** Meta's key for Flows: RSA, 2048 bits ("Implementing Endpoint for Flows": upload a 2048-bit RSA public key). */
const MODULUS_BITS = 2048;

/** A new key pair for one number: the public key in SPKI PEM (what Meta takes), the private one in PKCS #8 PEM. */
export async function newKeyPair(): Promise<{ publicKey: string; privateKey: string }> {
  return promisify(generateKeyPair)('rsa', {
    modulusLength: MODULUS_BITS,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

/** What Meta's answer means for the number's registered key (Meta shows the key itself only sometimes). */
export function keyStatusOf(registered: string, held: FlowsPublicKey | null): KeyStatus {
  if (held === null || (held.publicKey !== null && !sameKey(held.publicKey, registered))) return 'missing_at_meta';
  return held.signatureStatus === 'VALID' ? 'valid' : 'mismatch';
}

/** Compares the keys themselves, not how their PEM is wrapped. */
function sameKey(a: string, b: string): boolean {
  try {
    const der = (pem: string) => createPublicKey(pem).export({ type: 'spki', format: 'der' });
    return der(a).equals(der(b));
  } catch {
    return false;
  }
}
