import type { Amendment } from '../channels/index.js';

/** An inbound message as the webhook parser hands it over. */
export interface InboundMessage {
  /** The sender's wa_id digits (or an E.164 phone), null when Meta names them only by user id. */
  from: string | null;
  /** The sender's business-scoped user id. */
  userId: string | null;
  profileName: string | null;
  wamid: string;
  timestamp: Date;
  type: string;
  /** The type object, with Meta's `context`, `referral` and `identity` when sent. */
  content: Record<string, unknown>;
  /** An edit or revocation of an earlier message. */
  amends: Amendment | null;
  /** The channel (business number) it came in on; absent for the simulator's built-in channel. */
  channelId?: string | null;
}
