/**
 * What Meta sends for a number the business also uses in the WhatsApp Business app (coexistence),
 * shaped after Meta's webhook reference, developers.facebook.com/documentation/business-messaging/
 * whatsapp/webhooks/reference/<field>/ (named beside each): the business's messages from the app
 * (smb_message_echoes), the chat history Meta backfills after onboarding (history) and the app's
 * contact book (smb_app_state_sync). Ids, numbers and texts are the tests' own.
 */

type Json = Record<string, unknown>;
/** The business number a change names, and its account. */
export type CoexistenceLine = { phoneNumberId: string; wabaId: string; displayPhoneNumber?: string };

const DISPLAY_PHONE_NUMBER = '15550783881';

function change(line: CoexistenceLine, field: string, parts: Json): Json {
  const value = {
    messaging_product: 'whatsapp',
    metadata: {
      display_phone_number: line.displayPhoneNumber ?? DISPLAY_PHONE_NUMBER,
      phone_number_id: line.phoneNumberId,
    },
    ...parts,
  };
  return { object: 'whatsapp_business_account', entry: [{ id: line.wabaId, changes: [{ value, field }] }] };
}

const unix = (at: Date) => String(Math.floor(at.getTime() / 1000));

/**
 * reference/smb_message_echoes/: messages the business sent from the app, `from` its own display
 * number, `to` the customer; the type object is what a send of that type carries.
 */
export function echoWebhook(
  line: CoexistenceLine,
  echoes: { to: string; wamid: string; at: Date; type?: string; content?: Json }[],
): Json {
  return change(line, 'smb_message_echoes', {
    message_echoes: echoes.map(({ to, wamid, at, type = 'text', content = { body: 'We open at 10 on Sundays.' } }) => ({
      from: line.displayPhoneNumber ?? DISPLAY_PHONE_NUMBER,
      to,
      id: wamid,
      timestamp: unix(at),
      type,
      [type]: content,
    })),
  });
}

/** One message of a history thread: the customer's (`from` their number) or the business's (`from` its own, with `to`). */
export interface HistoryLine {
  from: 'customer' | 'business';
  wamid: string;
  at: Date;
  body: string;
  /** history_context.status: READ, DELIVERED, SENT, PLAYED, ERROR or PENDING. */
  status: string;
}

/**
 * reference/history/: one chunk of the backfill, its phase, order and overall progress, threads by the
 * customer's number; a business message names the customer in `to` ("only included if SMB message echo").
 */
export function historyWebhook(
  line: CoexistenceLine,
  chunk: {
    phase: number;
    chunkOrder: number;
    progress: number;
    threads: { customer: string; messages: HistoryLine[] }[];
  },
): Json {
  const business = line.displayPhoneNumber ?? DISPLAY_PHONE_NUMBER;
  return change(line, 'history', {
    history: [
      {
        metadata: { phase: chunk.phase, chunk_order: chunk.chunkOrder, progress: chunk.progress },
        threads: chunk.threads.map(({ customer, messages }) => ({
          id: customer,
          messages: messages.map((message) => ({
            from: message.from === 'customer' ? customer : business,
            ...(message.from === 'business' && { to: customer }),
            id: message.wamid,
            timestamp: unix(message.at),
            type: 'text',
            text: { body: message.body },
            history_context: { status: message.status },
          })),
        })),
      },
    ],
  });
}

/** reference/history/, "Chat history sharing declined": one entry with Meta's error 2593109 instead of threads. */
export function historyDeclinedWebhook(line: CoexistenceLine): Json {
  return change(line, 'history', {
    history: [
      {
        errors: [
          {
            code: 2593109,
            title: 'History sharing is turned off by the business',
            message: 'History sharing is turned off by the business',
            error_data: { details: 'History sharing is turned off by the business' },
          },
        ],
      },
    ],
  });
}

/** reference/smb_app_state_sync/: contacts added to (with their name) or removed from the app's contact book. */
export function contactBookWebhook(
  line: CoexistenceLine,
  entries: { phone: string; action: 'add' | 'remove'; fullName?: string; at: Date }[],
): Json {
  return change(line, 'smb_app_state_sync', {
    state_sync: entries.map(({ phone, action, fullName, at }) => ({
      type: 'contact',
      contact:
        action === 'add'
          ? { full_name: fullName, first_name: fullName?.split(' ')[0], phone_number: phone }
          : { phone_number: phone },
      action,
      metadata: { timestamp: unix(at) },
    })),
  });
}
