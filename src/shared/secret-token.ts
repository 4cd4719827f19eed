import { createHash, randomBytes } from 'node:crypto';

/** A secret for a link, a cookie or an API token: 256 random bits, URL-safe. */
export const newSecretToken = (): string => randomBytes(32).toString('base64url');

/** What is stored of such a secret: its SHA-256 (a slow hash adds nothing at this entropy). */
export const hashOfSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
