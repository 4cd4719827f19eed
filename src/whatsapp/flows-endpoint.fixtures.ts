import { constants, createCipheriv, createDecipheriv, createHmac, publicEncrypt, randomBytes } from 'node:crypto';

/**
 * A WhatsApp Flow client's side of the data endpoint, as Meta documents it in "Implementing Endpoint for
 * Flows" (developers.facebook.com/documentation/business-messaging/whatsapp/flows/guides/implementingyourflowendpoint,
 * "Request Decryption and Encryption", data_api_version 3.0), written from Meta's steps rather than from
 * Parley's code: a fresh 128-bit AES key and 128-bit IV per request; the JSON encrypted with AES-GCM and
 * its 16-byte tag appended; the key encrypted to the number's public key with RSA/ECB/OAEPWithSHA-256AndMGF1Padding;
 * each part base64. The answer is base64 text, decrypted with the same key under the IV with every bit inverted.
 */
export interface EncryptedFlowRequest {
  body: { encrypted_flow_data: string; encrypted_aes_key: string; initial_vector: string };
  /** Decrypts the endpoint's answer (base64 text) as the client does; throws when it was not encrypted so. */
  decryptAnswer(answer: string): unknown;
}

export function encryptFlowRequest(publicKeyPem: string, payload: object): EncryptedFlowRequest {
  const key = randomBytes(16);
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-128-gcm', key, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const wrapped = publicEncrypt(
    { key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    key,
  );
  return {
    body: {
      encrypted_flow_data: data.toString('base64'),
      encrypted_aes_key: wrapped.toString('base64'),
      initial_vector: iv.toString('base64'),
    },
    decryptAnswer(answer) {
      const bytes = Buffer.from(answer, 'base64');
      const inverted = Buffer.from(iv.map((byte) => ~byte & 0xff));
      const decipher = createDecipheriv('aes-128-gcm', key, inverted);
      decipher.setAuthTag(bytes.subarray(-16));
      return JSON.parse(
        Buffer.concat([decipher.update(bytes.subarray(0, -16)), decipher.final()]).toString('utf8'),
      ) as unknown;
    },
  };
}

/** Meta's "Sample Health Check Request Payload". */
export const HEALTH_CHECK_REQUEST = { version: '3.0', action: 'ping' };
/** Meta's "Health Check Response Payload". */
export const HEALTH_CHECK_RESPONSE = { data: { status: 'active' } };

/**
 * Meta's "Sample Data Exchange Request Payload": INIT (no screen or data), data_exchange, BACK. With a
 * `signature`, the request of data_api_version 4.0, which carries the `flow_token_signature` JWT.
 */
export function dataExchangeRequest(fields: {
  action: 'INIT' | 'data_exchange' | 'BACK';
  flowToken: string;
  screen?: string;
  data?: Record<string, unknown>;
  signature?: string;
}) {
  return {
    version: fields.signature === undefined ? '3.0' : '4.0',
    action: fields.action,
    ...(fields.screen !== undefined && { screen: fields.screen }),
    ...(fields.data !== undefined && { data: fields.data }),
    flow_token: fields.flowToken,
    ...(fields.signature !== undefined && { flow_token_signature: fields.signature }),
  };
}

/**
 * The `flow_token_signature` of a data_api_version 4.0 request ("Implementing Endpoint for Flows", Flow
 * JSON 7.3 and later): a JWT (RFC 7519, compact form) over the Flow token, signed HS256 with the app's
 * secret. Written from the JWT steps, not from Parley's check: base64url of the header and of the claims,
 * joined by a dot, and base64url of their HMAC-SHA256.
 */
export function flowTokenSignature(flowToken: string, appSecret: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ flow_token: flowToken })}`;
  return `${signed}.${createHmac('sha256', appSecret).update(signed).digest('base64url')}`;
}

/**
 * Meta's "Sample Error Notification Request Payload", with an error key from its "Error Types Reported via
 * WebHook Alerts or Propagated Back to Endpoint" (developers.facebook.com/docs/whatsapp/flows/reference/error-codes).
 */
export function errorNotificationRequest(flowToken: string, screen: string) {
  return {
    version: '3.0',
    flow_token: flowToken,
    action: 'data_exchange',
    screen,
    data: {
      error: 'payload-schema-error',
      error_message: 'The client received the screen data which are not conforming to screen data schema',
    },
  };
}

/** Meta's "Error Notification Response Payload". */
export const ERROR_NOTIFICATION_RESPONSE = { data: { acknowledged: true } };
