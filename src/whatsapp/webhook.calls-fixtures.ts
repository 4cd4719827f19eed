/**
 * What Meta sends of WhatsApp calls (the Calling API), shaped after Meta's pages
 * developers.facebook.com/documentation/business-messaging/whatsapp/calling/user-initiated-calls
 * (a customer's call: connect with an SDP offer, terminate with its times) and
 * …/calling/business-initiated-calls (the business's call: connect with an SDP answer, its RINGING,
 * ACCEPTED or REJECTED status, terminate), all on the `calls` field; and …/calling/user-call-permissions
 * (a customer's answer to a call permission request, an interactive message on the `messages` field).
 * Ids, numbers and times are the tests' own.
 */

type Json = Record<string, unknown>;
/** The business number a change names, and its account. */
export type CallLine = { phoneNumberId: string; wabaId: string };

const DISPLAY_PHONE_NUMBER = '15550783881';
const SDP = 'v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';
const unix = (at: Date) => String(Math.floor(at.getTime() / 1000));

function callsChange(line: CallLine, parts: Json): Json {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: DISPLAY_PHONE_NUMBER, phone_number_id: line.phoneNumberId },
    ...parts,
  };
  return { object: 'whatsapp_business_account', entry: [{ id: line.wabaId, changes: [{ value, field: 'calls' }] }] };
}

export interface CallStep {
  callId: string;
  /** The customer's wa_id. */
  customer: string;
  at: Date;
  direction: 'USER_INITIATED' | 'BUSINESS_INITIATED';
}

/** The caller and callee as Meta writes them: the customer calls the business, or the business them. */
const parties = ({ customer, direction }: CallStep) =>
  direction === 'USER_INITIATED'
    ? { from: customer, to: DISPLAY_PHONE_NUMBER }
    : { from: DISPLAY_PHONE_NUMBER, to: customer };

/** The call connects: Meta's offer (a customer's call) or answer (the business's), for the WebRTC stack. */
export function callConnectWebhook(line: CallLine, step: CallStep): Json {
  return callsChange(line, {
    contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: step.customer }],
    calls: [
      {
        id: step.callId,
        ...parties(step),
        event: 'connect',
        timestamp: unix(step.at),
        direction: step.direction,
        session: { sdp_type: step.direction === 'USER_INITIATED' ? 'offer' : 'answer', sdp: SDP },
      },
    ],
  });
}

/**
 * The call ended: COMPLETED or FAILED; `start_time`, `end_time` and `duration` only when it was
 * answered; a failure's `errors` beside the calls.
 */
export function callTerminateWebhook(
  line: CallLine,
  step: CallStep & {
    status: 'COMPLETED' | 'FAILED';
    answered?: { at: Date; seconds: number };
    error?: { code: number; title: string };
  },
): Json {
  const { answered, error } = step;
  return callsChange(line, {
    contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: step.customer }],
    calls: [
      {
        id: step.callId,
        ...parties(step),
        event: 'terminate',
        direction: step.direction,
        timestamp: unix(step.at),
        status: step.status,
        ...(answered && {
          start_time: unix(answered.at),
          end_time: unix(new Date(answered.at.getTime() + answered.seconds * 1000)),
          duration: answered.seconds,
        }),
      },
    ],
    ...(error && { errors: [{ ...error, message: error.title, error_data: { details: error.title } }] }),
  });
}

/** A business-initiated call's status: RINGING on the customer's phone, ACCEPTED or REJECTED by them. */
export function callStatusWebhook(
  line: CallLine,
  step: { callId: string; customer: string; at: Date; status: 'RINGING' | 'ACCEPTED' | 'REJECTED' },
): Json {
  return callsChange(line, {
    statuses: [
      {
        id: step.callId,
        timestamp: unix(step.at),
        type: 'call',
        status: step.status,
        recipient_id: step.customer,
        biz_opaque_callback_data: 'follow-up-call',
      },
    ],
  });
}

/**
 * The customer's answer to a call permission request: an interactive message of type
 * `call_permission_reply` (accept or reject, whether permanent, until when, and whether they tapped it
 * or it came of their own call), replying to the request.
 */
export function callPermissionReplyWebhook(
  line: CallLine,
  reply: {
    customer: string;
    wamid: string;
    at: Date;
    response: 'accept' | 'reject';
    permanent?: boolean;
    expires?: Date;
    requestWamid?: string;
  },
): Json {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: DISPLAY_PHONE_NUMBER, phone_number_id: line.phoneNumberId },
    contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: reply.customer }],
    messages: [
      {
        from: reply.customer,
        id: reply.wamid,
        timestamp: unix(reply.at),
        ...(reply.requestWamid && { context: { from: DISPLAY_PHONE_NUMBER, id: reply.requestWamid } }),
        type: 'interactive',
        interactive: {
          type: 'call_permission_reply',
          call_permission_reply: {
            response: reply.response,
            is_permanent: reply.permanent ?? false,
            ...(reply.expires && { expiration_timestamp: Number(unix(reply.expires)) }),
            response_source: 'user_action',
          },
        },
      },
    ],
  };
  return { object: 'whatsapp_business_account', entry: [{ id: line.wabaId, changes: [{ value, field: 'messages' }] }] };
}
